"""Seeded random playouts through ``legal_commands``: the bot every game gets,
and the checks every game's playout test runs after each step."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any, Mapping

from .engine import EVERYONE, Event, resolve_options, rng_for
from .kit import Game


def random_command(rules: Game, state: Any, seat: str, rng: random.Random):
    """The random bot: any one of the seat's legal commands."""
    commands = rules.legal_commands(state, seat)
    if not commands:
        raise AssertionError(f"{seat} is to act but has no legal command")
    return rng.choice(commands)


@dataclass
class Playout:
    rules: Game
    options: dict
    seats: tuple[str, ...]
    seed: bytes
    events: list[Event] = field(default_factory=list)
    state: Any = None
    steps: int = 0

    @property
    def over(self) -> bool:
        return self.rules.outcome(self.state) is not None


def start(rules: Game, options: Mapping[str, Any] | None = None, seed: int = 0) -> Playout:
    resolved = resolve_options(rules.options, options)
    seats = rules.seats(resolved)
    seed_bytes = f"playout-{seed}".encode()
    events = list(rules.setup(seats, resolved, rng_for(seed_bytes, 0)))
    return Playout(rules, resolved, seats, seed_bytes, events, rules.replay(events))


def step(playout: Playout, rng: random.Random, check: bool = True) -> None:
    """One random command by one random seat that is to act."""
    rules = playout.rules
    seats = sorted(rules.to_act(playout.state))
    if not seats:
        raise AssertionError("the game is not over but nobody is to act")
    seat = rng.choice(seats)
    command = random_command(rules, playout.state, seat, rng)
    new_events = rules.decide(playout.state, seat, command, rng_for(playout.seed, len(playout.events)))
    for event in new_events:
        playout.state = rules.evolve(playout.state, event)
    playout.events.extend(new_events)
    playout.steps += 1
    if check:
        check_step(playout, new_events)


def check_step(playout: Playout, new_events: list[Event]) -> None:
    rules = playout.rules
    for event in new_events:
        assert rules.decode_event(json.loads(json.dumps(event.to_json()))) == event, event
        for viewer in (*playout.seats, None, EVERYONE):
            json.dumps(rules.visible(event, viewer))
    assert rules.replay(playout.events) == playout.state, "replaying the events gives another state"
    for viewer in (*playout.seats, None, EVERYONE):
        json.dumps(rules.view(playout.state, viewer))
    for seat in rules.to_act(playout.state):
        for command in rules.legal_commands(playout.state, seat):
            assert rules.decode_command(json.loads(json.dumps(command.to_json()))) == command, command


def play(rules: Game, options=None, seed: int = 0, max_steps: int = 20_000, check: bool = True) -> Playout:
    """Play one seeded game to its end; fails if it does not end in max_steps."""
    playout = start(rules, options, seed)
    rng = random.Random(seed)
    while not playout.over:
        if playout.steps >= max_steps:
            raise AssertionError(f"game not over after {max_steps} steps")
        step(playout, rng, check)
    return playout
