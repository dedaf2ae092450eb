"""Valuations: scoring during play and at the end of play, what Parks and
Coats of Arms do to a crossing's value, and the rulebook's scoring example
(rulebook "Valuations", "Park", "Coat of Arms", "Example Scoring")."""

from __future__ import annotations

from domain.games.cronberg import RULES
from domain.games.cronberg.board import BOARD
from domain.games.cronberg.messages import MemberDrivenOut, MemberScored, PlaceBuilding, PlaceMember, TurnBegan

from tests.games.cronberg.support import (
    built,
    crossing_view,
    decide,
    drawn,
    enclosed,
    ending,
    final_points,
    given,
    member,
    numbers_at,
)

# A Scoring during the play


def test_a_member_left_with_no_vacant_triangle_is_scored_at_once_and_returns_to_its_owner():
    # X01 touches only T01 and T02; p2 covers both, p1's member there scores the corner number.
    state = given(member("p1", "X01"), TurnBegan(seat="p2"), drawn(4, seat="p2"))
    events = decide(state, "p2", PlaceBuilding(triangles=("T01", "T02"), turned=True))
    assert MemberScored(seat="p1", crossing="X01", points=-6, at_end=False) in events
    after = RULES.replay(events, state)
    assert after.scores == (-6, 0)  # the family head retreats: scores may go below 0
    assert after.supply == (4, 4)
    assert after.members[BOARD.crossing_index["X01"]] == -1
    assert PlaceMember(crossing="X19") in RULES.legal_commands(RULES.replay([TurnBegan(seat="p1")], after), "p1")


def test_a_member_scored_during_play_counts_the_sum_of_all_numbers_at_its_crossing():
    # X05 touches T01, T08 and T09: tile 2 on T08+T09 puts -2 there, tile 4 on T01+T02 then -1.
    state = given(member("p2", "X05"), built(2, "T08", "T09"), drawn(4))
    events = decide(state, "p1", PlaceBuilding(triangles=("T01", "T02")))
    assert MemberScored(seat="p2", crossing="X05", points=-3, at_end=False) in events


def test_a_member_beside_a_vacant_triangle_stays_in_the_city():
    state = given(member("p1", "X06"), drawn(4))
    events = decide(state, "p1", PlaceBuilding(triangles=("T01", "T02")))
    assert not any(isinstance(e, MemberScored) for e in events)


def test_a_member_beside_an_enclosed_special_triangle_stays_until_the_end():
    # X19's last plain neighbours get covered, but the enclosed Park and Coats of Arms beside it stay vacant.
    state = given(
        member("p1", "X19"),
        built(1, "T20", "T21"),
        built(2, "T31", "T32"),
        built(3, "T34", "T47"),
        built(4, "T12", "T13"),
        built(6, "T36", "T37"),
        *enclosed("T33"),
        drawn(5),
    )
    events = decide(state, "p1", PlaceBuilding(triangles=("T23", "T24")))
    assert events[1:3] == enclosed("T22", "T35")
    assert not any(isinstance(e, MemberScored) for e in events)


# B Scoring at the end of play


def test_at_the_end_every_member_in_the_city_is_scored_with_the_plain_sum():
    # X20 gets an obtuse corner of tile 10 (on T23+T24) and an acute one of tile 5 (on T25+T26).
    state = ending(built(10, "T23", "T24"), built(5, "T25", "T26"))
    assert numbers_at(state, "X20") == (-3, -1)
    assert final_points(state, "X20") == -4


def test_at_the_end_members_scored_return_and_every_member_counts():
    state = ending(built(3, "T05", "T06"))  # p2's member on X04 gets 3
    events = decide(state, "p1", PlaceMember(crossing="X19"))
    scored = {(e.seat, e.crossing): e.points for e in events if isinstance(e, MemberScored)}
    assert scored == {("p1", c): 0 for c in ("X10", "X19", "X22", "X42")} | {("p2", c): 3 if c == "X04" else 0 for c in ("X01", "X04", "X30", "X37")}
    after = RULES.replay(events, state)
    assert after.scores == (0, 3) and after.supply == (4, 4) and all(m == -1 for m in after.members)


def test_a_park_doubles_the_value_of_its_crossings():
    state = ending(built(5, "T20", "T21"), built(9, "T31", "T32"), built(6, "T34", "T47"), *enclosed("T33"))
    assert numbers_at(state, "X18") == (3, 4)
    assert final_points(state, "X18") == 7 * 2


def test_a_park_not_yet_enclosed_does_not_double():
    state = ending(built(5, "T20", "T21"), built(9, "T31", "T32"))
    assert final_points(state, "X18") == 7


# X26 touches the Parks T33, T45 and T47; these buildings cover the Parks'
# other neighbours but T34 and T48, and put 1 and 1 on X26 (tiles 5 and 20).
AROUND_X26 = (built(1, "T20", "T21"), built(5, "T31", "T32"), built(2, "T43", "T44"), built(20, "T46", "T58"))


