"""What Coronation's data files hold, for people and frontends
(domain.kit.datafile): served beside the files at /v1/rules/coronation/data."""

from ...kit.datafile import Coordinates, Described, Extent

DATA_FILES = {
    "board.json": Described(
        "1896 Moscow: 92 locations (by id, the numbers of views and commands) with their names, jewel, "
        "underground and instrument marks, the foot (red) lines and the cab (green) lines between them.",
        Coordinates("board units of a 1000 x 900 sheet", "x grows to the east (right)",
                    "y grows to the south (downwards, screen coordinates)", "top left of the sheet",
                    Extent(0, 0, 1000, 900), "locations[].x/y"),
    ),
    "cards.json": Described(
        "The cards: the five detectives, the instruments, the detective and Lind decks' make-up, and every "
        "trap with its name, instrument, effect and text; plus the last turn and the information gap."),
    "card_faces.json": Described(
        "What each card a seat holds says, for people (the rules do not read this file): `cards`, every kind "
        "of card of Lind's hand (the cab ticket, the underground note, the turn-skip, every trap) and of the "
        "detectives' (the cab ticket, every instrument), each with id (as in views and commands), name and "
        "text."),
}
