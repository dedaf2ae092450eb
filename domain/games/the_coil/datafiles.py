"""What The Coil's data files hold, for people and frontends
(domain.kit.datafile): served beside the files at /v1/rules/the-coil/data."""

from ...kit.datafile import Coordinates, Described, SCREEN

DATA_FILES = {
    "data.json": Described(
        "The nations (id, name, colour, dice, starting hand, initiative, ability), the 70 homeland cards "
        "(nation, tactic, resources, deployment slots), the tactics, strategy cards and objectives with their "
        "texts, and `layout`, where to draw the table.",
        Coordinates("abstract drawing units (a nation card is 60 wide, 90 high)", *SCREEN,
                    "the northern die, at the centre of the table", None,
                    "layout: table[players][place] is each seat's nation card around (0, 0); slot_positions "
                    "and regions_above_nation/region_offset are offsets from that card"),
    ),
    "card_names.json": Described(
        "What each homeland card is called and says, for people (the rules do not read this file): `cards`, "
        "every homeland card by its id in data.json (as views and commands name it), named by its nation, its "
        "number in that nation's deck and its tactic (\"Dedran 2: Falter\"), with a text giving the tactic and "
        "the region's resources and slots; `resources`, the three resources' names."),
}
