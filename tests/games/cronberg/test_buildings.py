"""Action A: playing a building rhomboid (rulebook "A Playing a Building
Rhomboid"; brief "Drawing a building")."""

from __future__ import annotations

import pytest

from domain.engine import IllegalCommand
from domain.games.cronberg import RULES
from domain.games.cronberg.board import BOARD
from domain.games.cronberg.messages import DrawBuilding, PlaceBuilding, PlaceMember

from tests.games.cronberg.support import built, decide, drawn, enclosed, given, numbers_at


def test_drawing_a_building_turns_the_top_of_the_stack_face_up():
    state = given(stack=(5, 9, 2))
    assert decide(state, "p1", DrawBuilding()) == [drawn(5)]
    assert RULES.replay([drawn(5)], state).stack == (9, 2)


def test_the_drawn_building_is_played_openly_every_seat_sees_it():
    state = given(drawn(5), stack=(5, 9, 2))
    for viewer in ("p1", "p2", None):
        assert RULES.visible(drawn(5), viewer)["tile"] == 5
        assert RULES.view(state, viewer)["drawn"] == {"id": 5, "corners": list(BOARD.tile_by_id[5].corners)}
        assert RULES.view(state, viewer)["step"] == "place_building"


def test_the_drawn_building_must_be_placed_before_anything_else():
    state = given(drawn(5))
    assert all(isinstance(c, PlaceBuilding) for c in RULES.legal_commands(state, "p1"))
    with pytest.raises(IllegalCommand, match="place it first"):
        decide(state, "p1", PlaceMember(crossing="X19"))
    with pytest.raises(IllegalCommand, match="place it first"):
        decide(state, "p1", DrawBuilding())


def test_a_building_covers_two_edge_adjacent_vacant_triangles():
    state = given(drawn(5))
    events = decide(state, "p1", PlaceBuilding(triangles=("T40", "T41")))
    assert events[0] == built(5, "T40", "T41")
    after = RULES.replay(events, state)
    assert after.cover[BOARD.triangle_index["T40"]] == after.cover[BOARD.triangle_index["T41"]] == 5
    assert after.drawn == 0


def test_a_building_may_not_cover_an_existing_building():
    state = given(built(3, "T40", "T41"), drawn(5))
    with pytest.raises(IllegalCommand, match="T41 is already covered"):
        decide(state, "p1", PlaceBuilding(triangles=("T41", "T42")))
    assert PlaceBuilding(triangles=("T41", "T42")) not in RULES.legal_commands(state, "p1")


def test_a_building_needs_two_triangles_that_share_a_side():
    state = given(drawn(5))
    with pytest.raises(IllegalCommand, match="do not share a side"):
        decide(state, "p1", PlaceBuilding(triangles=("T01", "T03")))
    with pytest.raises(IllegalCommand, match="exactly two triangles"):
        decide(state, "p1", PlaceBuilding(triangles=("T01",)))
    with pytest.raises(IllegalCommand, match="no triangle 'T99'"):
        decide(state, "p1", PlaceBuilding(triangles=("T01", "T99")))
    with pytest.raises(IllegalCommand, match="board order: T01, T02"):
        decide(state, "p1", PlaceBuilding(triangles=("T02", "T01")))


def test_a_building_may_cover_a_printed_special_triangle_which_then_never_becomes_active():
    # T34's other neighbours are the Coat of Arms T35 and the Park T47: a building covers the Park.
    state = given(built(1, "T20", "T21"), built(2, "T31", "T32"), drawn(5))
    events = decide(state, "p1", PlaceBuilding(triangles=("T34", "T47")))
    assert events[:2] == [built(5, "T34", "T47"), *enclosed("T33")]
    after = RULES.replay(events, state)
    (t47,) = [t for t in RULES.view(after, "p2")["triangles"] if t["id"] == "T47"]
    assert t47["tile"] == 5 and not t47["active"] and not t47["enclosed"]


def test_a_building_must_be_drawn_before_it_is_placed():
    with pytest.raises(IllegalCommand, match="draw a building first"):
        decide(given(), "p1", PlaceBuilding(triangles=("T01", "T02")))


def test_a_building_puts_its_corner_numbers_on_the_four_crossings_clockwise():
    # Tile 4 reads -1, 6, 4, -6 clockwise from an acute corner. On T01+T02 the
    # ring clockwise from T01's free corner is X05, X01, X02, X06.
    state = given(built(4, "T01", "T02"))
    assert [numbers_at(state, c) for c in ("X05", "X01", "X02", "X06")] == [(-1,), (6,), (4,), (-6,)]
    # The two other directions of a shared side: T02+T03 (X01, X02, X07, X06)
    # and T03 above T11 (X02, X07, X12, X06).
    state = given(built(4, "T02", "T03"))
    assert [numbers_at(state, c) for c in ("X01", "X02", "X07", "X06")] == [(-1,), (6,), (4,), (-6,)]
    state = given(built(4, "T03", "T11"))
    assert [numbers_at(state, c) for c in ("X02", "X07", "X12", "X06")] == [(-1,), (6,), (4,), (-6,)]


def test_a_turned_building_is_rotated_half_a_turn():
    state = given(built(4, "T01", "T02", turned=True))
    assert [numbers_at(state, c) for c in ("X05", "X01", "X02", "X06")] == [(4,), (-6,), (-1,), (6,)]


def test_both_orientations_of_every_free_place_are_offered():
    state = given(built(3, "T40", "T41"), drawn(5))
    offered = RULES.legal_commands(state, "p1")
    free = [s for s in BOARD.slots if not {s.first, s.second} & {BOARD.triangle_index["T40"], BOARD.triangle_index["T41"]}]
    assert len(offered) == 2 * len(free)
    assert PlaceBuilding(triangles=("T01", "T02"), turned=True) in offered


def test_no_building_can_be_drawn_when_the_stack_is_empty():
    state = given(stack=())
    assert DrawBuilding() not in RULES.legal_commands(state, "p1")
    with pytest.raises(IllegalCommand, match="no building rhomboids are left"):
        decide(state, "p1", DrawBuilding())


# 25 buildings that leave no two edge-adjacent triangles vacant (3 tiles stay in the stack).
MAXIMAL = (
    ("T01", "T09"), ("T02", "T03"), ("T05", "T13"), ("T06", "T07"), ("T11", "T12"), ("T14", "T15"), ("T17", "T18"),
    ("T19", "T20"), ("T21", "T22"), ("T24", "T25"), ("T26", "T27"), ("T29", "T30"), ("T31", "T32"), ("T34", "T35"),
    ("T36", "T49"), ("T38", "T51"), ("T40", "T41"), ("T42", "T43"), ("T44", "T45"), ("T46", "T58"), ("T48", "T60"),
    ("T52", "T53"), ("T54", "T55"), ("T56", "T57"), ("T61", "T62"),
)


def test_no_building_can_be_drawn_when_no_two_adjacent_triangles_are_vacant():
    covered = {t for pair in MAXIMAL for t in pair}
    shut = [t.id for t in BOARD.triangles if t.id not in covered]
    state = given(*(built(n, *pair) for n, pair in enumerate(MAXIMAL, start=1)), *enclosed(*shut))
    assert len(state.stack) == 3
    assert DrawBuilding() not in RULES.legal_commands(state, "p1")
    with pytest.raises(IllegalCommand, match="no two edge-adjacent vacant triangles"):
        decide(state, "p1", DrawBuilding())
