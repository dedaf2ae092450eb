"""The shape of a view of Runebound: Crown of the Elder Kings (GET /games/{id}/view).

Board coordinates are abstract units in 0..100 (x to the east, y to the south).
Deck orders are hidden: ``decks`` gives only how many cards each deck holds."""

from __future__ import annotations

from marshmallow import Schema, fields

COLOURS = ["green", "yellow", "blue", "red"]
PHASES = ["ranged", "melee", "magic"]
DECKS = ["green", "yellow", "red", "crown_green", "crown_yellow", "crown_blue"]
STEPS = ["choosing", "move", "adventure", "experience", "combat", "placing", "over"]


class PlaceSchema(Schema):
    name = fields.String(required=True)
    x = fields.Integer(required=True)
    y = fields.Integer(required=True)
    kind = fields.String(required=True, metadata={"enum": ["town", "wild"]})
    counter = fields.String(metadata={"enum": COLOURS, "description": "colour of the adventure counter (wilds only)"})
    starburst = fields.Boolean(metadata={"description": "refilled by events (wilds only)"})


class BoardSchema(Schema):
    places = fields.List(fields.Nested(PlaceSchema), required=True)
    edges = fields.List(fields.List(fields.String()), required=True, metadata={"description": "roads, pairs of place names"})


class AllySchema(Schema):
    name = fields.String(required=True)
    wounds = fields.Integer(required=True)


class StatsSchema(Schema):
    gold = fields.Integer(required=True)
    life = fields.Integer(required=True)
    stamina = fields.Integer(required=True)
    mind = fields.Integer(required=True)
    body = fields.Integer(required=True)
    spirit = fields.Integer(required=True)


class HeroSchema(StatsSchema):
    """A hero in play; life, stamina, mind, body and spirit include experience and items."""
    seat = fields.String(required=True)
    hero = fields.String(required=True)
    place = fields.String(required=True)
    wounds = fields.Integer(required=True)
    exhaustion = fields.Integer(required=True)
    level = fields.Integer(required=True, metadata={"description": "one plus the experience counters"})
    experience = fields.List(fields.String(metadata={"enum": ["mind", "body", "spirit", "stamina", "life"]}), required=True)
    adventure_counters = fields.List(fields.String(metadata={"enum": COLOURS}), required=True,
                                     metadata={"description": "unspent adventure counters"})
    xp = fields.Integer(required=True, metadata={"description": "experience points of the unspent counters"})
    items = fields.List(fields.String(), required=True)
    allies = fields.List(fields.Nested(AllySchema), required=True)
    exhausted = fields.List(fields.String(), required=True, metadata={"description": "exhausted item and ally cards"})
    trophies = fields.List(fields.String(), required=True)
    vassals = fields.List(fields.String(), required=True)
    dragon_lords = fields.List(fields.String(), required=True)
    eliminated = fields.Boolean(required=True)


class AttackDamageSchema(Schema):
    attack = fields.Integer(required=True)
    damage = fields.Integer(required=True)


class HeroCardSchema(StatsSchema):
    """A printed hero card (gold is the starting gold)."""
    name = fields.String(required=True)
    ranged = fields.Nested(AttackDamageSchema, required=True)
    melee = fields.Nested(AttackDamageSchema, required=True)
    magic = fields.Nested(AttackDamageSchema, required=True)


class CounterSchema(Schema):
    place = fields.String(required=True)
    colour = fields.String(required=True, metadata={"enum": COLOURS})


class PhaseNumbersSchema(Schema):
    ranged = fields.Integer(required=True)
    melee = fields.Integer(required=True)
    magic = fields.Integer(required=True)


class EnemyCardSchema(Schema):
    name = fields.String(required=True)
    colour = fields.String(required=True, metadata={"enum": COLOURS})
    life = fields.Integer(required=True)
    gold = fields.Integer(required=True)
    target = fields.Nested(PhaseNumbersSchema, required=True, metadata={"description": "2d10 + attack must reach this"})
    damage = fields.Nested(PhaseNumbersSchema, required=True, metadata={"description": "wounds it deals per phase"})
    text = fields.String(required=True)
    rank = fields.String(allow_none=True, metadata={"enum": ["Knave", "Knight", "Lady", "Duke"]})
    house = fields.String(allow_none=True, metadata={"enum": ["Secrets", "Blood", "Hate"]})
    vassal = fields.Boolean(required=True)
    dragon_lord = fields.Boolean(required=True)
    margath = fields.Boolean(required=True)


