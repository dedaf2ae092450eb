"""The shape of the example game's view, declared once: the API's schema is
derived from it, and the conformance suite checks every view against it. Its
top object is the view itself, ``Obj("View", ...)``; every field says what it is.
``STANDING_DETAIL`` declares, the same way, what ``score`` puts in a standing's
detail (domain.kit.standing adds the engine's resigned and abandoned)."""

from __future__ import annotations

from ...kit.names import Hand
from ...kit.shape import Bool, Int, List, Map, Obj, OneOf, Str, maybe, optional
from .fields import CARD as CARD_NAMES
from .views import FACE_DOWN

CARD = Int("a card's value, 1-6", minimum=1)

VIEW = Obj("View", "an example game as one viewer sees it: hands and face-down cards are hidden", {
    "game": Str("always example", enum=("example",)),
    "viewer": Str("a seat, null for a spectator, * for the referee", nullable=True),
    "seats": List(Str(), "the seats, p1, p2, ..."),
    "to_act": List(Str(), "seats that have not chosen a card this round"),
    "round": Int("the round being played (the last one once over)", minimum=1),
    "rounds": Int("rounds the game lasts"),
    "over": Bool("the game has ended"),
    "hand_sizes": Map(Int("cards in that seat's hand", minimum=0), "how many cards each seat holds", keys="seat"),
    "table": Map(OneOf(CARD, Str("a card another seat chose, not yet shown", enum=(FACE_DOWN,))),
                 "this round's chosen cards: the viewer's own face up, the others face down", keys="seat"),
    "last_reveal": maybe(Map(CARD, "the cards the last round showed; null before the first", keys="seat")),
    "rounds_won": Map(Int("rounds won", minimum=0), "rounds each seat has won", keys="seat"),
    "outcome": Str("the result in a sentence once over, else null", nullable=True),
    "hand": optional(List(CARD, "a seat's own hand, sorted; only that seat gets it")),
    "hands": optional(Map(List(CARD), "referee only: every hand", keys="seat")),
    "deck": optional(List(CARD, "referee only: the undealt cards")),
})

# What score puts in a standing's detail (the score is the rounds won): every field a sentence, as in VIEW.
STANDING_DETAIL = Obj("StandingDetail", "how the seat ended", {
    "winner": Bool("the seat ranks first, alone or sharing first place"),
})

# Where a seat finds its own cards in its view: the top-level ``hand``, which
# only that seat gets (the referee's ``hands`` are not a hand).
HAND = Hand("hand", CARD_NAMES)
