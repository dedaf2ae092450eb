"""What The Court of Miracles' data files hold, for people and frontends
(domain.kit.datafile): served beside the files at /v1/rules/court-of-miracles/data."""

from ...kit.datafile import Coordinates, Described, Extent, SCREEN

DATA_FILES = {
    "board.json": Described(
        "Paris: the 5 neighbourhoods (id, name, action, 3 spots each with its effect and amount), the Renown "
        "Square's 5 lines (toll and bonus), the Penniless King's path (space 0 the Louvre to space 20, Wrath "
        "spaces pointing at a neighbourhood) and the Seine; `size` is the board's width and height.",
        Coordinates("board units of a 1000 x 700 board (`size`)", *SCREEN, "top left of the board",
                    Extent(0, 0, 1000, 700),
                    "neighbourhoods[].x/y (the symbol), .renown, .spots[].x/y, renown_square and its lines[], "
                    "king_path.spaces[], seine"),
    ),
    "cards.json": Described(
        "Counts and card data the rules play with: the rogues (kind, name, strength, how many each player "
        "starts with and how many more lie in the bag), the 12 Plot cards (card, name, copies, text), coins "
        "and hand limit."),
    "card_texts.json": Described(
        "What each card and token says, for people (the rules do not read this file): every rogue's ability, "
        "every Plot card's text, every neighbourhood's action and every Renown Square line, by the ids the "
        "views and events use (rogue kind, Plot card, neighbourhood id, line number)."),
    "names.json": Described(
        "What the things a command names are called, for people (the rules do not read this file): `cards`, "
        "every Plot card (kind plot) and rogue token (kind rogue) a player may hold, by the ids of views and "
        "commands, with name and text; `renown_lines`, the Renown Square's lines by number, with name and text."),
}
