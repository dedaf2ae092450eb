"""What Cronberg's data files hold, for people and frontends
(domain.kit.datafile): served beside the files at /v1/rules/cronberg/data."""

from ...kit.datafile import Coordinates, Described, Extent, SCREEN

DATA_FILES = {
    "board.json": Described(
        "The city inside its wall: 42 crossings (X01..X42, where family members stand) and 62 triangles "
        "(T01..T62, which buildings cover two at a time), each triangle with its three corner crossings, its "
        "kind (plain, park, musketeer, coat-of-arms) and its sides on the city wall; `assumptions` says what "
        "is a stand-in for the printed board.",
        Coordinates("edge lengths of the triangular grid (one triangle side = 1)", *SCREEN,
                    "top left of the board's bounding box", Extent(0, 0, 7, 5.1962),
                    "crossings[].x/y (the crossing's point) and triangles[].x/y (the triangle's centre)"),
    ),
    "tiles.json": Described(
        "The 28 buildings (rhomboids of two triangles), by id (the `tile` of BuildingDrawn and "
        "BuildingPlaced): each lists its 4 corner numbers clockwise as drawn (y downwards), starting at an "
        "acute (60 degree) corner: acute, obtuse, acute, obtuse."),
}
