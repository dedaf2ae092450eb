"""The shape of a Court of Miracles view (GET /games/{id}/view), for the OpenAPI document.

Coordinates are on a 1000 x 700 board, origin top left. Hidden facts are null
for viewers who may not see them: a face-down rogue's kind (``rogue``), other
players' hands and rogues out of play, the drawn rogue, the Seine."""

from __future__ import annotations

from marshmallow import Schema, fields

NEIGHBOURHOOD_IDS = ["taverne", "egyptienne", "halles", "chatelet", "grande-cour"]
PHASES = ["place", "act", "recruit", "wrath", "standoffs", "standoff", "over"]


class PointSchema(Schema):
    x = fields.Integer(required=True)
    y = fields.Integer(required=True)


class PlayerSchema(Schema):
    seat = fields.String(required=True)
    coins = fields.Integer(required=True)
    hand_size = fields.Integer(required=True)
    hand = fields.List(fields.String(), allow_none=True, required=True,
                       metadata={"description": "Plot cards; null unless the viewer is this player"})
    supply_size = fields.Integer(required=True, metadata={"description": "rogues out of play (not the parked Right-Hand)"})
    supply = fields.List(fields.String(), allow_none=True, required=True,
                         metadata={"description": "kinds of the rogues out of play; null unless the viewer is this player"})
    right_hand_parked = fields.Boolean(required=True, metadata={"description": "Right-Hand still on Renown Square line 3"})
    lines = fields.List(fields.Integer(), required=True, metadata={"description": "Renown Square lines with this player's Renown"})
    controls = fields.List(fields.String(), required=True, metadata={"description": "neighbourhoods controlled"})
    renown_placed = fields.Integer(required=True)
    renown_left = fields.Integer(required=True)


class SpotSchema(Schema):
    spot = fields.Integer(required=True, metadata={"description": "distance to the symbol; 1 is closest and wins ties"})
    effect = fields.String(required=True, metadata={"enum": ["king", "coins", "plots"]})
    amount = fields.Integer(required=True)
    x = fields.Integer(required=True)
    y = fields.Integer(required=True)
    owner = fields.String(allow_none=True, required=True, metadata={"description": "seat of the face-down rogue here"})
    rogue = fields.String(allow_none=True, required=True, metadata={"description": "its kind, for its owner only"})


class NeighbourhoodSchema(Schema):
    id = fields.String(required=True, metadata={"enum": NEIGHBOURHOOD_IDS})
    name = fields.String(required=True)
    action = fields.String(required=True, metadata={"enum": ["recruit", "shift", "renown", "plot", "coins"]})
    x = fields.Integer(required=True)
    y = fields.Integer(required=True)
    renown = fields.Nested(PointSchema, required=True, metadata={"description": "where the controller's Renown token is drawn"})
    controller = fields.String(allow_none=True, required=True)
    spots = fields.List(fields.Nested(SpotSchema), required=True)


class LineSchema(Schema):
    line = fields.Integer(required=True)
    toll = fields.Integer(required=True)
    bonus = fields.String(required=True, metadata={"enum": ["plots", "king", "right-hand"]})
    amount = fields.Integer(required=True)
    x = fields.Integer(required=True)
    y = fields.Integer(required=True)
    seats = fields.List(fields.String(), required=True, metadata={"description": "players with a Renown token on it"})


class PathSpaceSchema(Schema):
    space = fields.Integer(required=True)
    x = fields.Integer(required=True)
    y = fields.Integer(required=True)
    name = fields.String(metadata={"description": "Le Louvre (0) and the last space"})
    wrath = fields.String(metadata={"description": "a Wrath space: the neighbourhood its hand points at"})


class KingSchema(Schema):
    space = fields.Integer(required=True)
    stopped = fields.Boolean(required=True, metadata={"description": "stopped on a Wrath space for this turn"})
    path = fields.List(fields.Nested(PathSpaceSchema), required=True)


