"""One test per rule of the Cronberg rulebook (and per decision of its brief).

Positions are built from events (``given``); a command is then decided and
the events it yields are checked."""

from __future__ import annotations

import random

import pytest

from domain.engine import IllegalCommand
from domain.games.cronberg import RULES
from domain.games.cronberg.board import BOARD
from domain.games.cronberg.messages import (
    BuildingDrawn,
    BuildingPlaced,
    DrawBuilding,
    GameEnded,
    GameSetUp,
    MemberDrivenOut,
    MemberPlaced,
    MemberScored,
    PlaceBuilding,
    PlaceMember,
    RoundEnded,
    RoundStarted,
    TriangleEnclosed,
    TurnBegan,
    TurnPassed,
)

ALL_TILES = tuple(range(1, 29))


def given(*events, players=2, rounds=1, starter="p1", stack=ALL_TILES):
    seats = tuple(f"p{n}" for n in range(1, players + 1))
    return RULES.replay([GameSetUp(seats=seats, rounds=rounds), RoundStarted(round=1, starter=starter, stack=stack), *events])


def built(tile, first, second, turned=False, seat="p1"):
    return BuildingPlaced(seat=seat, tile=tile, triangles=(first, second), turned=turned)


def drawn(tile, seat="p1"):
    return BuildingDrawn(seat=seat, tile=tile, corners=BOARD.tile_by_id[tile].corners)


def member(seat, crossing):
    return MemberPlaced(seat=seat, crossing=crossing)


def enclosed(triangle):
    return TriangleEnclosed(triangle=triangle, kind=BOARD.triangles[BOARD.triangle_index[triangle]].kind)


def decide(state, seat, command):
    return RULES.decide(state, seat, command, random.Random(7))


def numbers_at(state, crossing):
    return state.corner_numbers[BOARD.crossing_index[crossing]]


# Every seat's members elsewhere, so that one last placement ends the round.
P2_ELSEWHERE = [member("p2", c) for c in ("X01", "X04", "X30", "X37")]
P1_ELSEWHERE = [member("p1", c) for c in ("X10", "X22", "X42")]


def final_points(state, crossing):
    """p1 places its last member on ``crossing`` with no tile left to draw and
    p2 out of members: the round ends; what did that member score?"""
    events = decide(state, "p1", PlaceMember(crossing=crossing))
    assert any(isinstance(e, GameEnded) for e in events)
    (scored,) = [e for e in events if isinstance(e, MemberScored) and e.crossing == crossing]
    assert scored.at_end and scored.seat == "p1"
    return scored.points


def ending(*events):
    return given(*events, *P2_ELSEWHERE, *P1_ELSEWHERE, TurnBegan(seat="p1"), stack=())


# Play preparation


def test_each_family_has_four_members_and_its_head_starts_at_zero():
    state = given(players=4)
    assert state.supply == (4, 4, 4, 4)
    assert state.scores == (0, 0, 0, 0)


def test_the_28_buildings_are_shuffled_face_down_at_setup():
    events = RULES.setup(("p1", "p2"), {"players": 2, "rounds": 1}, random.Random(3))
    (round_started,) = [e for e in events if isinstance(e, RoundStarted)]
    assert sorted(round_started.stack) == list(ALL_TILES)
    other = RULES.setup(("p1", "p2"), {"players": 2, "rounds": 1}, random.Random(4))
    assert [e for e in other if isinstance(e, RoundStarted)][0].stack != round_started.stack


def test_the_starting_player_is_drawn_at_random_and_recorded():
    starters = set()
    for seed in range(30):
        events = RULES.setup(("p1", "p2", "p3"), {"players": 3, "rounds": 1}, random.Random(seed))
        state = RULES.replay(events)
        starters.add(events[-1].starter)
        assert RULES.to_act(state) == {events[-1].starter}
    assert starters == {"p1", "p2", "p3"}


def test_the_city_has_62_triangles_with_three_of_each_special_kind():
    kinds = [t.kind for t in BOARD.triangles]
    assert len(kinds) == 62
    assert {k: kinds.count(k) for k in set(kinds)} == {"plain": 53, "park": 3, "musketeer": 3, "coat_of_arms": 3}
    assert all(t.wall_sides or len(t.neighbours) == 3 for t in BOARD.triangles)


def test_the_28_tiles_carry_112_nonzero_numbers_balanced_between_signs():
    numbers = [n for t in BOARD.tiles for n in t.corners]
    assert len(BOARD.tiles) == 28 and len(numbers) == 112
    assert all(-8 <= n <= 8 and n != 0 for n in numbers)
    assert sum(1 for n in numbers if n > 0) == 56
    assert sum(1 for n in numbers if abs(n) <= 4) == 84


