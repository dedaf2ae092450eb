"""Random playouts to the end through legal_commands, with replay checks, and
games played by the timeout alone."""

from __future__ import annotations

import random

import pytest

from domain.engine import rng_for
from domain.games.cronberg import RULES
from domain.games.cronberg.board import BOARD, MUSKETEER
from domain.games.cronberg.logic import active, is_enclosed, touches_vacant
from domain.games.cronberg.messages import (
    BuildingDrawn,
    GameEnded,
    MemberDrivenOut,
    MemberScored,
    RoundStarted,
    TriangleEnclosed,
    TurnPassed,
)
from domain.playout import play, start


@pytest.mark.parametrize("players,rounds", [(2, 1), (3, 1), (4, 1), (2, 2), (3, 3)])
def test_random_games_are_played_to_the_end(players, rounds):
    seen: set[str] = set()
    for seed in range(4 if rounds == 1 else 2):  # the checked replay is quadratic in a game's length
        playout = play(RULES, {"players": players, "rounds": rounds}, seed)
        state = playout.state
        assert RULES.outcome(state) and state.round == rounds
        assert RULES.to_act(state) == frozenset()
        assert [s.seat for s in RULES.score(state)] == list(playout.seats)
        ended = playout.events[-1]
        assert isinstance(ended, GameEnded) and ended.points == max(state.scores)
        seen |= {type(e).__name__ for e in playout.events}
    # the playouts reach the interesting rules, not just the happy path
    assert {TriangleEnclosed.__name__, MemberScored.__name__, TurnPassed.__name__} <= seen


def test_random_games_drive_members_out():
    kinds = set()
    for seed in range(10, 16):
        kinds |= {type(e) for e in play(RULES, {"players": 4}, seed, check=False).events}
    assert MemberDrivenOut in kinds


def test_a_game_left_to_the_timeout_alone_comes_to_an_end():
    for seed in range(3):
        playout = start(RULES, {"players": 3, "rounds": 2}, seed)
        rng = random.Random(seed)
        for _ in range(2000):
            if RULES.outcome(playout.state):
                break
            (seat,) = RULES.to_act(playout.state)
            command = RULES.on_timeout(playout.state, seat, rng)
            events = RULES.decide(playout.state, seat, command, rng_for(playout.seed, len(playout.events)))
            playout.events += events
            playout.state = RULES.replay(events, playout.state)
        assert RULES.outcome(playout.state)
        assert RULES.replay(playout.events) == playout.state


def assert_invariants(state):
    for number in range(len(state.seats)):
        assert state.supply[number] + state.members.count(number) == BOARD.family_members
    assert len(state.stack) + len(state.buildings) + (1 if state.drawn else 0) == len(BOARD.tiles)
    assert sorted(state.enclosed) == [t.index for t in BOARD.triangles if is_enclosed(state, t.index)]
    for crossing, owner in enumerate(state.members):
        if owner != -1:
            assert touches_vacant(state, crossing)
            assert not any(active(state, t, MUSKETEER) for t in BOARD.crossings[crossing].triangles)


def test_the_city_stays_consistent_after_every_event_of_random_games():
    for seed in range(6):
        playout = play(RULES, {"players": 2 + seed % 3}, 100 + seed, check=False)
        state, points = None, {}
        for n, event in enumerate(playout.events):
            state = RULES.evolve(state, event)
            if isinstance(event, MemberScored):
                points[event.seat] = points.get(event.seat, 0) + event.points
            following = playout.events[n + 1] if n + 1 < len(playout.events) else None
            # check the settled states: after a draw, or after a whole command's events
            if isinstance(event, (RoundStarted, BuildingDrawn)) or type(following).__name__ in ("BuildingDrawn", "MemberPlaced"):
                assert_invariants(state)
        assert state.scores == tuple(points.get(seat, 0) for seat in state.seats)
