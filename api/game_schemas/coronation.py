"""The shape of a Coronation view (GET /games/{id}/view), for the OpenAPI document.

Coordinates are board units, x to the east and y to the south. Detective seats
and spectators get ``lind`` as null; Lind's player (and everyone once the game
is over) gets his location, hand, stolen jewels and the full route."""

from __future__ import annotations

from marshmallow import Schema, fields


class LocationSchema(Schema):
    id = fields.Integer(required=True)
    name = fields.String(required=True)
    x = fields.Integer(required=True)
    y = fields.Integer(required=True)
    jewel = fields.Boolean(required=True, metadata={"description": "a jewel (crown) location"})
    underground = fields.Boolean(required=True, metadata={"description": "has an underground entrance"})
    instrument = fields.String(
        allow_none=True, required=True, metadata={"description": "the instrument symbol of a special location"}
    )


class TrapSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    instrument = fields.String(required=True, metadata={"description": "the instrument that defuses it"})
    effect = fields.String(required=True, metadata={"enum": ["lose-next-action", "discard-ticket"]})
    extraordinary = fields.Boolean(required=True, metadata={"description": "Lind may move at once after it is suffered"})
    text = fields.String(required=True)


class InstrumentSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)


class BoardSchema(Schema):
    locations = fields.List(fields.Nested(LocationSchema), required=True)
    foot_lines = fields.List(fields.List(fields.Integer()), required=True, metadata={"description": "red lines as id pairs"})
    cab_lines = fields.List(fields.List(fields.Integer()), required=True, metadata={"description": "green lines as id pairs"})
    traps = fields.List(fields.Nested(TrapSchema), required=True)
    instruments = fields.List(fields.Nested(InstrumentSchema), required=True)


class DetectiveSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    seat = fields.String(required=True, metadata={"description": "the seat that directs him (any detective seat with shared control)"})
    location = fields.Integer(allow_none=True, required=True)
    equipped = fields.Boolean(required=True)
    tickets = fields.Integer(required=True)
    instruments = fields.List(fields.String(), required=True)
    acted = fields.Boolean(required=True, metadata={"description": "has acted (or lost his action) this turn"})
    stunned = fields.Boolean(required=True, metadata={"description": "will lose his next action"})
    may_gather_information = fields.Boolean(required=True)


class CardCountSchema(Schema):
    card = fields.String(required=True)
    count = fields.Integer(required=True)


class RouteCardSchema(Schema):
    index = fields.Integer(required=True)
    left = fields.Boolean(required=True, metadata={"description": "Lind has laid a later route card"})
    card_left = fields.Boolean(
        allow_none=True, required=True, metadata={"description": "a face-down card lies on it (null until Lind moves on)"}
    )
    revealed = fields.Boolean(required=True)
    hide = fields.Boolean(allow_none=True, required=True, metadata={"description": "once revealed: a decoy of a hide"})
    location = fields.Integer(allow_none=True, required=True, metadata={"description": "once revealed (never for a hide)"})
    card_revealed = fields.Boolean(required=True)
    card = fields.String(
        allow_none=True, required=True, metadata={"description": "once revealed: a trap id, ticket, note, turn-skip or null"}
    )
    trap_spent = fields.Boolean(required=True)


class SecretRouteCardSchema(Schema):
    location = fields.Integer(required=True)
    hide = fields.Boolean(required=True)
    card = fields.String(allow_none=True, required=True)


class LindSecretSchema(Schema):
    location = fields.Integer(allow_none=True, required=True)
    hand = fields.List(fields.Nested(CardCountSchema), required=True)
    stolen = fields.List(fields.Integer(), required=True, metadata={"description": "jewel locations he has left"})
    route = fields.List(fields.Nested(SecretRouteCardSchema), required=True)


class ViewSchema(Schema):
    phase = fields.String(
        required=True, metadata={"enum": ["setup", "appear", "lind", "detectives", "extraordinary", "over"]}
    )
    turn = fields.Integer(required=True)
    last_turn = fields.Integer(required=True)
    to_act = fields.List(fields.String(), required=True)
    outcome = fields.String(allow_none=True, required=True)
    winner = fields.String(allow_none=True, required=True, metadata={"enum": ["lind", "detectives", None]})
    equipment = fields.String(required=True, metadata={"enum": ["recommended", "random", "choose"]})
    shared_control = fields.Boolean(required=True)
    detectives = fields.List(fields.Nested(DetectiveSchema), required=True)
    detective_deck = fields.List(fields.Nested(CardCountSchema), required=True, metadata={"description": "cards not yet given out"})
    route = fields.List(fields.Nested(RouteCardSchema), required=True)
    jewels_left = fields.Integer(required=True)
    lind_cards_left = fields.Integer(required=True)
    lind = fields.Nested(LindSecretSchema, allow_none=True, required=True)
    board = fields.Nested(BoardSchema, required=True)


# How ``visible`` redacts events for a viewer who may not see everything: Lind's
# moves keep only what the detectives learn.
REDACTED = {
    "LindAppeared": {"hidden": "*"},
    "LindMoved": {"hidden": "*", "added": {
        "card_left": fields.Boolean(metadata={"description": "he left a face-down card on his route card"}),
        "jewel_stolen": fields.Boolean(),
    }},
    "LindMovedExtraordinarily": {"hidden": "*", "added": {"jewel_stolen": fields.Boolean()}},
}