class TurnSchema(Schema):
    placed_neighbourhood = fields.String(allow_none=True, required=True)
    placed_spot = fields.Integer(allow_none=True, required=True)
    plot_played = fields.Boolean(required=True, metadata={"description": "this turn's Plot card was played (one per turn)"})
    devil = fields.Boolean(required=True)
    magician = fields.Boolean(required=True)
    action_done = fields.Boolean(required=True)
    king_stopped = fields.Boolean(required=True)
    wrath = fields.String(allow_none=True, required=True, metadata={"description": "neighbourhood of this turn's Wrath"})


class RevealedRogueSchema(Schema):
    owner = fields.String(required=True)
    spot = fields.Integer(required=True)
    rogue = fields.String(required=True)


class PaidSchema(Schema):
    seat = fields.String(required=True)
    count = fields.Integer(required=True)


class AnswerSchema(Schema):
    seat = fields.String(required=True)
    count = fields.Integer(allow_none=True, required=True,
                           metadata={"description": "Swordsmen this seat pays for; null unless the viewer is this seat"})


class TotalSchema(Schema):
    seat = fields.String(required=True)
    strength = fields.Integer(required=True)


class StandoffSchema(Schema):
    neighbourhood = fields.String(required=True)
    rogues = fields.List(fields.Nested(RevealedRogueSchema), required=True)
    chariot = fields.Boolean(required=True)
    awaiting = fields.List(fields.String(), required=True, metadata={"description": "seats deciding on their Swordsmen"})
    answered = fields.List(fields.Nested(AnswerSchema), required=True,
                           metadata={"description": "sealed answers on Swordsmen given so far"})
    paid = fields.List(fields.Nested(PaidSchema), required=True,
                       metadata={"description": "Swordsman payments, public once every seat asked has answered"})
    totals = fields.List(fields.Nested(TotalSchema), required=True)
    won = fields.Boolean(required=True)
    winner = fields.String(allow_none=True, required=True)


class ViewSchema(Schema):
    to_act = fields.List(fields.String(), required=True)
    phase = fields.String(required=True, metadata={"enum": PHASES})
    active = fields.String(required=True)
    seats = fields.List(fields.String(), required=True)
    players = fields.List(fields.Nested(PlayerSchema), required=True)
    reserve = fields.Integer(required=True)
    neighbourhoods = fields.List(fields.Nested(NeighbourhoodSchema), required=True)
    renown_square = fields.List(fields.Nested(LineSchema), required=True)
    king = fields.Nested(KingSchema, required=True)
    pile_size = fields.Integer(required=True)
    discards = fields.List(fields.String(), required=True)
    bag_size = fields.Integer(required=True)
    seine_size = fields.Integer(required=True)
    seine = fields.List(fields.String(), allow_none=True, required=True, metadata={"description": "referee only"})
    drawn_rogue = fields.String(allow_none=True, required=True, metadata={"description": "for the drawer only"})
    turn = fields.Nested(TurnSchema, required=True)
    standoffs = fields.List(fields.String(), required=True, metadata={"description": "Standoffs waiting this turn"})
    standoff = fields.Nested(StandoffSchema, allow_none=True, required=True)
    winners = fields.List(fields.String(), required=True)
    end_reason = fields.String(allow_none=True, required=True, metadata={"enum": ["renown", "king", None]})


# How ``visible`` redacts events for a viewer who may not see everything.
REDACTED = {
    "GameSetUp": {"hidden": ("pile", "bag"), "added": {"pile_size": fields.Integer(), "bag_size": fields.Integer()}},
    "PlotPileReshuffled": {"hidden": ("pile",), "added": {"pile_size": fields.Integer()}},
    "PlotsDrawn": {"hidden": ("cards",), "added": {"count": fields.Integer(metadata={"description": "how many cards"})}},
    "RoguePlaced": {"hidden": ("rogue",)},
    "RogueDrawn": {"hidden": ("rogue",)},
    "RogueDiscarded": {"hidden": ("rogue",)},
    "SwordsmenChosen": {"hidden": ("count",)},
}
