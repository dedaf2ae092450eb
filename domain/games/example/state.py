"""The example game's state, and evolve: one event at a time, no decisions."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ...engine import Event
from .messages import CardChosen, CardsDealt, CardsRevealed, GameEnded, RoundWon

ROUNDS = 3


@dataclass(frozen=True)
class State:
    seats: tuple[str, ...]
    hands: tuple[tuple[int, ...], ...]  # what each seat still holds, sorted
    deck: tuple[int, ...]
    round: int = 1
    chosen: tuple[int, ...] = ()  # the face-down card of each seat this round, 0 while it has none
    rounds_won: tuple[int, ...] = ()
    last_reveal: tuple[int, ...] | None = None
    over: bool = False

    def number(self, seat: str) -> int:
        return self.seats.index(seat)


def evolve(state: State | None, event: Event) -> State:
    if isinstance(event, CardsDealt):
        count = len(event.seats)
        return State(seats=event.seats, hands=event.hands, deck=event.deck, chosen=(0,) * count,
                     rounds_won=(0,) * count)
    assert state is not None, f"{type(event).__name__} before the deal"
    if isinstance(event, CardChosen):
        n = state.number(event.seat)
        hand = list(state.hands[n])
        hand.remove(event.card)
        return replace(state, hands=_put(state.hands, n, tuple(hand)), chosen=_put(state.chosen, n, event.card))
    if isinstance(event, CardsRevealed):
        return replace(state, last_reveal=event.cards, chosen=(0,) * len(state.seats))
    if isinstance(event, RoundWon):
        won = state.rounds_won
        if event.seat is not None:
            n = state.number(event.seat)
            won = _put(won, n, won[n] + 1)
        return replace(state, rounds_won=won, round=state.round + 1)
    if isinstance(event, GameEnded):
        return replace(state, over=True)
    raise ValueError(f"the example game has no event {type(event).__name__}")


def _put(values: tuple, index: int, value) -> tuple:
    return (*values[:index], value, *values[index + 1:])
