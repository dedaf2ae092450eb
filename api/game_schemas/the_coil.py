"""The shape of a view of The Coil (GET /games/{id}/view), for the OpenAPI document.

Coordinates are abstract table units: nation cards sit on a circle around the
northern die at (0, 0); a region's x, y is its card's top-left corner and
``layout.slot_positions`` gives its slots relative to that (slot 0 is the
starting arrow)."""

from __future__ import annotations

from marshmallow import Schema, fields

AREAS = ["west", "home", "east"]


class NationSchema(Schema):
    id = fields.String(required=True, metadata={"enum": ["celestos", "dedran", "ignixior", "shakoom", "vargree"]})
    name = fields.String(required=True)
    color = fields.String(required=True)
    dice_per_muster = fields.Integer(required=True)
    starting_hand = fields.Integer(required=True, metadata={"description": "tactics drawn at setup"})
    initiative = fields.Integer(required=True, metadata={"description": "1-5, breaks ties (higher wins)"})
    ability = fields.String(required=True)
    ability_timing = fields.String(required=True, metadata={"enum": ["muster", "escalation", "battle", "conquest", "end_of_game"]})
    ability_text = fields.String(required=True)


class NeutralSchema(NationSchema):
    x = fields.Integer(required=True)
    y = fields.Integer(required=True)


class CardSchema(Schema):
    id = fields.String(required=True, metadata={"description": "homeland card id, e.g. celestos-03"})
    nation = fields.String(required=True)
    tactic = fields.String(required=True, metadata={"enum": ["plus_one", "minus_one", "plus_one_two", "set_value", "opposite_face", "reroll", "swap_pip"]})
    tactic_text = fields.String(required=True)
    resources = fields.List(fields.String(metadata={"enum": ["mythstone", "arcane_technology", "food_caches"]}), required=True,
                            metadata={"description": "empty for a basic region"})
    slots = fields.Integer(required=True, metadata={"description": "size of the deployment area (3-5)"})


class AreaNumbersSchema(Schema):
    west = fields.Integer(required=True)
    home = fields.Integer(required=True)
    east = fields.Integer(required=True)


class StrategySchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    capacity = fields.Nested(AreaNumbersSchema, required=True)
    modifier = fields.Nested(AreaNumbersSchema, required=True)
    objective = fields.String(required=True)
    objective_text = fields.String(required=True)


class ClaimedSchema(Schema):
    area = fields.String(required=True, metadata={"enum": AREAS})
    card = fields.Nested(CardSchema, required=True)


class SeatSchema(Schema):
    seat = fields.String(required=True)
    x = fields.Integer(required=True)
    y = fields.Integer(required=True)
    nation = fields.Nested(NationSchema, allow_none=True, required=True,
                           metadata={"description": "null until the seat has chosen its nation"})
    western_border = fields.String(allow_none=True, required=True,
                                   metadata={"description": "nation on this seat's left (null while nations are chosen)"})
    eastern_border = fields.String(allow_none=True, required=True,
                                   metadata={"description": "nation on this seat's right (null while nations are chosen)"})
    reserves = fields.List(fields.Integer(), required=True, metadata={"description": "die values, sorted"})
    population = fields.Integer(required=True)
    hand_count = fields.Integer(required=True)
    strategy_count = fields.Integer(required=True)
    claimed_counts = fields.Nested(AreaNumbersSchema, required=True)
    hand = fields.List(fields.Nested(CardSchema), allow_none=True, required=True, metadata={"description": "only for its owner"})
    strategies = fields.List(fields.Nested(StrategySchema), allow_none=True, required=True,
                             metadata={"description": "only for its owner; oldest first, the newest governs capacities"})
    chosen_strategy = fields.String(allow_none=True, required=True,
                                    metadata={"description": "only for its owner, and for everyone at the end"})
    claimed = fields.List(fields.Nested(ClaimedSchema), allow_none=True, required=True,
                          metadata={"description": "faces only for its owner, and for everyone at the end"})


