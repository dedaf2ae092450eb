"""The shape of a Runebound view, declared once: the API's schema is derived
from it and the conformance suite checks every view against it.

Board coordinates are abstract units in 0..100, x to the east, y to the
south. Every viewer sees the whole table; deck orders are hidden from all
(``decks`` gives only how many cards each deck holds), and a challenger's
declared action against the Elder King is shown to him alone until the phase
is fought. Cards are named by their printed names (data.json, served at
/v1/rules/runebound/data)."""

from __future__ import annotations

from ...kit.names import Board, Hand
from ...kit.shape import Bool, Int, List, Obj, Str, described, maybe, optional
from . import data
from .fields import CARD


SEAT = "a seat: p1, p2, ..."
COLOURS = data.COLOURS
PHASES = data.PHASES
STEPS = ("choosing", "move", "adventure", "experience", "combat", "placing", "over")
EXPERIENCE = tuple(data.EXPERIENCE_KINDS)

PLACE = Obj("Place", "a place on the map: a town (market, healing) or a wild place (adventures)", {
    "name": Str("the place's name, as commands name it"),
    "x": Int("x of the place, 0..100, to the east"),
    "y": Int("y of the place, 0..100, to the south"),
    "kind": Str("town or wild", enum=("town", "wild")),
    "counter": optional(Str("wild places only: the colour of its adventure counter (and so of its decks)",
                            enum=COLOURS)),
    "starburst": optional(Bool("wild places only: an event puts a taken counter back here")),
})

BOARD = Obj("Board", "the map: places and the roads between them (the same in every game)", {
    "places": List(PLACE, "every place, in data order"),
    "edges": List(List(Str()), "the roads, each a pair of place names; a move walks along up to `movement` roads"),
})

ALLY = Obj("Ally", "an ally card a hero has hired", {
    "name": Str("the ally's card name (see market cards)"),
    "wounds": Int("wounds the ally has taken; it is discarded when they reach its life", minimum=0),
})

HERO = Obj("Hero", "a hero in play; life, stamina, mind, body and spirit include experience and items", {
    "seat": Str(SEAT),
    "hero": Str("the hero card's name (see hero_cards)"),
    "place": Str("the place where the hero stands"),
    "gold": Int("gold the hero holds", minimum=0),
    "wounds": Int("wounds taken; the hero is knocked out when they reach life", minimum=0),
    "exhaustion": Int("exhaustion taken, at most stamina (beyond it exhaustion becomes wounds)", minimum=0),
    "life": Int("the hero's life: wounds that knock him out"),
    "stamina": Int("the hero's stamina: exhaustion he can bear"),
    "mind": Int("the hero's mind, added to 2d10 in a test of mind"),
    "body": Int("the hero's body, added to 2d10 in a test of body"),
    "spirit": Int("the hero's spirit, added to 2d10 in a test of spirit"),
    "level": Int("one plus the experience counters taken", minimum=1),
    "experience": List(Str(enum=EXPERIENCE), "experience counters taken, in order: what each raised"),
    "adventure_counters": List(Str(enum=COLOURS), "unspent adventure counters, by colour"),
    "xp": Int("experience points of the unspent adventure counters", minimum=0),
    "items": List(Str(), "item cards held (see market cards)"),
    "allies": List(ALLY, "allies hired, in order"),
    "exhausted": List(Str(), "item and ally cards exhausted until the hero's next refresh"),
    "trophies": List(Str(), "challenge cards defeated and kept: Vassals, Dragon Lords, Margath, ..."),
    "vassals": List(Str(), "the trophies that are Vassals"),
    "dragon_lords": List(Str(), "the trophies that are Dragon Lords (wild in a Vassal set)"),
    "eliminated": Bool("eliminated in the Endgame: out of the game"),
})

ATTACK_DAMAGE = Obj("AttackDamage", "a hero card's numbers in one combat phase", {
    "attack": Int("added to 2d10 to hit"),
    "damage": Int("wounds a hit deals"),
})

