"""A small builder for The Coil's tests: a started game with chosen nations,
then the fields a test needs set directly on the frozen state."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from domain.games.the_coil import RULES
from domain.games.the_coil.data import STRATEGIES, cards_of
from domain.games.the_coil.messages import (
    DeckShuffled, GameStarted, RoundBegan, StrategyDeckShuffled, StrategyDrawn,
)
from domain.games.the_coil.state import Region, State


class Builder:
    rules = RULES

    @staticmethod
    def start(nations=("celestos", "dedran", "ignixior"), neutral=None, strategies=None) -> State:
        """Seats p1.. with these nations; decks in data order; strategy cards in data order."""
        seats = tuple(f"p{i}" for i in range(1, len(nations) + 1))
        order = tuple(strategies or STRATEGIES)
        events = [GameStarted(seats, tuple(nations), neutral)]
        events += [DeckShuffled(n, cards_of(n)) for n in tuple(nations) + ((neutral,) if neutral else ())]
        events += [StrategyDeckShuffled(order)] + [StrategyDrawn(seat, order[i]) for i, seat in enumerate(seats)]
        events += [RoundBegan(1)]
        return RULES.replay(events)

    @staticmethod
    def seat(state: State, seat: str, **fields) -> State:
        """Set per-seat fields: reserves, hands, strategies, claimed, chosen."""
        i = state.index(seat)
        for name, value in fields.items():
            values = getattr(state, name)
            if name == "reserves":
                value = tuple(sorted(value))
            state = replace(state, **{name: values[:i] + (tuple(value) if name != "chosen" else value,) + values[i + 1:]})
        return state

    @staticmethod
    def battle(state: State, order=None, coil=(), had_turn=(), turn=0, **fields) -> State:
        """A Battle phase with the given regions: coil is (card, ((seat, value), ...)) pairs."""
        return replace(
            state, phase="battle", order=tuple(order or state.seats), turn=turn, had_turn=tuple(had_turn),
            coil=tuple(Region(card, tuple(tuple(d) for d in dice)) for card, dice in coil), **fields,
        )

    @staticmethod
    def escalation(state: State, order=None, actions_left=None, **fields) -> State:
        order = tuple(order or state.seats)
        left = state.round if actions_left is None else actions_left
        return replace(state, phase="escalation", order=order, turn=0, actions_left=left, **fields)

    @staticmethod
    def rng(seed: int = 0) -> random.Random:
        return random.Random(seed)

    @staticmethod
    def decide(state: State, seat: str, command, seed: int = 0):
        return RULES.decide(state, seat, command, random.Random(seed))

    @staticmethod
    def run(state: State, seat: str, command, seed: int = 0) -> State:
        return RULES.replay(RULES.decide(state, seat, command, random.Random(seed)), state)


@pytest.fixture
def b() -> Builder:
    return Builder()
