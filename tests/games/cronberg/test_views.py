"""Views and event feeds hide the order of the face-down stack (leak test);
legal_commands is complete and exact."""

from __future__ import annotations

import dataclasses
import json
import random

from domain.engine import EVERYONE, IllegalCommand
from domain.games.cronberg import RULES
from domain.games.cronberg.board import BOARD
from domain.games.cronberg.messages import DrawBuilding, PlaceBuilding, PlaceMember, RoundStarted
from domain.playout import play

from api.game_schemas.cronberg import ViewSchema


def positions(seeds, every=7):
    """(events so far, state) at intervals through seeded random games."""
    for seed in seeds:
        playout = play(RULES, {"players": 2 + seed % 3, "rounds": 1 + seed % 2}, seed, check=False)
        state = None
        for n, event in enumerate(playout.events):
            state = RULES.evolve(state, event)
            if n and (n % every == 0 or n == len(playout.events) - 1):  # from the first round on
                yield playout.events[: n + 1], state


def dumps(value):
    return json.dumps(value, sort_keys=True)


def rerandomised(event_or_state, rng):
    """The same public facts with another face-down order."""
    stack = list(event_or_state.stack)
    rng.shuffle(stack)
    return dataclasses.replace(event_or_state, stack=tuple(stack))


def test_no_seat_learns_the_order_of_the_face_down_stack():
    rng = random.Random(5)
    checked = 0
    for events, state in positions(range(8)):
        if RULES.outcome(state):
            continue  # after the end the engine shows everything to everyone
        other = rerandomised(state, rng)
        for viewer in (*state.seats, None):
            assert dumps(RULES.view(state, viewer)) == dumps(RULES.view(other, viewer))
        checked += 1
    assert checked > 30


def test_no_event_feed_shows_the_order_of_the_face_down_stack():
    rng = random.Random(6)
    for seed in range(12):
        playout = play(RULES, {"players": 2 + seed % 3, "rounds": 1 + seed % 2}, seed, check=False)
        for event in playout.events:
            twin = rerandomised(event, rng) if isinstance(event, RoundStarted) else event
            for viewer in (*playout.seats, None):
                assert dumps(RULES.visible(event, viewer)) == dumps(RULES.visible(twin, viewer))


def test_the_referee_sees_the_stack():
    events, state = next(positions([1]))
    assert RULES.view(state, EVERYONE)["stack"] == list(state.stack)
    started = next(e for e in events if isinstance(e, RoundStarted))
    assert RULES.visible(started, EVERYONE)["stack"] == list(started.stack)
    assert "stack" not in RULES.visible(started, "p1") and "stack" not in RULES.view(state, "p1")


def test_views_match_the_published_schema():
    for _, state in positions(range(3), every=25):
        for viewer in (*state.seats, None, EVERYONE):
            assert ViewSchema().validate(RULES.view(state, viewer)) == {}


def every_command():
    """The whole command space, sense and nonsense, in both orders."""
    yield DrawBuilding()
    for crossing in (*BOARD.crossing_index, "X00", "", "x01"):
        yield PlaceMember(crossing=crossing)
    for slot in BOARD.slots:
        pair = (BOARD.triangles[slot.first].id, BOARD.triangles[slot.second].id)
        for turned in (False, True):
            yield PlaceBuilding(triangles=pair, turned=turned)
            yield PlaceBuilding(triangles=pair[::-1], turned=turned)
    for nonsense in ((), ("T01",), ("T01", "T01"), ("T01", "T03"), ("T01", "T02", "T03"), ("T01", "T99")):
        yield PlaceBuilding(triangles=nonsense)


def test_legal_commands_are_exactly_the_commands_that_are_accepted():
    universe = list(every_command())
    rng = random.Random(0)
    checked = 0
    for _, state in positions(range(4), every=11):
        checked += 1
        for seat in state.seats:
            legal = RULES.legal_commands(state, seat)
            assert len(legal) == len(set(legal))
            for command in universe:
                if command in legal:
                    RULES.decide(state, seat, command, rng)
                else:
                    try:
                        RULES.decide(state, seat, command, rng)
                    except IllegalCommand as refusal:
                        assert refusal.message
                    else:
                        raise AssertionError(f"{seat} may {command} though it is not listed")
    assert checked > 30
