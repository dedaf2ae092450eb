"""Coronation's twin (``RULES.twin``): for a viewer who is not Lind, another
real game with Lind's hidden route drawn again, that the viewer cannot tell
from the one played, door by door: the view, ``visible`` of every event, who
is to act and the legal commands, after every event."""

from __future__ import annotations

import random

from domain.engine import EVERYONE, resolve_options, rng_for
from domain.games.coronation import RULES
from domain.games.coronation.legal import LIND_SEAT
from domain.kit import Step


def _lind_choice(commands, rng):
    """First a way (foot, trap, cab, underground, hide), then a command: a Lind who hides and rides."""
    groups: dict[str, list] = {}
    for command in commands:
        key = type(command).__name__ + getattr(command, "by", "") + ("trap" if getattr(command, "trap", None) else "")
        groups.setdefault(key, []).append(command)
    return rng.choice(groups[rng.choice(sorted(groups))])


def played(options, seed, version=None):
    """A seeded random game to its end: its setup events and its steps."""
    rules = RULES.at(version or RULES.version)
    resolved = resolve_options(rules.options, options)
    seats = rules.seats(resolved)
    setup = rules.setup(seats, resolved, rng_for(b"twin-%d" % seed, 0))
    state, rng, steps = rules.replay(setup), random.Random(seed), []
    while rules.outcome(state) is None:
        seat = rng.choice(sorted(rules.to_act(state)))
        commands = rules.legal_commands(state, seat)
        command = _lind_choice(commands, rng) if seat == LIND_SEAT else rng.choice(commands)
        events = rules.decide(state, seat, command, rng)
        steps.append(Step(seat, command, rules.version, tuple(events)))
        state = rules.replay(events, state)
    return setup, steps, seats


def indistinguishable(rules, original, twin, viewer, seats) -> list[str]:
    """Where the viewer could tell the two histories apart (empty: nowhere)."""
    if len(original) != len(twin):
        return [f"{len(original)} events against {len(twin)}"]
    a = b = None
    for n, (x, y) in enumerate(zip(original, twin)):
        a, b = rules.evolve(a, x), rules.evolve(b, y)
        doors = {
            "visible": (rules.visible(x, viewer), rules.visible(y, viewer)),
            "view": (rules.view(a, viewer), rules.view(b, viewer)),
            "to_act": (rules.to_act(a), rules.to_act(b)),
            "legal commands": (rules.legal_commands(a, viewer), rules.legal_commands(b, viewer)),
        }
        if viewer is None or viewer == EVERYONE:
            doors.update({f"legal commands of {seat}": (rules.legal_commands(a, seat), rules.legal_commands(b, seat))
                          for seat in seats if seat != LIND_SEAT})
        wrong = [door for door, (left, right) in doors.items() if left != right]
        if wrong:
            return [f"event {n} ({type(x).__name__}): {', '.join(wrong)}"]
    return []


def replays(rules, setup, twin) -> bool:
    """The twin is a real game: every event after the setup comes out of some
    seat's legal command decided on the twin's own state."""
    state, rest = rules.replay(setup), list(twin[len(setup):])
    while rest:
        for seat in sorted(rules.to_act(state)):
            for command in rules.legal_commands(state, seat):
                events = rules.decide(state, seat, command, random.Random(0))
                if events == rest[: len(events)]:
                    state, rest = rules.replay(events, state), rest[len(events):]
                    break
            else:
                continue
            break
        else:
            return False
    return rules.outcome(state) is not None


def test_no_viewer_can_tell_coronation_s_twin_from_the_game_played_and_the_twin_is_a_real_game():
    differing = 0
    for seed in range(12):
        options = {"detective_seats": 1 + seed % 5, "equipment": ("recommended", "random")[seed % 2]}
        version = 1 + seed % 2
        rules = RULES.at(version)
        setup, steps, seats = played(options, seed, version)
        original = [*setup, *(e for s in steps for e in s.events)]
        for viewer in (*seats, None, EVERYONE):
            twin = rules.twin(setup, steps, viewer, random.Random(seed))
            assert indistinguishable(rules, original, twin, viewer, seats) == [], (seed, viewer)
            if twin != original:
                assert viewer not in (LIND_SEAT, EVERYONE), (seed, viewer)
                assert replays(rules, setup, twin), (seed, viewer)
                differing += 1
    assert differing >= 20, differing


def test_lind_s_player_and_the_referee_get_the_game_itself():
    setup, steps, _ = played({"detective_seats": 2}, 3)
    original = [*setup, *(e for s in steps for e in s.events)]
    for viewer in (LIND_SEAT, EVERYONE):
        assert RULES.twin(setup, steps, viewer, random.Random(0)) == original