# Game play: a player either plays a building or places a family member


def test_a_player_may_play_a_building_or_place_a_family_member():
    commands = RULES.legal_commands(given(), "p1")
    assert DrawBuilding() in commands
    assert PlaceMember(crossing="X19") in commands


def test_turn_order_rotates_clockwise():
    state = given(players=3, starter="p2")
    events = decide(state, "p2", PlaceMember(crossing="X19"))
    assert events[-1] == TurnBegan(seat="p3")
    state = RULES.replay(events, state)
    assert RULES.replay(decide(state, "p3", PlaceMember(crossing="X20")), state).current == 0


def test_only_the_player_whose_turn_it_is_may_act():
    with pytest.raises(IllegalCommand, match="not your turn: p1 is to act"):
        decide(given(), "p2", DrawBuilding())


# A: Playing a building rhomboid


def test_drawing_a_building_turns_the_top_of_the_stack_face_up():
    state = given(stack=(5, 9, 2))
    assert decide(state, "p1", DrawBuilding()) == [drawn(5)]
    assert RULES.replay([drawn(5)], state).stack == (9, 2)


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


def test_a_building_may_not_cover_an_existing_building():
    state = given(built(3, "T40", "T41"), drawn(5))
    with pytest.raises(IllegalCommand, match="T41 is already covered"):
        decide(state, "p1", PlaceBuilding(triangles=("T41", "T42")))


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


def test_a_building_must_be_drawn_before_it_is_placed():
    with pytest.raises(IllegalCommand, match="draw a building first"):
        decide(given(), "p1", PlaceBuilding(triangles=("T01", "T02")))


def test_a_building_puts_its_corner_numbers_on_the_four_crossings_clockwise():
    # Tile 4 reads -1, 6, 4, -6 clockwise from an acute corner. On T01+T02 the
    # ring clockwise from T01's free corner is X05, X01, X02, X06.
    state = given(built(4, "T01", "T02"))
    assert [numbers_at(state, c) for c in ("X05", "X01", "X02", "X06")] == [(-1,), (6,), (4,), (-6,)]


def test_a_turned_building_is_rotated_half_a_turn():
    state = given(built(4, "T01", "T02", turned=True))
    assert [numbers_at(state, c) for c in ("X05", "X01", "X02", "X06")] == [(4,), (-6,), (-1,), (6,)]


def test_no_building_can_be_drawn_when_the_stack_is_empty():
    state = given(stack=())
    assert DrawBuilding() not in RULES.legal_commands(state, "p1")
    with pytest.raises(IllegalCommand, match="no building rhomboids are left"):
        decide(state, "p1", DrawBuilding())


def test_no_building_can_be_drawn_when_no_two_adjacent_triangles_are_vacant():
    covered: set[str] = set()
    placements = []
    for slot in BOARD.slots:  # a maximal matching: no vacant pair remains
        first, second = BOARD.triangles[slot.first].id, BOARD.triangles[slot.second].id
        if first not in covered and second not in covered:
            covered |= {first, second}
            placements.append(built(1 + len(placements) % 28, first, second))
    state = given(*placements)
    with pytest.raises(IllegalCommand, match="no two edge-adjacent vacant triangles"):
        decide(state, "p1", DrawBuilding())


# B: Playing a family member


def test_a_family_member_goes_on_a_free_crossing():
    state = given(member("p2", "X19"))
    with pytest.raises(IllegalCommand, match="X19 is not free: p2"):
        decide(state, "p1", PlaceMember(crossing="X19"))
    assert decide(state, "p1", PlaceMember(crossing="X20"))[0] == member("p1", "X20")


def test_a_family_member_needs_a_crossing_that_borders_a_vacant_triangle():
    state = given(built(4, "T01", "T02"))
    assert PlaceMember(crossing="X01") not in RULES.legal_commands(state, "p1")
    with pytest.raises(IllegalCommand, match="X01 borders no vacant triangle"):
        decide(state, "p1", PlaceMember(crossing="X01"))


def test_an_unknown_crossing_is_refused():
    with pytest.raises(IllegalCommand, match="no crossing 'X77'"):
        decide(given(), "p1", PlaceMember(crossing="X77"))


