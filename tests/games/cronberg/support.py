"""Builders for Cronberg rule tests: positions are built from events
(``given``), a command is decided, and the events it yields are checked."""

from __future__ import annotations

import random

from domain.games.cronberg import RULES
from domain.games.cronberg.board import BOARD
from domain.games.cronberg.messages import (
    BuildingDrawn,
    BuildingPlaced,
    GameEnded,
    GameSetUp,
    MemberPlaced,
    MemberScored,
    PlaceMember,
    RoundStarted,
    TriangleEnclosed,
    TurnBegan,
)

ALL_TILES = tuple(range(1, 29))


def given(*events, players=2, rounds=1, starter="p1", stack=None):
    """The state after setup and ``events``; the stack holds, unless given,
    the tiles that are neither built nor drawn. The position must be one the
    game can reach: no tile is used twice, every vacant triangle with no
    vacant neighbour is listed by a TriangleEnclosed event, and no other, and
    every member stands where it could have stayed."""
    placed = [e.tile for e in events if isinstance(e, BuildingPlaced)]
    assert len(set(placed)) == len(placed), f"a tile is built twice in {placed}"
    used = set(placed) | {e.tile for e in events if isinstance(e, BuildingDrawn)}
    if stack is None:
        stack = tuple(t for t in ALL_TILES if t not in used)
    seats = tuple(f"p{n}" for n in range(1, players + 1))
    state = RULES.replay([GameSetUp(seats=seats, rounds=rounds), RoundStarted(round=1, starter=starter, stack=stack), *events])
    shut = {
        t.id
        for t in BOARD.triangles
        if not state.cover[t.index] and all(state.cover[n] for n in t.neighbours)
    }
    listed = {BOARD.triangles[t].id for t in state.enclosed}
    assert listed == shut, f"the position lists enclosed {sorted(listed)} but the city shuts {sorted(shut)}"
    for crossing in BOARD.crossings:
        if state.members[crossing.index] != -1:
            assert any(not state.cover[t] for t in crossing.triangles), f"a member on {crossing.id} borders no vacant triangle"
            assert not any(
                BOARD.triangles[t].kind == "musketeer" and t in state.enclosed for t in crossing.triangles
            ), f"a member on {crossing.id} stands beside an active Musketeer"
    return state


def built(tile, first, second, turned=False, seat="p1"):
    return BuildingPlaced(seat=seat, tile=tile, triangles=(first, second), turned=turned)


def drawn(tile, seat="p1"):
    return BuildingDrawn(seat=seat, tile=tile, corners=BOARD.tile_by_id[tile].corners)


def member(seat, crossing):
    return MemberPlaced(seat=seat, crossing=crossing)


def enclosed(*triangles):
    return [TriangleEnclosed(triangle=t, kind=BOARD.triangles[BOARD.triangle_index[t]].kind) for t in triangles]


def decide(state, seat, command):
    return RULES.decide(state, seat, command, random.Random(7))


def numbers_at(state, crossing):
    return state.corner_numbers[BOARD.crossing_index[crossing]]


def crossing_view(state, crossing, viewer="p1"):
    (found,) = [c for c in RULES.view(state, viewer)["crossings"] if c["id"] == crossing]
    return found


# Every seat's members elsewhere, so that one last placement ends the round.
P2_ELSEWHERE = [member("p2", c) for c in ("X01", "X04", "X30", "X37")]
P1_ELSEWHERE = [member("p1", c) for c in ("X10", "X22", "X42")]


def ending(*events, rounds=1):
    """No tile left to draw, p2 has no member left and p1 one: p1's next
    member ends the round."""
    return given(*events, *P2_ELSEWHERE, *P1_ELSEWHERE, TurnBegan(seat="p1"), stack=(), rounds=rounds)


def final_points(state, crossing):
    """p1 places its last member on ``crossing`` in a position built by
    ``ending``: the game ends; what did that member score?"""
    events = decide(state, "p1", PlaceMember(crossing=crossing))
    assert any(isinstance(e, GameEnded) for e in events)
    (scored,) = [e for e in events if isinstance(e, MemberScored) and e.crossing == crossing]
    assert scored.at_end and scored.seat == "p1"
    return scored.points
