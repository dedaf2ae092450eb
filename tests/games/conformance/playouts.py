"""The games the suite runs over, the hooks it takes from them, and seeded
random playouts that record what a conformance check needs: every step (the
kit's ``Step``), the state after every event, the random draws and the most
seats ever to act at once."""

from __future__ import annotations

import functools
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from domain import games
from domain.engine import Command, Event, resolve_options, rng_for
from domain.games.example import RULES as EXAMPLE
from domain.kit import Step

# Every hosted game, and the example game, which the API does not host (it is
# not in the registry) but which passes the suite like any other: the next
# author's starting point must always work.
GAMES: dict[str, Any] = {**games.REGISTRY, EXAMPLE.name: EXAMPLE}

MAX_STEPS = 20_000
SEEDS = 2  # at the fewest seats; one at each other seat count (each seat count its own seeds)
HOOKS = {
    "traits": "its declared traits (domain.kit.Traits)",
    "view_shape": "a view declaration (domain.kit.shape.Obj('View', ...))",
    "standing_detail": "a standing detail declaration (domain.kit.shape.Obj('StandingDetail', ...))",
    "twin": "a twin, the re-randomiser of what a viewer may not know",
    "bots": "its bots, a heuristic one at least",
    "sentences": "a sentence for each of its events",
}


class Missing(AssertionError):
    """A game that does not declare a hook the suite needs."""


def hook(game, name: str):
    """The game's declared ``name``, or a failure naming the game and the hook."""
    value = getattr(game, name, None)
    if value is None or (name in ("bots", "sentences") and not value):
        raise Missing(f"{game.name} declares no {name} ({HOOKS[name]}): a game is a domain.kit.Game that "
                      "declares each of " + ", ".join(HOOKS) + " (README, \"Adding a game\")")
    return value


class Counted(random.Random):
    """A random source that counts its draws (every method draws through these two)."""

    draws = 0

    def random(self):
        self.draws += 1
        return super().random()

    def getrandbits(self, k):
        self.draws += 1
        return super().getrandbits(k)


def counted(source: random.Random) -> Counted:
    copy = Counted()
    copy.setstate(source.getstate())
    return copy


def options_for(game, seats: int) -> dict:
    """Options that give ``seats`` seats: the defaults, or one whole-number
    option (``players``, Coronation's ``detective_seats``) set to make them."""
    if len(game.seats(resolve_options(game.options, {}))) == seats:
        return {}
    for option in game.options:
        if option.kind == "int" and option.minimum is not None and option.maximum is not None:
            for value in range(option.minimum, option.maximum + 1):
                if len(game.seats(resolve_options(game.options, {option.name: value}))) == seats:
                    return {option.name: value}
    raise AssertionError(f"{game.name}: no option gives {seats} seats, though it declares {game.min_seats} to "
                         f"{game.max_seats}; one whole-number option (such as players) sets the seat count")


GOLDEN = Path(__file__).resolve().parents[2] / "golden"


def short_options(game) -> dict:
    """Options for a short whole game at the game's fewest seats, for tests
    that play one through the API: those of its shortest golden game of that
    many seats (tests/golden/<game>/, which every game has; only the game's
    own options), else the defaults. No table to add a game to."""
    recorded = []
    for path in sorted((GOLDEN / game.name).glob("*.jsonl")):
        lines = path.read_text().splitlines()
        created = json.loads(lines[0])["data"]
        if len(created["seats"]) == game.min_seats:
            recorded.append((len(lines), path.name, created["options"]))
    if not recorded:
        return options_for(game, game.min_seats)
    own = {option.name for option in game.options}
    return {name: value for name, value in min(recorded)[2].items() if name in own}


def seat_counts(game) -> range:
    return range(game.min_seats, game.max_seats + 1)


Chooser = Callable[[Any, str, random.Random], Command]


@dataclass
class Played:
    game: Any
    options: dict
    seats: tuple[str, ...]
    seed: int
    setup: tuple[Event, ...]
    steps: list[Step] = field(default_factory=list)
    states: list[Any] = field(default_factory=list)  # the state after each event, setup's first
    draws: int = 0
    most_to_act: int = 0

    @property
    def events(self) -> list[Event]:
        return [*self.setup, *(event for step in self.steps for event in step.events)]

    @property
    def final(self) -> Any:
        return self.states[-1]

    def boundaries(self) -> list[int]:
        """The index of the last event of setup and of every step: where a game rests."""
        ends, at = [len(self.setup) - 1], len(self.setup) - 1
        for step in self.steps:
            at += len(step.events)
            ends.append(at)
        return ends

    def __str__(self) -> str:
        return f"{self.game.name} with {len(self.seats)} seats ({self.options}), seed {self.seed}"


def random_legal(game, state, seat: str, rng: random.Random) -> Command:
    commands = game.legal_commands(state, seat)
    if not commands:
        raise AssertionError(f"{game.name}: {seat} is to act but has no legal command")
    return rng.choice(commands)


def play(game, options: dict, seed: int, choose: Chooser | None = None) -> Played:
    """A seeded game to its end, a random seat to act choosing by ``choose``;
    fails, naming the game, if it does not end within MAX_STEPS steps."""
    resolved = resolve_options(game.options, options)
    seats = game.seats(resolved)
    secret = f"conformance-{seed}".encode()
    rng = counted(rng_for(secret, 0))
    played = Played(game, options, seats, seed, tuple(game.setup(seats, resolved, rng)), draws=rng.draws)
    state = None
    for event in played.setup:
        state = game.evolve(state, event)
        played.states.append(state)
    mover = random.Random(seed)
    version = len(played.setup)
    while game.outcome(state) is None:
        if len(played.steps) >= MAX_STEPS:
            raise AssertionError(f"{played}: not over after {MAX_STEPS} random steps")
        acting = sorted(game.to_act(state))
        if not acting:
            raise AssertionError(f"{played}: not over, but nobody is to act after {len(played.steps)} steps")
        played.most_to_act = max(played.most_to_act, len(acting))
        seat = mover.choice(acting)
        command = choose(state, seat, mover) if choose else random_legal(game, state, seat, mover)
        rng = counted(rng_for(secret, version))
        events = tuple(game.decide(state, seat, command, rng))
        played.draws += rng.draws
        for event in events:
            state = game.evolve(state, event)
            played.states.append(state)
        played.steps.append(Step(seat=seat, command=command, version=version, events=events))
        version += len(events)
    return played


@functools.cache
def playouts(game) -> tuple[Played, ...]:
    """The suite's random playouts of ``game``: SEEDS at the fewest seats, one
    at every other seat count."""
    found = []
    for count in seat_counts(game):
        seeds = range(SEEDS) if count == game.min_seats else range(1)
        found += [play(game, options_for(game, count), 10 * count + seed) for seed in seeds]
    return tuple(found)


def sample(rests: list[int], count: int) -> list[int]:
    """About ``count`` rest points spread over the game, its first and last among them."""
    return sorted({*rests[:: max(1, len(rests) // count)], rests[-1]})


def dump(value) -> str:
    return json.dumps(value, sort_keys=True)


def round_trips(decode, message) -> bool:
    return decode(json.loads(json.dumps(message.to_json()))) == message