def test_a_family_member_may_not_be_placed_beside_an_active_musketeer():
    state = given(built(1, "T08", "T09"), built(2, "T11", "T12"), built(3, "T20", "T21"), enclosed("T10"))
    for crossing in ("X06", "X11", "X12"):
        assert PlaceMember(crossing=crossing) not in RULES.legal_commands(state, "p1")
        with pytest.raises(IllegalCommand, match="active Musketeer"):
            decide(state, "p1", PlaceMember(crossing=crossing))


def test_a_family_member_may_be_placed_beside_an_enclosed_park():
    # X02 touches T02, T03 (Park) and T04; with T02 and T04 covered it still borders the vacant Park.
    state = given(built(1, "T01", "T02"), built(2, "T04", "T05"), built(3, "T10", "T11"), enclosed("T03"))
    assert decide(state, "p1", PlaceMember(crossing="X02"))[0] == member("p1", "X02")


def test_a_player_with_no_family_member_in_supply_cannot_place_one():
    state = given(*(member("p1", c) for c in ("X01", "X02", "X03", "X04")))
    assert RULES.legal_commands(state, "p1") == [DrawBuilding()]
    with pytest.raises(IllegalCommand, match="none is left"):
        decide(state, "p1", PlaceMember(crossing="X19"))


# Triangles


def test_a_triangle_surrounded_by_buildings_and_the_wall_is_enclosed():
    # T01 has the wall on one side and T02, T09 on the others.
    state = given(built(1, "T02", "T03"), drawn(5))
    events = decide(state, "p1", PlaceBuilding(triangles=("T08", "T09")))
    assert events[1] == TriangleEnclosed(triangle="T01", kind="plain")


def test_an_enclosed_musketeer_drives_out_the_family_members_on_its_crossings_unscored():
    state = given(
        built(1, "T08", "T09"), built(2, "T11", "T12"), member("p2", "X11"), member("p1", "X12"), member("p2", "X17"), drawn(5)
    )
    events = decide(state, "p1", PlaceBuilding(triangles=("T20", "T21")))
    assert events[1:4] == [
        TriangleEnclosed(triangle="T10", kind="musketeer"),
        MemberDrivenOut(seat="p2", crossing="X11"),
        MemberDrivenOut(seat="p1", crossing="X12"),
    ]
    assert not any(isinstance(e, MemberScored) for e in events)
    after = RULES.replay(events, state)
    assert after.supply == (4, 3) and after.scores == (0, 0)


def test_driven_out_members_may_be_placed_again_later():
    state = given(built(1, "T08", "T09"), built(2, "T11", "T12"), member("p1", "X12"), drawn(5))
    after = RULES.replay(decide(state, "p1", PlaceBuilding(triangles=("T20", "T21"))), state)
    assert after.supply[0] == 4
    assert PlaceMember(crossing="X19") in RULES.legal_commands(RULES.replay([TurnBegan(seat="p1")], after), "p1")


# Scoring during play


def test_a_member_left_with_no_vacant_triangle_is_scored_at_once_and_returns_to_its_owner():
    # X01 touches only T01 and T02; p2 covers both, p1's member there scores the corner number.
    state = given(member("p1", "X01"), TurnBegan(seat="p2"), drawn(4, seat="p2"))
    events = decide(state, "p2", PlaceBuilding(triangles=("T01", "T02"), turned=True))
    assert MemberScored(seat="p1", crossing="X01", points=-6, at_end=False) in events
    after = RULES.replay(events, state)
    assert after.scores == (-6, 0)  # the family head retreats: scores may go below 0
    assert after.supply == (4, 4)
    assert after.members[BOARD.crossing_index["X01"]] == -1


def test_a_member_beside_a_vacant_triangle_stays_in_the_city():
    state = given(member("p1", "X06"), drawn(4))
    events = decide(state, "p1", PlaceBuilding(triangles=("T01", "T02")))
    assert not any(isinstance(e, MemberScored) for e in events)


def test_a_member_beside_an_enclosed_special_triangle_stays_until_the_end():
    # X19's last plain neighbours get covered, but the enclosed Parks beside it stay vacant.
    state = given(
        member("p1", "X19"),
        built(1, "T20", "T21"),
        built(2, "T31", "T32"),
        built(3, "T34", "T47"),
        built(4, "T12", "T13"),
        built(6, "T36", "T37"),
        enclosed("T33"),
        drawn(5),
    )
    events = decide(state, "p1", PlaceBuilding(triangles=("T23", "T24")))
    assert [e.triangle for e in events if isinstance(e, TriangleEnclosed)] == ["T22", "T35"]
    assert not any(isinstance(e, MemberScored) for e in events)


# Scoring at the end of play


