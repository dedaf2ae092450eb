"""The example game: setup, legal commands, timeouts, standings, and its twin.

Twelve cards (1-6, two of each) are shuffled; each seat is dealt four, the
rest stay face down. For three rounds every seat at once puts one card face
down; when all have, the cards turn up and the single highest takes the round
(a tie at the top takes nothing). Most rounds won wins; one card of each hand
is never played, so it, and the undealt deck, stay hidden for good."""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from ...engine import EVERYONE, Command, Event, Option, Standing, rank_by
from ...kit import Step
from .messages import CardChosen, CardsDealt, ChooseCard
from .state import State
from .views import to_act

HAND_SIZE = 4
DECK = tuple(sorted((*range(1, 7), *range(1, 7))))

OPTIONS = (Option("players", "int", 2, "number of players", minimum=2, maximum=3),)


def seats(options: Mapping[str, Any]) -> tuple[str, ...]:
    return tuple(f"p{n}" for n in range(1, int(options.get("players", 2)) + 1))


def setup(seats: tuple[str, ...], options: Mapping[str, Any], rng: random.Random) -> list[Event]:
    cards = list(DECK)
    rng.shuffle(cards)
    hands = tuple(tuple(sorted(cards[n * HAND_SIZE:(n + 1) * HAND_SIZE])) for n in range(len(seats)))
    return [CardsDealt(seats=tuple(seats), hands=hands, deck=tuple(cards[len(seats) * HAND_SIZE:]))]


def legal_commands(state: State, seat: str) -> list[Command]:
    if seat not in to_act(state):
        return []
    return [ChooseCard(card=card) for card in sorted(set(state.hands[state.number(seat)]))]


def on_timeout(state: State, seat: str, rng: random.Random) -> Command:
    return ChooseCard(card=min(state.hands[state.number(seat)]))  # the lowest card: the game moves on


def score(state: State) -> list[Standing]:
    won = dict(zip(state.seats, state.rounds_won))
    ranks = rank_by(won)
    return [Standing(seat=seat, rank=ranks[seat], score=won[seat], detail={"winner": ranks[seat] == 1})
            for seat in state.seats]


def twin(setup_events: Sequence[Event], steps: Sequence[Step], viewer: str | None, rng: random.Random) -> list[Event]:
    """The same game with every card the viewer never sees dealt again: the
    undealt deck and the cards of the other hands not played so far. A
    played card, and the viewer's own hand, stay where they are."""
    events = [*setup_events, *(event for step in steps for event in step.events)]
    if viewer == EVERYONE:
        return events
    dealt = events[0]
    assert isinstance(dealt, CardsDealt), "the example game begins with its deal"
    played = {seat: [e.card for e in events if isinstance(e, CardChosen) and e.seat == seat] for seat in dealt.seats}
    unplayed = {seat: _without(hand, played[seat]) for seat, hand in zip(dealt.seats, dealt.hands) if seat != viewer}
    pool = [card for cards in unplayed.values() for card in cards] + list(dealt.deck)
    rng.shuffle(pool)
    hands = []
    for seat, hand in zip(dealt.seats, dealt.hands):
        if seat in unplayed:
            hand, pool = tuple(sorted((*played[seat], *pool[:len(unplayed[seat])]))), pool[len(unplayed[seat]):]
        hands.append(hand)
    return [CardsDealt(seats=dealt.seats, hands=tuple(hands), deck=tuple(pool)), *events[1:]]


def _without(hand: Sequence[int], cards: Sequence[int]) -> list[int]:
    rest = list(hand)
    for card in cards:
        rest.remove(card)
    return rest
