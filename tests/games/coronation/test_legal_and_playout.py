"""legal_commands is exact, on_timeout keeps the game going, and random games
through legal_commands end, replay exactly, and are won by both sides."""

from __future__ import annotations

import json
import random
import typing
from collections import Counter


from domain.games.coronation import RULES
from domain.games.coronation.data import BOARD
from domain.playout import play, start, step

OPTIONS = [
    {},
    {"detective_seats": 2, "equipment": "random"},
    {"detective_seats": 3, "equipment": "choose", "shared_control": True},
    {"detective_seats": 4, "last_turn": 10},
    {"detective_seats": 5, "equipment": "choose"},
]
ALLOWED = {int, str, bool, tuple[int, ...], tuple[str, ...]}


def _positions(count=3, every=4):
    """States of random games, with the options they were played under."""
    for n, options in enumerate(OPTIONS):
        for seed in range(count):
            playout = start(RULES, options, 100 * n + seed)
            rng = random.Random(seed)
            while RULES.outcome(playout.state) is None:
                if playout.steps % every == 0:
                    yield playout
                step(playout, rng, check=False)
            yield playout


def _wild(rng):
    return rng.choice([0, -3, 93, 10**9, "", "x", None, True, (), {"a": 1}, 1.5, "foot"])


HINTS = {cls: typing.get_type_hints(cls) for cls in RULES.commands}


def _candidate(cls, rng, state):
    """A command of ``cls`` with plausible or nonsense field values."""
    values = {}
    for name in HINTS[cls]:
        plain = {
            "detective": lambda: rng.choice(BOARD.detectives),
            "by": lambda: rng.choice(["foot", "cab", "underground", "hide"]),
            "trap": lambda: rng.choice([None, *BOARD.traps]),
            "cards": lambda: tuple(rng.choice(["ticket", *BOARD.instruments]) for _ in range(rng.randint(4, 6))),
        }.get(name, lambda: rng.choice(list(BOARD.locations)))
        values[name] = _wild(rng) if rng.random() < 0.15 else plain()
    return cls(**values)


def _key(command) -> str:
    """Commands compared as JSON, so that True is not taken for 1."""
    return json.dumps(command.to_json(), sort_keys=True)


def test_command_fields_use_only_the_allowed_annotations():
    for cls in RULES.commands:
        for annotation in typing.get_type_hints(cls).values():
            args = set(typing.get_args(annotation)) - {type(None)} if typing.get_origin(annotation) in (
                typing.Union, __import__("types").UnionType) else {annotation}
            assert args <= ALLOWED, (cls, annotation)


def test_on_timeout_gives_every_seat_to_act_a_legal_command():
    rng = random.Random(4)
    for playout in _positions(count=2, every=5):
        for seat in RULES.to_act(playout.state):
            assert RULES.on_timeout(playout.state, seat, rng) in RULES.legal_commands(playout.state, seat)


def test_random_games_end_replay_exactly_and_are_won_by_both_sides():
    winners, endings = Counter(), Counter()
    for seed in range(30):
        playout = play(RULES, OPTIONS[seed % len(OPTIONS)], seed, check=seed < 10)  # every step checked in 10
        assert RULES.replay(playout.events) == playout.state
        winners[playout.state.winner] += 1
        endings[playout.events[-1].type_name() + str(getattr(playout.events[-1], "detective", "")) [:9]] += 1
        assert RULES.score(playout.state)
    assert winners["lind"] >= 3 and winners["detectives"] >= 3, winners
    assert len(endings) >= 3, endings