def test_at_the_end_every_member_in_the_city_is_scored_with_the_plain_sum():
    # X20 gets an obtuse corner of tile 10 (on T23+T24) and an acute one of tile 5 (on T25+T26).
    state = ending(built(10, "T23", "T24"), built(5, "T25", "T26"))
    assert numbers_at(state, "X20") == (-3, -1)
    assert final_points(state, "X20") == -4


def test_a_park_doubles_the_value_of_its_crossings():
    state = ending(built(6, "T23", "T24"), built(13, "T34", "T47"), built(20, "T36", "T37"), enclosed("T35"))
    assert numbers_at(state, "X20") == (-2, 1)
    assert final_points(state, "X20") == -2


def test_several_parks_at_a_crossing_each_multiply():
    # X19 touches the Parks T33 and T35; T22 (Coat of Arms) stays open.
    state = ending(
        built(3, "T20", "T21"),
        built(2, "T31", "T32"),
        built(6, "T34", "T47"),
        built(20, "T23", "T24"),
        built(13, "T36", "T37"),
        enclosed("T33"),
        enclosed("T35"),
    )
    assert numbers_at(state, "X19") == (3, 5, 1)
    assert final_points(state, "X19") == 9 * 4


def test_a_coat_of_arms_makes_the_numbers_at_its_crossings_positive():
    # X13 gets obtuse corners of tiles 2 and 14, both negative.
    state = ending(built(2, "T12", "T13"), built(1, "T20", "T21"), built(14, "T23", "T24"), enclosed("T22"))
    assert numbers_at(state, "X13") == (-6, -1)
    assert final_points(state, "X13") == 7


def test_a_coat_of_arms_applies_before_the_parks():
    state = ending(
        built(1, "T20", "T21"),
        built(2, "T31", "T32"),
        built(12, "T34", "T47"),
        built(4, "T12", "T13"),
        built(23, "T23", "T24"),
        built(7, "T36", "T37"),
        enclosed("T22"),
        enclosed("T33"),
        enclosed("T35"),
    )
    assert numbers_at(state, "X19") == (-7, 3, 8)
    assert final_points(state, "X19") == (7 + 3 + 8) * 4


def test_positive_values_stay_unchanged_beside_a_coat_of_arms():
    state = ending(built(3, "T12", "T13"), built(1, "T20", "T21"), built(13, "T23", "T24"), enclosed("T22"))
    assert numbers_at(state, "X13") == (2, 6)
    assert final_points(state, "X13") == 8


# Passing and the end


def test_a_player_who_can_do_neither_action_passes():
    state = given(*(member("p2", c) for c in ("X01", "X02", "X03", "X04")), players=3, stack=())
    events = decide(state, "p1", PlaceMember(crossing="X19"))
    assert events[1:] == [TurnPassed(seat="p2"), TurnBegan(seat="p3")]


def test_the_game_ends_when_nobody_can_play_a_building_or_place_a_member():
    state = ending()
    events = decide(state, "p1", PlaceMember(crossing="X19"))
    assert isinstance(events[-2], RoundEnded) and isinstance(events[-1], GameEnded)
    after = RULES.replay(events, state)
    assert RULES.to_act(after) == frozenset()
    assert RULES.outcome(after) is not None
    assert RULES.legal_commands(after, "p1") == []


def test_the_player_with_the_highest_score_wins():
    state = ending(built(4, "T01", "T02"))  # p2's member on X01 scores 6 at the end
    events = decide(state, "p1", PlaceMember(crossing="X19"))
    assert events[-1] == GameEnded(winners=("p2",), points=6)
    after = RULES.replay(events, state)
    assert RULES.outcome(after) == "p2 wins with 6 points"
    assert [(s.seat, s.rank, s.score) for s in RULES.score(after)] == [("p1", 2, 0), ("p2", 1, 6)]


def test_equal_scores_share_the_win():
    after = RULES.replay(decide(ending(), "p1", PlaceMember(crossing="X19")), ending())
    assert RULES.outcome(after) == "p1 and p2 share the win with 0 points"
    assert [s.rank for s in RULES.score(after)] == [1, 1]


def test_with_several_rounds_the_next_round_starts_from_the_previous_scores():
    state = given(built(4, "T01", "T02"), *P2_ELSEWHERE, *P1_ELSEWHERE, TurnBegan(seat="p1"), stack=(), rounds=2)
    events = decide(state, "p1", PlaceMember(crossing="X19"))
    assert events[-2] == RoundEnded(round=1, scores=(0, 6))
    restarted = events[-1]
    assert isinstance(restarted, RoundStarted) and restarted.round == 2 and restarted.starter == "p2"
    assert sorted(restarted.stack) == list(ALL_TILES)
    after = RULES.replay(events, state)
    assert after.scores == (0, 6) and after.supply == (4, 4)
    assert all(m == -1 for m in after.members) and not any(after.cover)
    assert RULES.outcome(after) is None and RULES.to_act(after) == {"p2"}