def test_two_parks_at_a_crossing_quadruple_its_value():
    # T47 lies under a building: two Parks are active.
    state = ending(*AROUND_X26, built(3, "T34", "T47"), *enclosed("T33", "T45"))
    assert numbers_at(state, "X26") == (1, 1, 2)
    assert final_points(state, "X26") == 4 * 4


def test_three_parks_at_a_crossing_multiply_its_value_eight_times():
    # T34+T35 covers the Coat of Arms T35 so that all three Parks can be enclosed.
    state = ending(*AROUND_X26, built(10, "T34", "T35"), built(4, "T48", "T60"), *enclosed("T33", "T45", "T47", "T59"))
    assert numbers_at(state, "X26") == (1, 1, 3)
    assert final_points(state, "X26") == 5 * 8


def test_a_coat_of_arms_makes_the_numbers_at_its_crossings_positive():
    # X13 gets obtuse corners of tiles 2 and 14, both negative.
    state = ending(built(2, "T12", "T13"), built(1, "T20", "T21"), built(14, "T23", "T24"), *enclosed("T22"))
    assert numbers_at(state, "X13") == (-6, -1)
    assert final_points(state, "X13") == 7


def test_positive_values_stay_unchanged_beside_a_coat_of_arms():
    state = ending(built(3, "T12", "T13"), built(1, "T20", "T21"), built(13, "T23", "T24"), *enclosed("T22"))
    assert numbers_at(state, "X13") == (2, 6)
    assert final_points(state, "X13") == 8


# X19 touches the Coats of Arms T22 and T35 and the Park T33; its numbers come
# from tile 7 (turned) on T20+T21, tile 3 on T23+T24 and tile 2 (turned) on T34+T47.
AROUND_X19 = (built(8, "T11", "T12"), built(7, "T20", "T21", turned=True), built(3, "T23", "T24"), built(2, "T34", "T47", turned=True), built(6, "T36", "T37"))


def test_several_coats_of_arms_at_a_crossing_do_not_cancel_each_other():
    state = ending(*AROUND_X19, *enclosed("T22", "T35"))
    assert numbers_at(state, "X19") == (-7, 4, -3)
    assert final_points(state, "X19") == 7 + 4 + 3


def test_a_coat_of_arms_applies_before_the_parks():
    state = ending(*AROUND_X19, built(9, "T31", "T32"), *enclosed("T22", "T33", "T35"))
    assert numbers_at(state, "X19") == (-7, 4, -3)
    assert final_points(state, "X19") == (7 + 4 + 3) * 2  # not |(-7 + 4 - 3) * 2|


# Example Scoring


def test_the_rulebook_example_one_building_scores_one_member_drives_out_another_and_two_stay():
    # Otto (p1) lays tile 12 on T36+T37. It covers the last vacant triangle at
    # X21 (Otto's member, -2 at once), wakes the Musketeer T49 (Fred's member,
    # p2 on X28, driven out) and the Coat of Arms T35: Elizabeth's member (p3,
    # X20) is worth 4 because the Coat makes -2 and -1 positive; Kathy's (p4,
    # X19, also beside the Park T33) is worth 8: the Park doubles, the Coat
    # changes nothing. Both stay until the end.
    state = given(
        built(1, "T48", "T60"),
        built(2, "T50", "T62"),
        built(3, "T31", "T32"),
        built(5, "T20", "T21"),
        built(20, "T23", "T24"),
        built(27, "T34", "T47", turned=True),
        built(25, "T25", "T26"),
        built(11, "T27", "T39", turned=True),
        built(24, "T38", "T51", turned=True),
        *enclosed("T33", "T61"),
        member("p1", "X21"),
        member("p2", "X28"),
        member("p3", "X20"),
        member("p4", "X19"),
        drawn(12),
        players=4,
    )
    events = decide(state, "p1", PlaceBuilding(triangles=("T36", "T37"), turned=True))
    assert events[1:] == [
        *enclosed("T35", "T49"),
        MemberDrivenOut(seat="p2", crossing="X28"),
        MemberScored(seat="p1", crossing="X21", points=-2, at_end=False),
        TurnBegan(seat="p2"),
    ]
    after = RULES.replay(events, state)
    assert after.scores == (-2, 0, 0, 0) and after.supply == (4, 4, 3, 3)
    elizabeth, kathy = crossing_view(after, "X20"), crossing_view(after, "X19")
    assert elizabeth["member"] == "p3" and elizabeth["numbers"] == [1, -2, -1] and elizabeth["value"] == 4
    assert kathy["member"] == "p4" and kathy["numbers"] == [1, 1, 2] and kathy["value"] == 8
