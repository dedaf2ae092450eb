"""What each field of Cronberg's commands and events means, for the API's
document (``Game.field_descriptions``): "field" for that name in every
message, "Type.field" for one message's (which wins). Ids are as in the
view and board.json / tiles.json (served at /v1/rules/cronberg/data).

``FIELD_NAMES`` says which command fields name a place of the board
(``Game.field_names``): a triangle or a crossing, both listed in board.json,
where a client finds each one's position and, the id being what the board
prints, its label."""

from ...kit.names import Names

TRIANGLE = Names("place", "triangle", data="board.json", list="triangles", key="id", label="id")
CROSSING = Names("place", "crossing", data="board.json", list="crossings", key="id", label="id")

FIELD_NAMES: dict[str, Names] = {
    "PlaceBuilding.triangles": TRIANGLE,
    "PlaceMember.crossing": CROSSING,
}

FIELD_DESCRIPTIONS: dict[str, str] = {
    # Who
    "seat": "a seat: p1, p2, p3 or p4, as in GameSetUp.seats",
    "GameSetUp.seats": "the seats in turn order (clockwise): p1, p2, ... one per player",
    "RoundStarted.starter": "the seat that takes the round's first turn: drawn at random for round 1, then the next "
                            "seat clockwise each round",
    "BuildingDrawn.seat": "the seat whose turn it is, who drew the tile and now places it",
    "BuildingPlaced.seat": "the seat whose turn it is, who laid the tile",
    "MemberPlaced.seat": "the seat whose turn it is, who put one of its family members on the crossing",
    "MemberDrivenOut.seat": "the seat that owns the member; the member goes back to its supply",
    "MemberScored.seat": "the seat that owns the member and gets the points",
    "TurnPassed.seat": "the seat that passed: it could neither draw a building nor place a family member",
    "TurnBegan.seat": "the seat whose turn begins now",
    "GameEnded.winners": "the seats with the highest score; several share the win",
    # Rounds and scores
    "GameSetUp.rounds": "how many rounds the game lasts, 1-4 (option rounds); scores carry over from round to round",
    "round": "the round's number, from 1",
    "RoundEnded.scores": "every seat's total score after the round's end scoring, in seat order (as GameSetUp.seats); "
                         "totals over all rounds so far, may be below 0",
    "MemberScored.points": "what the crossing was worth, added to the owner's score; may be negative. Scored at once "
                           "it is the plain sum of the corner numbers there; at the round's end Coats of Arms and "
                           "Parks apply",
    "MemberScored.at_end": "true when the member was scored by the end-of-round scoring; false when it was scored at "
                           "once because no vacant triangle touched its crossing any more",
    "GameEnded.points": "the winners' score: the highest total",
    # Buildings
    "RoundStarted.stack": "the round's face-down stack: the 28 rhomboid numbers in shuffled order, top first; only "
                          "the referee sees it (everyone else gets stack_size)",
    "tile": "the building rhomboid's number, 1-28, as in the view's tiles and tiles.json",
    "BuildingDrawn.corners": "the tile's 4 corner numbers (each -8..8, never 0) clockwise from an acute corner: "
                             "acute, obtuse, acute, obtuse, as in tiles.json",
    "triangles": "the two edge-adjacent triangles the building covers, by id (T01..T62, as in the view's triangles "
                 "and board.json), in board order (the lower number first), e.g. [\"T05\", \"T06\"]",
    "PlaceBuilding.triangles": "the two edge-adjacent vacant triangles to cover, by id (T01..T62, as in the view's "
                               "triangles and board.json), in board order (the lower number first), e.g. "
                               "[\"T05\", \"T06\"]",
    "turned": "false: the tile's first corner lies on the corner of the first triangle that the second does not "
              "share; true: the tile is rotated half a turn, its first corner on that corner of the second",
    # The city
    "TriangleEnclosed.triangle": "the triangle's id, T01..T62, as in the view's triangles and board.json",
    "TriangleEnclosed.kind": "what is printed on it, now active: plain (no effect), park (doubles the value of "
                             "each crossing at its corners), musketeer (drives out the members at its corners "
                             "and keeps new ones off) or coat_of_arms (corner numbers there count as absolute "
                             "values)",
    "crossing": "a crossing's id, X01..X42, as in the view's crossings and board.json",
    "PlaceMember.crossing": "the crossing to stand on, X01..X42 as in the view's crossings and board.json: free, "
                            "touching a vacant triangle and no active Musketeer (the view marks it open)",
}
