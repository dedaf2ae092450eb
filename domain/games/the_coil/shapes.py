"""The shape of a view of The Coil, declared once: the API's schema is derived
from it and the conformance suite checks every view against it.

Coordinates are abstract table units (data.json, "layout"): x to the right,
y downwards; the northern die is at (0, 0) and the nation cards sit on a
circle around it. A card's x, y is its top-left corner; ``layout`` gives a
card's size and the slots of a region relative to that corner."""

from __future__ import annotations

from ...kit.names import Board, Hand
from ...kit.shape import Bool, Int, List, Map, Num, Obj, Str, described, maybe
from .data import AREAS, NATION_IDS, OBJECTIVES, RESOURCES, STRATEGIES, TACTICS
from .fields import FIELD_NAMES
from .scoring import CATEGORIES

SEAT = "a seat: p1, p2, ..."
NATION_ID = Str("a nation: " + ", ".join(NATION_IDS), enum=NATION_IDS)
PHASES = ("setup", "nations", "expansion", "muster", "escalation", "battle", "conquest", "choose", "over")
TIMINGS = ("muster", "escalation", "battle", "conquest", "end_of_game")

_NATION_FIELDS = {
    "id": NATION_ID,
    "name": Str("the nation's name, as printed"),
    "color": Str("the colour of its dice and cards (a colour name, e.g. white)"),
    "dice_per_muster": Int("dice it rolls into its reserves in each Muster phase", minimum=0),
    "starting_hand": Int("tactics (homeland cards) drawn into the hand at setup", minimum=0),
    "initiative": Int("1-5: breaks ties of turn order and of the final score (higher wins)", minimum=1),
    "ability": Str("the id of its special ability (e.g. starlit_resolve)"),
    "ability_timing": Str("the phase in which the ability applies", enum=TIMINGS),
    "ability_text": Str("the ability in words"),
}

NATION = Obj("Nation", "a nation card, face up for everyone: its dice, hand and special ability (a seat's is null until it has chosen one)", _NATION_FIELDS)

NEUTRAL = Obj("Neutral", "two players: the neutral third nation, with where its card lies (null with more players)", {
    **_NATION_FIELDS,
    "x": Int("x of its nation card's top-left corner, in table units"),
    "y": Int("y of its nation card's top-left corner, in table units (downwards)"),
})

CARD = Obj("Card", "a homeland card: a region of the Coil, or a tactic in a hand", {
    "id": Str("the homeland card id, <nation>-<two digits>, e.g. celestos-03"),
    "nation": NATION_ID,
    "tactic": Str("what it does when played as a tactic", enum=tuple(TACTICS)),
    "tactic_text": Str("the tactic in words"),
    "resources": List(Str("a resource symbol", enum=RESOURCES), "its resource symbols; empty for a basic region"),
    "slots": Int("size of its deployment area: how many dice it holds (3-5)", minimum=1),
})

AREA_NUMBERS = Obj("AreaNumbers", "one number for each area of a strategy card", {
    area: Int(f"for the {area} area") for area in AREAS
})

STRATEGY = Obj("Strategy", "a strategy card: room for claimed regions, their value, and a secret objective", {
    "id": Str("the strategy card id", enum=tuple(STRATEGIES)),
    "name": Str("its name, as printed"),
    "capacity": described(AREA_NUMBERS, "how many claimed regions each area of the card holds"),
    "modifier": described(AREA_NUMBERS, "each area's multiplier: the seat's total in that area's scoring "
                                        "category is the regions claimed there times this"),
    "objective": Str("its secret objective (2 points when met)", enum=tuple(OBJECTIVES)),
    "objective_text": Str("the objective in words"),
})

CLAIMED = Obj("Claimed", "a region claimed in Conquest, placed face down on the strategy card", {
    "area": Str("the area of the strategy card it lies in", enum=AREAS),
    "card": described(CARD, "the homeland card claimed as a region"),
})

