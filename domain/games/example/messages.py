"""Commands (what a player asks) and events (what happened) of the example game.

Fields hold JSON values; lists are tuples, so that messages stay frozen."""

from __future__ import annotations

from dataclasses import dataclass

from ...engine import Command, Event


@dataclass(frozen=True)
class ChooseCard(Command):
    """Put one card of your hand face down for this round (by its value, 1-6)."""

    card: int


@dataclass(frozen=True)
class CardsDealt(Event):
    """The shuffled deal: each seat's hand (in seat order, each sorted) and the
    undealt rest of the deck. Each seat sees its own hand; only the referee
    sees the others and the deck."""

    seats: tuple[str, ...]
    hands: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]


@dataclass(frozen=True)
class CardChosen(Event):
    """A seat put a card face down: the others see that it chose, not what."""

    seat: str
    card: int


@dataclass(frozen=True)
class CardsRevealed(Event):
    """Every seat has chosen: the round's cards turn face up, in seat order."""

    round: int
    cards: tuple[int, ...]


@dataclass(frozen=True)
class RoundWon(Event):
    """The highest card takes the round; a tie at the top takes nothing (seat null)."""

    round: int
    seat: str | None


@dataclass(frozen=True)
class GameEnded(Event):
    """The last round is over: the seats that took the most rounds win."""

    winners: tuple[str, ...]
    rounds_won: int


COMMANDS = (ChooseCard,)
EVENTS = (CardsDealt, CardChosen, CardsRevealed, RoundWon, GameEnded)
