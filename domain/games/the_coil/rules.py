"""The Coil: options, seats, setup and the standings (legal commands and
timeouts are in legal.py, the twin in twin.py)."""

from __future__ import annotations

import random
from typing import Any, Mapping

from ...engine import Event, Option, Standing
from .data import NATION_IDS
from .flow import deal, new_draft
from .messages import GameStarted, PhaseBegan
from .scoring import standings
from .state import State

OPTIONS = (
    Option("players", "int", 4, "Number of players (2 adds the neutral third nation).", minimum=2, maximum=5),
    Option("nations", "choice", "choose",
           "choose: each player chooses a nation card in seat order, as the rulebook says; "
           "random: nations are dealt at random.", choices=("choose", "random")),
)


def seats(options: Mapping[str, Any]) -> tuple[str, ...]:
    return tuple(f"p{i}" for i in range(1, int(options.get("players", 4)) + 1))


def setup(seats: tuple[str, ...], options: Mapping[str, Any], rng: random.Random) -> list[Event]:
    """The rulebook: "Each player must choose a nation card" - the seats
    choose in seat order (p1 first, ChooseNation) unless the option deals
    them at random. With two players a random third nation sits between
    them (after p2, before p1) once both have chosen."""
    draft = new_draft(None, rng)
    if options.get("nations", "choose") == "random":
        nations = list(NATION_IDS)
        rng.shuffle(nations)
        draft.emit(GameStarted(tuple(seats), tuple(nations[: len(seats)]), None))
        deal(draft)
    else:
        draft.emit(GameStarted(tuple(seats), (), None))
        draft.emit(PhaseBegan("nations", tuple(seats)))
    return draft.events


def to_act(state: State) -> frozenset[str]:
    return state.to_act()


def score(state: State) -> list[Standing]:
    return standings(state)
