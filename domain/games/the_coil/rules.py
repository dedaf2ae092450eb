"""The Coil's Rules object: setup, and the engine protocol wired to its modules."""

from __future__ import annotations

from .bot import BOTS
from .words import SENTENCES

import random
from typing import Any, Mapping

from ...engine import Option, Rules
from .data import NATION_IDS
from .decide import decide
from .evolve import evolve
from .flow import Emitter, deal
from .legal import legal_commands, on_timeout
from .messages import COMMANDS, EVENTS, GameStarted, PhaseBegan
from .scoring import outcome, standings
from .views import view, visible


class TheCoilRules(Rules):
    bots = BOTS
    sentences = SENTENCES
    name = "the-coil"
    title = "The Coil"
    min_seats = 2
    max_seats = 5
    options = (
        Option("players", "int", 4, "Number of players (2 adds the neutral third nation).", minimum=2, maximum=5),
        Option("nations", "choice", "choose",
               "choose: each player chooses a nation card in seat order, as the rulebook says; "
               "random: nations are dealt at random.", choices=("choose", "random")),
    )
    state_version = 2
    commands = COMMANDS
    events = EVENTS

    def seats(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        return tuple(f"p{i}" for i in range(1, int(options.get("players", 4)) + 1))

    def setup(self, seats, options, rng: random.Random) -> list:
        """The rulebook: "Each player must choose a nation card" - the seats
        choose in seat order (p1 first, ChooseNation) unless the option deals
        them at random. With two players a random third nation sits between
        them (after p2, before p1) once both have chosen."""
        em = Emitter(None, rng)
        if options.get("nations", "choose") == "random":
            nations = list(NATION_IDS)
            rng.shuffle(nations)
            em.emit(GameStarted(tuple(seats), tuple(nations[: len(seats)]), None))
            deal(em, rng)
        else:
            em.emit(GameStarted(tuple(seats), (), None))
            em.emit(PhaseBegan("nations", tuple(seats)))
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
