"""The shape of a Coronation view, declared once: the API's schema is derived
from it and the conformance suite checks every view against it.

Coordinates are board units of board.json (served at
/v1/rules/coronation/data), x to the east and y to the south; locations are
numbered 1 to 92. Lind's player and the referee get ``lind``, his secret
(location, hand, stolen jewels, the whole route); detective seats and
spectators get it as null, and see the route as face-down cards."""

from __future__ import annotations

from ...kit.names import Board, Hand, Names
from ...kit.shape import Bool, Int, List, Obj, Str, described, maybe

PHASES = ("setup", "appear", "lind", "detectives", "extraordinary", "over")
INSTRUMENTS = ("respirator", "revolver", "money", "lock-pick", "first-aid-kit")
LIND_CARD = ("a trap id (see board.traps), ticket (a cab ride), note (the underground) or turn-skip (a hide)")
DETECTIVE_CARD = "ticket (a cab ticket) or an instrument id (see board.instruments)"

LOCATION = Obj("Location", "one location of 1896 Moscow", {
    "id": Int("the location's number, 1-92", minimum=1),
    "name": Str("the location's name, as printed"),
    "x": Int("x of the location, in board units, to the east"),
    "y": Int("y of the location, in board units, to the south"),
    "jewel": Bool("a jewel (crown) location: Lind takes its jewel when he leaves it, once"),
    "underground": Bool("has an underground entrance: Lind may ride between any two of them with his note"),
    "instrument": Str("a special location's instrument symbol (a detective holding it may gather information "
                      "here), null for an ordinary location", enum=INSTRUMENTS, nullable=True),
})

TRAP = Obj("Trap", "a kind of trap card Lind may leave when he moves on foot", {
    "id": Str("the trap's id, as it appears in route cards and Lind's hand"),
    "name": Str("the trap's name, as printed"),
    "instrument": Str("the instrument that defuses it; a detective without it suffers it", enum=INSTRUMENTS),
    "effect": Str("what it does to a detective who suffers it: he loses his next action, or discards a cab ticket",
                  enum=("lose-next-action", "discard-ticket")),
    "extraordinary": Bool("Lind may make an extraordinary movement at once after it is suffered"),
    "text": Str("the card's text, for a tooltip"),
})

INSTRUMENT = Obj("Instrument", "a kind of instrument card a detective may hold", {
    "id": Str("the instrument's id", enum=INSTRUMENTS),
    "name": Str("the instrument's name, as printed"),
})

BOARD = Obj("Board", "the printed board and card kinds (the same in every view of every game)", {
    "locations": List(LOCATION, "all 92 locations, by number"),
    "foot_lines": List(List(Int()), "the red lines, each a pair of location numbers; walked by Lind and detectives"),
    "cab_lines": List(List(Int()), "the green lines, each a pair of location numbers; ridden with a cab ticket"),
    "traps": List(TRAP, "every kind of trap card"),
    "instruments": List(INSTRUMENT, "every kind of instrument card"),
})

DETECTIVE = Obj("Detective", "one of the five detectives, as every seat sees him", {
    "id": Str("the detective's id: fandorin, masa, zyukin, endlung or karnovich",
              enum=("fandorin", "masa", "zyukin", "endlung", "karnovich")),
    "name": Str("the detective's name, as printed"),
    "seat": Str("the detective seat that directs him (with shared control any detective seat may)"),
    "location": Int("the location he stands on, null until he is placed in setup", nullable=True),
    "equipped": Bool("has received his five cards"),
    "tickets": Int("cab tickets he holds", minimum=0),
    "instruments": List(Str(enum=INSTRUMENTS), "the instruments he holds, one entry per card"),
    "acted": Bool("has acted (or lost his action) this turn"),
    "stunned": Bool("will lose his next action (he suffered a trap)"),
    "may_gather_information": Bool("may gather information now (GatherInformation is among his legal commands)"),
})

CARD_COUNT = Obj("CardCount", "how many cards of one kind a pile holds", {
    "card": Str(f"the kind of card: {DETECTIVE_CARD} in the detective deck; {LIND_CARD} in Lind's hand"),
    "count": Int("how many of that kind", minimum=0),
})