class BonusSchema(Schema):
    phase = fields.String(required=True, metadata={"enum": PHASES})
    attack = fields.Integer(required=True)
    damage = fields.Integer(required=True)


class MarketCardSchema(Schema):
    name = fields.String(required=True)
    type = fields.String(required=True, metadata={"enum": ["item", "ally"]})
    cost = fields.Integer(required=True)
    bonus = fields.Nested(BonusSchema, allow_none=True)
    life = fields.Integer(required=True)
    stamina = fields.Integer(required=True)
    heal = fields.Integer(required=True, metadata={"description": "wounds healed when the item is exhausted"})


class CombatSchema(Schema):
    seat = fields.String(required=True, metadata={"description": "the adventurer or challenger"})
    enemy = fields.String(allow_none=True, required=True)
    enemy_card = fields.Nested(EnemyCardSchema, allow_none=True, required=True)
    opponent = fields.String(allow_none=True, required=True, metadata={"description": "the Elder King's seat in a combat between heroes"})
    enemy_wounds = fields.Integer(required=True)
    phase = fields.String(required=True, metadata={"enum": PHASES})
    round = fields.Integer(required=True)
    allies = fields.List(fields.String(), required=True)
    opponent_allies = fields.List(fields.String(), required=True)
    has_declared = fields.Boolean(required=True, metadata={"description": "the challenger has chosen for this phase"})
    declared = fields.String(allow_none=True, required=True, metadata={
        "enum": ["attack", "defend", None], "description": "the challenger's secret choice; shown only to the challenger"})


class LineSchema(Schema):
    vassal = fields.String(required=True)
    wounds = fields.Integer(required=True)
    card = fields.Nested(EnemyCardSchema, required=True)


class EndgameSchema(Schema):
    king = fields.String(allow_none=True, required=True)
    challengers = fields.List(fields.String(), required=True, metadata={"description": "in order; the first is confronting"})
    line = fields.List(fields.Nested(LineSchema), required=True, metadata={"description": "the Elder King's Vassals in order"})
    placing = fields.Boolean(required=True)
    last_king = fields.String(allow_none=True, required=True)
    eliminated = fields.List(fields.String(), required=True)


class DeckSizesSchema(Schema):
    green = fields.Integer(required=True)
    yellow = fields.Integer(required=True)
    red = fields.Integer(required=True)
    crown_green = fields.Integer(required=True)
    crown_yellow = fields.Integer(required=True)
    crown_blue = fields.Integer(required=True)


class ViewSchema(Schema):
    board = fields.Nested(BoardSchema, required=True)
    round = fields.Integer(required=True)
    doom_rounds = fields.Integer(required=True)
    active = fields.String(allow_none=True, required=True)
    step = fields.String(required=True, metadata={"enum": STEPS})
    movement = fields.Integer(required=True, metadata={"description": "steps the active hero may walk this turn"})
    to_act = fields.List(fields.String(), required=True)
    heroes = fields.List(fields.Nested(HeroSchema), required=True, metadata={"description": "chosen heroes, in seat order"})
    hero_cards = fields.List(fields.Nested(HeroCardSchema), required=True, metadata={"description": "every hero card"})
    counters = fields.List(fields.Nested(CounterSchema), required=True)
    decks = fields.Nested(DeckSizesSchema, required=True, metadata={"description": "deck sizes; orders are hidden"})
    discards = fields.List(fields.String(), required=True)
    market = fields.List(fields.Nested(MarketCardSchema), required=True)
    combat = fields.Nested(CombatSchema, allow_none=True, required=True)
    endgame = fields.Nested(EndgameSchema, allow_none=True, required=True)
    winner = fields.String(allow_none=True, required=True)
    result = fields.String(allow_none=True, required=True)


# How ``visible`` redacts events for a viewer who may not see everything.
REDACTED = {
    "ActionDeclared": {"hidden": ("action",)},
}