SEAT_VIEW = Obj("Seat", (
    "one player at the table. nation is null while nations are chosen, until the seat has chosen; hand and "
    "strategies are null for other viewers than the seat itself; chosen_strategy and claimed are null for "
    "them too until the game is over, when they are turned face up"), {
    "seat": Str(SEAT),
    "x": Int("x of its nation card's top-left corner, in table units"),
    "y": Int("y of its nation card's top-left corner, in table units (downwards)"),
    "nation": described(maybe(NATION), "the seat's nation card; null while nations are chosen, until the seat "
                                       "has chosen"),
    "western_border": Str("the nation on this seat's left, the next clockwise (null while nations are chosen)",
                          nullable=True),
    "eastern_border": Str("the nation on this seat's right, the previous clockwise (null while nations are "
                          "chosen)", nullable=True),
    "reserves": List(Int("a die value, 1-6"), "the dice in its reserves, by value, ascending"),
    "population": Int("dice neither in its reserves nor in the Coil", minimum=0),
    "hand_count": Int("tactics in its hand", minimum=0),
    "strategy_count": Int("strategy cards it holds", minimum=0),
    "claimed_counts": described(AREA_NUMBERS, "how many claimed regions lie face down in each area of its "
                                              "strategy card (public, unlike their faces)"),
    "hand": List(CARD, "its tactics, in the order they came to hand; null for other viewers", nullable=True),
    "strategies": List(STRATEGY, "its strategy cards, oldest first (the newest governs capacities during the "
                                 "game); null for other viewers", nullable=True),
    "chosen_strategy": Str("the strategy card id chosen at the end to score, null until chosen; for other "
                           "viewers null until the game is over", nullable=True),
    "claimed": List(CLAIMED, "its claimed regions, oldest first; for other viewers null until the game is "
                             "over (claimed_counts says how many lie in each area)", nullable=True),
})

DECK = Obj("Deck", "a homeland deck (face down) and its discard area (face up)", {
    "nation": NATION_ID,
    "count": Int("cards left in the deck", minimum=0),
    "discard": List(CARD, "the discard area, face up, oldest first"),
})

DIE = Obj("Die", "a die on a region", {
    "seat": Str("the seat whose die it is"),
    "value": Int("the value it shows, 1-6", minimum=1),
})

REGION = Obj("Region", "a region in the Coil: a homeland card flipped face up, with the dice deployed on it", {
    "card": described(CARD, "the homeland card this region is, face up"),
    "position": Int("its index among the regions of its nation, from 0", minimum=0),
    "x": Int("x of its card's top-left corner, in table units"),
    "y": Int("y of its card's top-left corner, in table units (downwards)"),
    "full": Bool("every slot of its deployment area holds a die"),
    "dice": List(DIE, "the dice on it, bottom (the starting arrow) first; the last is on top"),
})

NATION_CHOICE = Obj("NationChoice", "while the seats choose their nations: who chooses and from what (null in every other phase)", {
    "seat": Str("the seat choosing now (seat order, p1 first)"),
    "available": List(NATION, "the nations nobody has chosen yet"),
})

ESCALATION = Obj("Escalation", "the Escalation phase: whose turn it is (null in every other phase)", {
    "seat": Str("the seat taking its turn"),
    "actions_left": Int("actions it may still take this turn", minimum=0),
})

BATTLE = Obj("Battle", "the Battle phase: whose turn it is and what it may do (null in every other phase)", {
    "seat": Str("the seat taking its turn"),
    "had_turn": List(Str(SEAT), "seats that have ended a Battle turn this round"),
    "acted": Bool("the seat has done something this turn (it may then no longer stop)"),
    "deployed": Bool("the seat has deployed a die this turn"),
    "stop_allowed": Bool("the seat may say Stop now: every seat has had a turn and it has not acted"),
    "must_deploy": Bool("its first turn of the round: it must deploy a die before ending the turn"),
    "ability_used": List(Str(SEAT), "seats that used Celestos' ability in this Battle phase"),
})

CATEGORY = Obj("Category", "one scoring category of one seat", {
    "category": Str("the category", enum=CATEGORIES),
    "total": Num("the seat's total in it before ranking (Dedran's ties count half a point more)"),
    "points": Int("victory points it earned there", minimum=0),
})

