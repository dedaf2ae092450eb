"""The shape of a Cronberg view, declared once: the API's schema is derived
from it and the conformance suite checks every view against it.

Coordinates are in edge lengths of the triangular grid, x to the right and y
downwards; a triangle's x, y is its centre, a crossing's x, y the point itself
(the board's extent is in board.json, served at /v1/rules/cronberg/data)."""

from __future__ import annotations

from ...kit.names import Board, Hand, Names
from ...kit.shape import Bool, Int, List, Num, Obj, Str, described, maybe, optional

SEAT = "a seat: p1, p2, ..."

PLAYER = Obj("Player", "one player's score and family", {
    "seat": Str(SEAT),
    "score": Int("position of the family head on the city wall: the player's score"),
    "supply": Int("family members in hand", minimum=0),
    "in_city": Int("family members standing on crossings", minimum=0),
})

TILE = Obj("Tile", "a building rhomboid", {
    "id": Int("the tile's number, 1-28"),
    "corners": List(Int(), "the 4 corner numbers clockwise from an acute corner: acute, obtuse, acute, obtuse"),
})

TRIANGLE = Obj("Triangle", "one triangle of the city", {
    "id": Str("the triangle's id, T01..T62, in board order (as in board.json)"),
    "corners": List(Str(), "its three crossing ids"),
    "x": Num("x of its centre, in edge lengths, to the right"),
    "y": Num("y of its centre, in edge lengths, downwards"),
    "kind": Str("what is printed on it", enum=("plain", "park", "musketeer", "coat_of_arms")),
    "wall_sides": List(List(Str()), "sides on the city wall, as crossing pairs"),
    "tile": Int("the building covering it, or null if vacant", nullable=True),
    "enclosed": Bool("vacant with a building or the wall on every side"),
    "active": Bool("an enclosed Park, Musketeer or Coat of Arms"),
})

CROSSING = Obj("Crossing", "one crossing of the grid, where family members stand", {
    "id": Str("the crossing's id, X01..X42 (as in board.json)"),
    "x": Num("x in edge lengths, to the right"),
    "y": Num("y in edge lengths, downwards"),
    "member": Str("seat of the family member here, or null", nullable=True),
    "numbers": List(Int(), "corner numbers of the buildings touching it"),
    "value": Int("what a member here would score now, Coats of Arms and Parks applied"),
    "open": Bool("a family member may be placed here now"),
})

BUILDING_CORNER = Obj("BuildingCorner", "one corner of a laid building", {
    "crossing": Str("the crossing at that corner"),
    "number": Int("the corner number printed there"),
})

BUILDING = Obj("Building", "a building laid in the city", {
    "tile": Int("the tile's number"),
    "triangles": List(Str(), "the two triangles it covers, in board order"),
    "turned": Bool("laid turned half a turn"),
    "corners": List(BUILDING_CORNER, "its four corners and the numbers they bring to each crossing"),
})

VIEW = Obj("View", "a Cronberg game as one viewer sees it: all is open but the order of the face-down stack", {
    "game": Str("always cronberg", enum=("cronberg",)),
    "viewer": Str("a seat, null for a spectator, * for the referee", nullable=True),
    "seats": List(Str(), "the seats in turn order"),
    "to_act": List(Str(), "seats that may act now"),
    "current": Str("the seat whose turn it is, null once over", nullable=True),
    "round": Int("the round being played, from 1"),
    "rounds": Int("rounds the game lasts"),
    "starter": Str("the seat that began this round"),
    "step": Str("what the current seat does next", enum=("choose_action", "place_building", "over")),
    "players": List(PLAYER, "every player, in seat order"),
    "stack_size": Int("face-down buildings left", minimum=0),
    "drawn": described(maybe(TILE), "the rhomboid drawn this turn, face up, that the current seat places next "
                                    "(step place_building); null otherwise"),
    "hand": List(Int(description="a building's number, as in tiles.json"),
                 "the building the viewer holds, as a client draws his hand: the one he drew and lays next (as "
                 "drawn), else none; null for a viewer who holds no seat", nullable=True),
    "triangles": List(TRIANGLE, "every triangle of the city"),
    "crossings": List(CROSSING, "every crossing of the grid"),
    "buildings": List(BUILDING, "the buildings laid, in the order they were laid"),
    "tiles": List(TILE, "all 28 buildings of the game"),
    "passed": List(Str(), "seats that passed since the last action"),
    "outcome": Str("the result in a sentence once the game is over, else null", nullable=True),
    "stack": optional(List(Int(), "referee only: the face-down order, top first")),
})

# What score puts in a standing's detail: nothing (the score is the seat's place on the city wall).
STANDING_DETAIL = Obj("StandingDetail", "nothing of Cronberg's own: the score is the seat's position on the city wall",
                      {})

# A seat's hand: the building it drew and lays next (face up for everyone, as the
# view's ``drawn``, but its own to lay); family members are counted, not named.
HAND = Hand(field="hand", names=Names("card", "building", data="tiles.json", list="tiles", key="id", label="id"))

# The board: a triangular grid of crossings and triangles inside a wall (board.json),
# buildings laid over pairs of triangles, family members on crossings.
BOARD_DRAWING = Board("triangle-grid", "board.json")