def test_on_timeout_a_legal_command_keeps_the_game_going():
    for state in (given(), given(drawn(5)), given(stack=())):
        seat = sorted(RULES.to_act(state))[0]
        assert RULES.on_timeout(state, seat, random.Random(1)) in RULES.legal_commands(state, seat)


def test_a_plain_enclosed_triangle_has_no_effect_but_keeps_its_neighbours_in_the_city():
    # X05 touches T01, T08 and T09; with T08+T09 built, T01 is enclosed and plain:
    # the member on X05 stays, and its value is the plain sum.
    state = given(member("p1", "X05"), built(2, "T02", "T03"), drawn(4))
    events = decide(state, "p1", PlaceBuilding(triangles=("T08", "T09")))
    assert TriangleEnclosed(triangle="T01", kind="plain") in events
    assert not any(isinstance(e, MemberScored) for e in events)
    view = RULES.view(RULES.replay(events, state), "p2")
    (x05,) = [c for c in view["crossings"] if c["id"] == "X05"]
    assert x05["member"] == "p1" and x05["value"] == sum(x05["numbers"])


def test_commands_with_nonsense_fields_are_refused():
    state = given(drawn(5))
    for command in (
        PlaceBuilding(triangles="T01T02"),
        PlaceBuilding(triangles=(1, 2)),
        PlaceBuilding(triangles=("T01", "T02"), turned=3),
    ):
        with pytest.raises(IllegalCommand):
            decide(state, "p1", command)
    for crossing in (5, None, ("X01",), "-1"):
        with pytest.raises(IllegalCommand):
            decide(given(), "p1", PlaceMember(crossing=crossing))
    with pytest.raises(IllegalCommand, match="not your turn"):
        decide(given(), "p9", DrawBuilding())


def test_the_view_shows_active_triangles_and_closed_crossings():
    state = given(built(1, "T08", "T09"), built(2, "T11", "T12"), built(3, "T20", "T21"), enclosed("T10"))
    view = RULES.view(state, None)
    triangles = {t["id"]: t for t in view["triangles"]}
    crossings = {c["id"]: c for c in view["crossings"]}
    assert triangles["T10"]["active"] and triangles["T10"]["kind"] == "musketeer"
    assert triangles["T09"]["tile"] == 1 and triangles["T01"]["wall_sides"] == [["X01", "X05"]]
    assert not crossings["X06"]["open"] and crossings["X19"]["open"]
    assert view["to_act"] == ["p1"] and view["step"] == "choose_action" and view["stack_size"] == 28


def test_the_rulebook_example_one_building_wakes_a_musketeer_a_coat_of_arms_and_a_park():
    # Otto (p1) lays the building on T20+T21: Fred's member (p2, X11) is driven
    # out by the Musketeer T10; Elizabeth's (p3, X13, Coat of Arms T22) and
    # Kathy's (p4, X26, Park T33) stay in the city until the end.
    state = given(
        built(2, "T08", "T09"),
        built(14, "T11", "T12"),
        built(10, "T23", "T24"),
        built(3, "T31", "T32"),
        built(13, "T34", "T47"),
        member("p2", "X11"),
        member("p3", "X13"),
        member("p4", "X26"),
        drawn(5),
        players=4,
    )
    events = decide(state, "p1", PlaceBuilding(triangles=("T20", "T21")))
    assert events[1:5] == [
        TriangleEnclosed(triangle="T10", kind="musketeer"),
        TriangleEnclosed(triangle="T22", kind="coat_of_arms"),
        TriangleEnclosed(triangle="T33", kind="park"),
        MemberDrivenOut(seat="p2", crossing="X11"),
    ]
    assert not any(isinstance(e, MemberScored) for e in events)
    crossings = {c["id"]: c for c in RULES.view(RULES.replay(events, state), "p1")["crossings"]}
    assert crossings["X13"]["member"] == "p3" and crossings["X13"]["numbers"] == [2, -1]
    assert crossings["X13"]["value"] == 3  # the Coat of Arms turns -1 into +1
    assert crossings["X26"]["member"] == "p4" and crossings["X26"]["numbers"] == [3, -1]
    assert crossings["X26"]["value"] == 4  # the Park doubles