SCORE = Obj("Score", "one seat's final score", {
    "seat": Str(SEAT),
    "strategy": described(STRATEGY, "the strategy card the seat chose to score with, face up"),
    "total": Int("its victory points"),
    "categories": List(CATEGORY, "its points in each of the eight categories, in scoring order"),
})

LAYOUT = Obj("Layout", "how to draw the table (the rest of the layout is in data.json)", {
    "card": Map(Int("table units"), "the size of a card.", keys="width and height"),
    "slot_positions": Map(List(List(Int("table units"), "a slot's [x, y] from the card's top-left corner"), "the slots, bottom first"),
                          "where the slots of a deployment area lie, bottom (starting arrow) first.",
                          keys="the slot count: 3, 4 or 5"),
    "arrow_slot": Int("the index of the slot with the starting arrow", minimum=0),
    "northern_die": List(Int("table units"), "[x, y] of the northern die, the centre of the table"),
})

VIEW = Obj("View", "a game of The Coil as one viewer sees it: hands, strategy cards, claimed regions' faces and "
                   "deck orders are hidden from other seats; dice, the Coil and discard areas are public", {
    "phase": Str("the phase being played", enum=PHASES),
    "round": Int("the round, 1-4 (0 while nations are chosen)", minimum=0),
    "northern_die": Int("the northern die: the round's number, the actions of an Escalation turn", minimum=0),
    "to_act": List(Str(SEAT), "seats that may act now, sorted"),
    "current": Str("the seat whose turn it is (choosing nations, Escalation, Battle); null in simultaneous "
                   "phases and once over", nullable=True),
    "seats": List(SEAT_VIEW, "every seat, in seat order (clockwise)"),
    "hand": List(Str(description="a homeland card's id, as in card_names.json"),
                 "the viewer's own tactics by id, in the order they came to hand (as seats[].hand), as a client "
                 "draws his hand; null for a viewer who holds no seat", nullable=True),
    "neutral": described(maybe(NEUTRAL), "two players: the neutral third nation and where its card lies; null "
                                         "with three or more players"),
    "layout": described(LAYOUT, "the sizes and positions to draw the table with, in table units (y downwards)"),
    "decks": List(DECK, "the homeland decks in play, clockwise (the neutral nation's last)"),
    "coil": List(REGION, "the regions in the Coil, grouped by nation clockwise, oldest first"),
    "strategy_deck_count": Int("strategy cards left in the strategy deck", minimum=0),
    "turn_order": List(Str(SEAT), "the turn order of the current phase (empty in simultaneous phases)"),
    "nation_choice": described(maybe(NATION_CHOICE), "who chooses a nation now and from which; null in every "
                                                     "other phase"),
    "escalation": described(maybe(ESCALATION), "the Escalation turn being played; null in every other phase"),
    "battle": described(maybe(BATTLE), "the Battle turn being played and what the seat may do; null in every "
                                       "other phase"),
    "scores": List(SCORE, "every seat's final score once the game is over, for everyone; null before",
                   nullable=True),
})

# A seat's hand: its tactics (homeland cards), played on its dice in Battle.
HAND = Hand(field="hand", names=FIELD_NAMES["PlayTactic.card"])

# What score puts in a standing's detail (the score is the seat's victory points in all).
STANDING_DETAIL = Obj("StandingDetail", "the seat's nation, strategy card and victory points per category", {
    "nation": NATION_ID,
    "strategy": Str("the strategy card that governed the seat's capacities at the end", enum=tuple(STRATEGIES)),
    "categories": described(Obj("StandingPoints", "the seat's victory points in each of the eight scoring "
                                                  "categories", {
        category: Int(f"victory points earned in {category.replace('_', ' ')}", minimum=0) for category in CATEGORIES
    }), "the seat's victory points in each of the eight scoring categories, by category"),
})

# The board: the seats' nation cards around a table and the Coil's regions
# (data.json's layout), as the view places them.
BOARD_DRAWING = Board("card-table", "data.json")