HERO_CARD = Obj("HeroCard", "a printed hero card (before experience and items)", {
    "name": Str("the hero's name, as ChooseHero names it"),
    "gold": Int("the hero's starting gold", minimum=0),
    "life": Int("printed life"),
    "stamina": Int("printed stamina"),
    "mind": Int("printed mind"),
    "body": Int("printed body"),
    "spirit": Int("printed spirit"),
    **{phase: described(ATTACK_DAMAGE, f"the hero's printed attack and damage values in the {phase} phase")
       for phase in PHASES},
})

COUNTER = Obj("Counter", "an adventure counter lying on the map", {
    "place": Str("the wild place where it lies"),
    "colour": Str("its colour: the decks an adventure there draws from", enum=COLOURS),
})

PHASE_NUMBERS = Obj("PhaseNumbers", "one number for each combat phase", {
    phase: Int(f"in the {phase} phase") for phase in PHASES
})

ENEMY_CARD = Obj("EnemyCard", "a challenge card: an enemy fought in combat. Its target is what 2d10 plus the "
                 "hero's attack must reach to hit it in each phase, its damage the wounds it deals in each phase "
                 "to a hero who attacks", {
    "name": Str("the card's name"),
    "colour": Str("the colour of its deck", enum=COLOURS),
    "life": Int("wounds that defeat it"),
    "gold": Int("gold won by defeating it", minimum=0),
    "target": described(PHASE_NUMBERS, "in each phase, what 2d10 plus the hero's attack value must reach to hit it"),
    "damage": described(PHASE_NUMBERS, "in each phase, the wounds it deals to a hero who attacks (none to one who "
                   "defends)"),
    "text": Str("its rule text (a Vassal's effect), or empty"),
    "rank": Str("a Vassal's rank, null for other cards", enum=data.RANKS, nullable=True),
    "house": Str("a Vassal's house, null for other cards", enum=data.HOUSES, nullable=True),
    "vassal": Bool("a Vassal: counts toward a set of three of a rank or of a house"),
    "dragon_lord": Bool("a Dragon Lord: wild in a Vassal set"),
    "margath": Bool("Lord Margath: defeating him completes a set"),
})

BONUS = Obj("Bonus", "what an item or ally adds in one combat phase", {
    "phase": Str("the phase it helps in", enum=PHASES),
    "attack": Int("added to the hero's attack"),
    "damage": Int("added to the hero's damage"),
})

MARKET_CARD = Obj("MarketCard", "an item or ally for sale in a town's market", {
    "name": Str("the card's name, as Buy names it"),
    "type": Str("item or ally", enum=("item", "ally")),
    "cost": Int("its price in gold", minimum=0),
    "bonus": described(maybe(BONUS), "what it adds to the hero's attack and damage in one combat phase, or null for none"),
    "life": Int("life it adds to its hero (an item), or the ally's own life", minimum=0),
    "stamina": Int("stamina it adds to its hero", minimum=0),
    "heal": Int("wounds healed when the item is used (exhausted); 0 for none", minimum=0),
})

COMBAT = Obj("Combat", "the combat in progress: a hero against a card, or a challenger against the Elder King", {
    "seat": Str("the hero who attacks: the adventurer, or the challenger"),
    "enemy": Str("the card fought, or null in a combat between heroes", nullable=True),
    "enemy_card": described(maybe(ENEMY_CARD), "the printed card of `enemy`, or null in a combat between heroes"),
    "opponent": Str("the Elder King's seat in a combat between heroes, else null", nullable=True),
    "enemy_wounds": Int("wounds dealt to the card so far", minimum=0),
    "phase": Str("the phase being fought", enum=PHASES),
    "round": Int("the combat round, from 1", minimum=1),
    "allies": List(Str(), "the attacking hero's allies fighting in this combat"),
    "opponent_allies": List(Str(), "the Elder King's allies fighting in this combat"),
    "has_declared": Bool("between heroes: the challenger has chosen for this phase"),
    "declared": Str("the challenger's secret choice for this phase; shown to the challenger (and the referee) "
                    "only, else null", enum=("attack", "defend"), nullable=True),
})

