"""Play preparation, and the stand-in board and tiles kept as data
(rulebook "Play Preparation"; brief "Stand-ins")."""

from __future__ import annotations

import math
import random
from functools import partial

import pytest

from domain.games.cronberg import RULES
from domain.games.cronberg.board import BOARD
from domain.games.cronberg.messages import RoundStarted

from tests.games.cronberg.support import ALL_TILES, given

approx = partial(pytest.approx, abs=1e-3)

# Play preparation


def test_each_family_has_four_members_and_its_head_starts_at_zero():
    state = given(players=4)
    assert state.supply == (4, 4, 4, 4)
    assert state.scores == (0, 0, 0, 0)


def test_two_to_four_players_take_a_family_each():
    assert (RULES.min_seats, RULES.max_seats) == (2, 4)
    assert RULES.seats({"players": 3}) == ("p1", "p2", "p3")


def test_the_28_buildings_are_shuffled_face_down_into_one_stack_at_setup():
    events = RULES.setup(("p1", "p2"), {"players": 2, "rounds": 1}, random.Random(3))
    (round_started,) = [e for e in events if isinstance(e, RoundStarted)]
    assert sorted(round_started.stack) == list(ALL_TILES)
    other = RULES.setup(("p1", "p2"), {"players": 2, "rounds": 1}, random.Random(4))
    assert [e for e in other if isinstance(e, RoundStarted)][0].stack != round_started.stack


def test_the_most_courageous_player_starts_drawn_at_random_and_recorded():
    starters = set()
    for seed in range(30):
        events = RULES.setup(("p1", "p2", "p3"), {"players": 3, "rounds": 1}, random.Random(seed))
        state = RULES.replay(events)
        starters.add(events[-1].starter)
        assert RULES.to_act(state) == {events[-1].starter}
    assert starters == {"p1", "p2", "p3"}


# The board


def test_the_city_has_62_triangles_with_three_of_each_special_kind():
    kinds = [t.kind for t in BOARD.triangles]
    assert len(kinds) == 62 and len(BOARD.crossings) == 42
    assert {k: kinds.count(k) for k in set(kinds)} == {"plain": 53, "park": 3, "musketeer": 3, "coat_of_arms": 3}


def test_the_wall_sides_are_exactly_the_sides_no_other_triangle_shares():
    for t in BOARD.triangles:
        a, b, c = (BOARD.crossings[i].id for i in t.corners)
        sides = {frozenset(s) for s in ((a, b), (b, c), (a, c))}
        shared = {
            frozenset(BOARD.crossings[i].id for i in set(t.corners) & set(BOARD.triangles[n].corners)) for n in t.neighbours
        }
        assert {frozenset(s) for s in t.wall_sides} == sides - shared, t.id
    # the wall is one closed loop: each wall crossing has two wall sides
    ends = [c for t in BOARD.triangles for side in t.wall_sides for c in side]
    assert all(ends.count(c) == 2 for c in set(ends))


def test_coordinates_draw_a_grid_of_unit_triangles_with_their_centres():
    for t in BOARD.triangles:
        points = [(BOARD.crossings[c].x, BOARD.crossings[c].y) for c in t.corners]
        for i in range(3):
            assert math.dist(points[i], points[(i + 1) % 3]) == approx(1.0), t.id
        assert (t.x, t.y) == (approx(sum(p[0] for p in points) / 3), approx(sum(p[1] for p in points) / 3))


def test_special_triangles_never_share_a_side_so_each_can_become_active():
    special = {t.index for t in BOARD.triangles if t.kind != "plain"}
    assert all(not special & set(BOARD.triangles[t].neighbours) for t in special)


def test_the_board_lets_every_combination_of_the_rulebook_meet_at_a_crossing():
    def kinds_at(crossing):
        return sorted(BOARD.triangles[t].kind for t in BOARD.crossings[BOARD.crossing_index[crossing]].triangles if BOARD.triangles[t].kind != "plain")

    assert kinds_at("X26") == ["park", "park", "park"]  # x8
    assert kinds_at("X19") == ["coat_of_arms", "coat_of_arms", "park"]  # Coats do not cancel; Coat before Park
    assert kinds_at("X27") == ["coat_of_arms", "musketeer", "park"]


# The tiles


def test_the_28_tiles_carry_112_nonzero_numbers_balanced_between_signs():
    numbers = [n for t in BOARD.tiles for n in t.corners]
    assert len(BOARD.tiles) == 28 and len(numbers) == 112
    assert all(-8 <= n <= 8 and n != 0 for n in numbers)
    assert sum(1 for n in numbers if n > 0) == 56
    assert sum(1 for n in numbers if abs(n) <= 4) == 84


def test_every_place_for_a_tile_runs_clockwise_from_the_free_corner_of_its_first_triangle():
    for slot in BOARD.slots:
        first, second = (set(BOARD.triangles[t].corners) for t in (slot.first, slot.second))
        apex, shared_a, other_apex, shared_b = slot.ring
        assert first - second == {apex} and second - first == {other_apex}
        assert {shared_a, shared_b} == first & second
        points = [(BOARD.crossings[c].x, BOARD.crossings[c].y) for c in slot.ring]
        # with y downwards, a positive shoelace sum is clockwise on screen
        area = sum(points[i][0] * points[(i + 1) % 4][1] - points[(i + 1) % 4][0] * points[i][1] for i in range(4))
        assert area > 0, (slot.first, slot.second)
    assert {frozenset((s.first, s.second)) for s in BOARD.slots} == {
        frozenset((t.index, n)) for t in BOARD.triangles for n in t.neighbours
    }
