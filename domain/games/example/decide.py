"""Deciding a command: every refusal is a sentence raised where the rule is
checked; the consequences of the last card of a round (reveal, winner, end)
follow from ``after_each``, the rule that holds after every event."""

from __future__ import annotations

import random

from ...engine import Command, Event, IllegalCommand, not_your_turn
from ...kit import Draft
from .messages import CardChosen, CardsRevealed, ChooseCard, GameEnded, RoundWon
from .state import ROUNDS, State, evolve
from .views import to_act


def decide(state: State, seat: str, command: Command, rng: random.Random) -> list[Event]:
    if seat not in to_act(state):
        raise not_your_turn(seat, to_act(state))
    if isinstance(command, ChooseCard):
        return _choose(state, seat, command, rng)
    raise IllegalCommand(f"the example game has no command {type(command).__name__}")


def _choose(state: State, seat: str, command: ChooseCard, rng: random.Random) -> list[Event]:
    hand = state.hands[state.number(seat)]
    if isinstance(command.card, bool) or not isinstance(command.card, int):
        raise IllegalCommand("name the card by its value, a whole number from 1 to 6")
    if command.card not in hand:
        raise IllegalCommand(f"you hold no {command.card}: your hand is {', '.join(map(str, hand))}")
    draft = Draft(evolve, state, rng, after_each=_reveal_when_everyone_chose)
    draft.emit(CardChosen(seat=seat, card=command.card))
    return draft.events


def _reveal_when_everyone_chose(draft: Draft, event: Event) -> None:
    state = draft.state
    if not isinstance(event, CardChosen) or 0 in state.chosen:
        return
    cards = state.chosen
    best = max(cards)
    winners = [seat for seat, card in zip(state.seats, cards) if card == best]
    draft.emit(CardsRevealed(round=state.round, cards=cards),
               RoundWon(round=state.round, seat=winners[0] if len(winners) == 1 else None))
    if draft.state.round > ROUNDS:
        most = max(draft.state.rounds_won)
        draft.emit(GameEnded(winners=tuple(s for s, won in zip(state.seats, draft.state.rounds_won) if won == most),
                             rounds_won=most))