ROUTE_CARD = Obj("RouteCard", "one of Lind's route cards on the table, as the detectives see it", {
    "index": Int("its place on the route, from 0 (where Lind appeared)", minimum=0),
    "left": Bool("Lind has laid a later route card (moved or hid since)"),
    "card_left": Bool("a face-down card lies on it; null on the last route card, until Lind moves on",
                      nullable=True),
    "revealed": Bool("its location has been revealed (a detective entered it, or gathered information)"),
    "hide": Bool("once revealed: true if it is a decoy of a hide (Lind was never there); null while closed",
                 nullable=True),
    "location": Int("once revealed, the location it names; null while closed and for a decoy", nullable=True),
    "card_revealed": Bool("the card lying on it has been revealed"),
    "card": Str(f"once revealed, the card lying on it: {LIND_CARD}; null while closed or when none lies there",
                nullable=True),
    "trap_spent": Bool("the trap lying on it has acted (been defused or suffered); a trap acts once"),
})

SECRET_ROUTE_CARD = Obj("SecretRouteCard", "one of Lind's route cards as Lind knows it", {
    "location": Int("the location it names (for a decoy, the decoy's location)"),
    "hide": Bool("a decoy laid by a hide: Lind was never there"),
    "card": Str(f"the card lying on it: {LIND_CARD}; null on the last card, or when he left none", nullable=True),
})

LIND_SECRET = Obj("LindSecret", "what only Lind's player and the referee know; null in the views of detective "
                  "seats and spectators", {
    "location": Int("where Lind is; null until he appears", nullable=True),
    "hand": List(CARD_COUNT, "the cards Lind holds, by kind (kinds he has none of are listed with count 0)"),
    "stolen": List(Int(), "the jewel locations whose jewel he has taken, in order"),
    "route": List(SECRET_ROUTE_CARD, "every route card on the table, from the first, index as in route"),
})

VIEW = Obj("View", "a game of Coronation as one viewer sees it: everything but Lind's secret is public", {
    "phase": Str("what happens now: setup (detectives take places and cards), appear (Lind appears), lind "
                 "(Lind moves or hides), detectives (each detective acts once), extraordinary (Lind may make "
                 "his extraordinary movement), over", enum=PHASES),
    "turn": Int("the turn being played, from 1 once Lind has appeared (0 before)", minimum=0),
    "last_turn": Int("Lind wins when this turn ends and he has not been caught", minimum=1),
    "to_act": List(Str(), "seats that may act now: lind, detective-1, ... (several detective seats at once)"),
    "outcome": Str("the result in a sentence once the game is over, else null", nullable=True),
    "winner": Str("lind or detectives once the game is over, else null", enum=("lind", "detectives"),
                  nullable=True),
    "equipment": Str("how detectives got their cards: recommended, random, or choose (picked in setup)",
                     enum=("recommended", "random", "choose")),
    "shared_control": Bool("any detective seat may direct any detective"),
    "detectives": List(DETECTIVE, "the five detectives, in the rulebook's order"),
    "detective_deck": List(CARD_COUNT, "the detective cards not yet given out, by kind"),
    "route": List(ROUTE_CARD, "Lind's route cards on the table, from the first; the last is where he is "
                              "(or his latest decoy)"),
    "jewels_left": Int("jewels Lind has yet to take; he wins when none is left", minimum=0),
    "lind_cards_left": Int("how many cards Lind holds (public: his hand is face down, its size is not)",
                           minimum=0),
    "hand": List(Str(description=f"{LIND_CARD}; or {DETECTIVE_CARD}: an id of card_faces.json's cards"),
                 "the viewer's own cards one entry per card, as a client draws his hand: Lind's hand for Lind's "
                 "player; for a detective seat the cards of the detectives it directs (tickets first, detective by "
                 "detective); null for a viewer who holds no seat", nullable=True),
    "lind": described(maybe(LIND_SECRET), "Lind's secret (where he is, his hand, the jewels he stole, his "
                                          "whole route): for Lind's player and the referee; null for detective "
                                          "seats and spectators"),
    "board": described(BOARD, "the printed board and its card kinds, the same in every view (also served as "
                              "board.json and cards.json at GET /v1/rules/coronation/data)"),
})

# A seat's hand: Lind's cards (he plays a trap, a ticket, his note or a
# turn-skip with each move), or a detective seat's detectives' cards (public,
# but his to spend).
HAND = Hand(field="hand", names=Names("card", "card", "card_faces.json", "cards"))

# What score puts in a standing's detail: nothing (the score is 1 for the winning side, 0 for the other).
STANDING_DETAIL = Obj("StandingDetail", "nothing of Coronation's own: the score is 1 for each seat of the winning "
                                        "side (Lind, or every detective), 0 for the other", {})

# The board: numbered locations joined by foot and cab lines (board.json), the
# detectives and Lind on them.
BOARD_DRAWING = Board("numbered-map", "board.json")