class DeckSchema(Schema):
    nation = fields.String(required=True)
    count = fields.Integer(required=True)
    discard = fields.List(fields.Nested(CardSchema), required=True, metadata={"description": "face up, oldest first"})


class DieSchema(Schema):
    seat = fields.String(required=True)
    value = fields.Integer(required=True)


class RegionSchema(Schema):
    card = fields.Nested(CardSchema, required=True)
    position = fields.Integer(required=True, metadata={"description": "index among its nation's regions"})
    x = fields.Integer(required=True)
    y = fields.Integer(required=True)
    full = fields.Boolean(required=True)
    dice = fields.List(fields.Nested(DieSchema), required=True, metadata={"description": "bottom (starting arrow) first"})


class NationChoiceSchema(Schema):
    seat = fields.String(required=True, metadata={"description": "the seat choosing now (seat order, p1 first)"})
    available = fields.List(fields.Nested(NationSchema), required=True)


class EscalationSchema(Schema):
    seat = fields.String(required=True)
    actions_left = fields.Integer(required=True)


class BattleSchema(Schema):
    seat = fields.String(required=True)
    had_turn = fields.List(fields.String(), required=True)
    acted = fields.Boolean(required=True)
    deployed = fields.Boolean(required=True)
    stop_allowed = fields.Boolean(required=True)
    must_deploy = fields.Boolean(required=True)
    ability_used = fields.List(fields.String(), required=True, metadata={"description": "seats that used Celestos' ability"})


class CategorySchema(Schema):
    category = fields.String(required=True)
    total = fields.Float(required=True)
    points = fields.Integer(required=True)


class ScoreSchema(Schema):
    seat = fields.String(required=True)
    strategy = fields.Nested(StrategySchema, required=True)
    total = fields.Integer(required=True)
    categories = fields.List(fields.Nested(CategorySchema), required=True)


class LayoutSchema(Schema):
    card = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    slot_positions = fields.Dict(keys=fields.String(), values=fields.List(fields.List(fields.Integer())), required=True,
                                 metadata={"description": "by slot count: [x, y] of each slot, bottom first"})
    arrow_slot = fields.Integer(required=True)
    northern_die = fields.List(fields.Integer(), required=True)


class ViewSchema(Schema):
    phase = fields.String(required=True, metadata={"enum": [
        "nations", "expansion", "muster", "escalation", "battle", "conquest", "choose", "over"]})
    round = fields.Integer(required=True)
    northern_die = fields.Integer(required=True)
    to_act = fields.List(fields.String(), required=True)
    current = fields.String(allow_none=True, required=True)
    seats = fields.List(fields.Nested(SeatSchema), required=True)
    neutral = fields.Nested(NeutralSchema, allow_none=True, required=True)
    layout = fields.Nested(LayoutSchema, required=True)
    decks = fields.List(fields.Nested(DeckSchema), required=True)
    coil = fields.List(fields.Nested(RegionSchema), required=True)
    strategy_deck_count = fields.Integer(required=True)
    turn_order = fields.List(fields.String(), required=True)
    nation_choice = fields.Nested(NationChoiceSchema, allow_none=True, required=True,
                                  metadata={"description": "while the seats choose their nations"})
    escalation = fields.Nested(EscalationSchema, allow_none=True, required=True)
    battle = fields.Nested(BattleSchema, allow_none=True, required=True)
    scores = fields.List(fields.Nested(ScoreSchema), allow_none=True, required=True,
                         metadata={"description": "at the end, for everyone"})


# How ``visible`` redacts events for a viewer who may not see everything.
REDACTED = {
    "DeckShuffled": {"hidden": ("cards",)},
    "StrategyDeckShuffled": {"hidden": ("cards",)},
    "StrategyDrawn": {"hidden": ("card",)},
    "Strategized": {"hidden": ("card",)},
    "StrategyChosen": {"hidden": ("card",)},
    "CardsDrawn": {"hidden": ("cards",)},
    "Scouted": {"hidden": ("card",)},
    "RegionsClaimed": {"hidden": ("regions",)},
}