LINE = Obj("Line", "one of the Elder King's Vassals standing in line against the challengers", {
    "vassal": Str("the Vassal's card name"),
    "wounds": Int("wounds dealt to it so far", minimum=0),
    "card": described(ENEMY_CARD, "the Vassal's printed card"),
})

ENDGAME = Obj("Endgame", "the Endgame: the Elder King and those who challenge him", {
    "king": Str("the Elder King's seat, or null between a king's fall and the next crowning", nullable=True),
    "challengers": List(Str(), "seats still to confront him, in order; the first is confronting"),
    "line": List(LINE, "the Elder King's Vassals, in the order a challenger fights them"),
    "placing": Bool("the Elder King is still placing his Vassals"),
    "last_king": Str("the most recent Elder King's seat (he wins if nobody else is left)", nullable=True),
    "eliminated": List(Str(), "seats eliminated, in order"),
})

DECK_SIZES = Obj("DeckSizes", "how many cards each deck holds; their orders are hidden from all", {
    name: Int(f"cards in the {name.replace('_', ' ')} deck", minimum=0) for name in data.DECK_NAMES
})

VIEW = Obj("View", "a game of Runebound: Crown of the Elder Kings as one viewer sees it", {
    "board": described(BOARD, "the map, the same in every game (data.json's places and edges)"),
    "round": Int("the game round, from 1: every hero's turn once", minimum=1),
    "doom_rounds": Int("the stand-in doom limit in rounds; 0 for none", minimum=0),
    "active": Str("the seat whose turn it is (or who places Vassals, or confronts), null once over",
                  nullable=True),
    "step": Str("what the game waits for: choosing heroes, a turn's move, adventure or experience step, a "
                "combat, the Elder King placing Vassals, or over", enum=STEPS),
    "movement": Int("roads the active hero may walk this turn (the movement die)", minimum=0),
    "to_act": List(Str(), "seats that may act now"),
    "heroes": List(HERO, "the heroes chosen so far, in seat order"),
    "hand": List(Str(description="a card's name, as in card_texts.json"),
                 "the viewer's hero's cards, as a client draws his hand: his items, then his allies, then his "
                 "Vassals (the same as in heroes, public); empty until he has a hero; null for a viewer who holds "
                 "no seat", nullable=True),
    "hero_cards": List(HERO_CARD, "every hero card of the game"),
    "counters": List(COUNTER, "adventure counters lying on the map"),
    "decks": described(DECK_SIZES, "how many cards each deck holds; the orders are hidden from every viewer"),
    "discards": List(Str(), "cards discarded, in order (face up)"),
    "market": List(MARKET_CARD, "the cards for sale in the market"),
    "combat": described(maybe(COMBAT), "the combat in progress, or null when none is"),
    "endgame": described(maybe(ENDGAME), "the Endgame once a hero has claimed the crown, else null"),
    "winner": Str("the seat of the last Elder King once he has won, else null", nullable=True),
    "result": Str("the result in a sentence once the game is over, else null", nullable=True),
})

# What score puts in a standing's detail (the score is null: the rank says who lasted longest).
# A seat's hand: its hero's items, allies and Vassals, the cards it uses,
# fights beside and places in the Endgame.
HAND = Hand(field="hand", names=CARD)

STANDING_DETAIL = Obj("StandingDetail", "the seat's hero at the end", {
    "level": Int("the hero's level: one plus the experience counters taken", minimum=1),
    "vassals": Int("how many of the hero's trophies are Vassals", minimum=0),
    "eliminated": Bool("the hero was eliminated in the Endgame"),
})

# The board: named places of kinds of terrain joined by roads (data.json's places
# and edges), heroes and adventure counters on them.
BOARD_DRAWING = Board("terrain-map", "data.json")
