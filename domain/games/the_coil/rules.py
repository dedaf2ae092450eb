"""The Coil's Rules object: setup, and the engine protocol wired to its modules."""

from __future__ import annotations

import random
from typing import Any, Mapping

from ...engine import Option, Rules
from .data import NATION_IDS, NATIONS, STRATEGIES, cards_of
from .decide import decide
from .evolve import evolve
from .flow import Emitter, begin_round
from .legal import legal_commands, on_timeout
from .messages import COMMANDS, EVENTS, CardsDrawn, DeckShuffled, GameStarted, StrategyDeckShuffled, StrategyDrawn
from .scoring import outcome, standings
from .views import view, visible


class TheCoilRules(Rules):
    name = "the-coil"
    title = "The Coil"
    min_seats = 2
    max_seats = 5
    options = (
        Option("players", "int", 4, "Number of players (2 adds the neutral third nation).", minimum=2, maximum=5),
    )
    commands = COMMANDS
    events = EVENTS

    def seats(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        return tuple(f"p{i}" for i in range(1, int(options.get("players", 4)) + 1))

    def setup(self, seats, options, rng: random.Random) -> list:
        """Nations are dealt at random (the rulebook lets players choose; a
        server deals); with two players a random third nation sits between
        them (after p2, before p1)."""
        nations = list(NATION_IDS)
        rng.shuffle(nations)
        chosen = tuple(nations[: len(seats)])
        neutral = nations[len(seats)] if len(seats) == 2 else None
        em = Emitter(None)
        em.emit(GameStarted(tuple(seats), chosen, neutral))
        for nation in chosen + ((neutral,) if neutral else ()):
            deck = list(cards_of(nation))
            rng.shuffle(deck)
            em.emit(DeckShuffled(nation, tuple(deck)))
        strategy = list(STRATEGIES)
        rng.shuffle(strategy)
        em.emit(StrategyDeckShuffled(tuple(strategy)))
        for seat in seats:
            em.emit(StrategyDrawn(seat, em.state.strategy_deck[0]))
        for seat, nation in zip(seats, chosen):
            hand = em.state.deck(nation)[: NATIONS[nation].starting_hand]
            em.emit(CardsDrawn(seat, nation, hand))
        begin_round(em, rng, 1)
        return em.events

    def evolve(self, state, event):
        return evolve(state, event)

    def decide(self, state, seat, command, rng):
        return decide(state, seat, command, rng)

    def to_act(self, state) -> frozenset[str]:
        return state.to_act()

    def legal_commands(self, state, seat):
        return legal_commands(state, seat)

    def on_timeout(self, state, seat, rng):
        return on_timeout(state, seat, rng)

    def view(self, state, viewer):
        return view(state, viewer)

    def visible(self, event, viewer):
        return visible(event, viewer)

    def outcome(self, state):
        return outcome(state)

    def score(self, state):
        return standings(state)
