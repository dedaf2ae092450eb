"""Triangles: enclosure, and what an enclosed (active) triangle does to the
members beside it (rulebook "Triangles", "Musketeer"; brief "Vacant triangle").
What Parks and Coats of Arms do to a crossing's value is in test_scoring.py."""

from __future__ import annotations

from domain.games.cronberg import RULES
from domain.games.cronberg.messages import MemberDrivenOut, MemberScored, PlaceBuilding, PlaceMember, TurnBegan

from tests.games.cronberg.support import built, crossing_view, decide, drawn, enclosed, given, member


def test_a_triangle_surrounded_by_buildings_and_the_wall_is_enclosed():
    # T01 has the wall on one side and T02, T09 on the others.
    state = given(built(1, "T02", "T03"), drawn(5))
    events = decide(state, "p1", PlaceBuilding(triangles=("T08", "T09")))
    assert events[1:2] == enclosed("T01")


def test_a_triangle_surrounded_by_buildings_alone_is_enclosed():
    # T10 (a Musketeer) is inside the city: T09, T11 and T20 are its neighbours.
    state = given(built(1, "T08", "T09"), built(2, "T11", "T12"), drawn(5))
    events = decide(state, "p1", PlaceBuilding(triangles=("T20", "T21")))
    assert events[1:2] == enclosed("T10")


def test_a_triangle_with_a_vacant_neighbour_is_not_enclosed():
    state = given(built(1, "T08", "T09"), drawn(5))
    events = decide(state, "p1", PlaceBuilding(triangles=("T20", "T21")))
    assert events[1:] == [TurnBegan(seat="p2")]


def test_each_triangle_is_enclosed_once():
    state = given(built(1, "T02", "T03"), built(2, "T08", "T09"), *enclosed("T01"), drawn(5))
    events = decide(state, "p1", PlaceBuilding(triangles=("T17", "T18")))
    assert events[1:] == [TurnBegan(seat="p2")]


def test_a_plain_enclosed_triangle_has_no_effect_but_keeps_its_neighbours_in_the_city():
    # X05 touches T01, T08 and T09; with T08+T09 built, T01 is enclosed and plain:
    # the member on X05 stays, and its value is the plain sum.
    state = given(member("p1", "X05"), built(2, "T02", "T03"), drawn(4))
    events = decide(state, "p1", PlaceBuilding(triangles=("T08", "T09"), turned=True))
    assert enclosed("T01")[0] in events
    assert not any(isinstance(e, MemberScored) for e in events)
    x05 = crossing_view(RULES.replay(events, state), "X05")
    assert x05["member"] == "p1" and x05["numbers"] == [-6] and x05["value"] == -6


def test_an_enclosed_musketeer_drives_out_the_family_members_on_its_crossings_unscored():
    state = given(
        built(1, "T08", "T09"), built(2, "T11", "T12"), member("p2", "X11"), member("p1", "X12"), member("p2", "X17"), drawn(5)
    )
    events = decide(state, "p1", PlaceBuilding(triangles=("T20", "T21")))
    assert events[1:4] == [
        *enclosed("T10"),
        MemberDrivenOut(seat="p2", crossing="X11"),
        MemberDrivenOut(seat="p1", crossing="X12"),
    ]
    assert not any(isinstance(e, MemberScored) for e in events)
    after = RULES.replay(events, state)
    assert after.supply == (4, 3) and after.scores == (0, 0)
    assert crossing_view(after, "X17")["member"] == "p2"  # not on the Musketeer's crossings


def test_driven_out_members_return_and_may_be_placed_again_later():
    state = given(built(1, "T08", "T09"), built(2, "T11", "T12"), member("p1", "X12"), drawn(5))
    after = RULES.replay(decide(state, "p1", PlaceBuilding(triangles=("T20", "T21"))), state)
    assert after.supply[0] == 4
    assert PlaceMember(crossing="X19") in RULES.legal_commands(RULES.replay([TurnBegan(seat="p1")], after), "p1")


def test_a_musketeer_that_is_covered_never_drives_anyone_out():
    # A building over the Musketeer T10 and T09: its crossings stay open.
    state = given(member("p2", "X11"), built(2, "T11", "T12"), drawn(5))
    events = decide(state, "p1", PlaceBuilding(triangles=("T09", "T10")))
    assert not any(isinstance(e, MemberDrivenOut) for e in events)
    assert crossing_view(RULES.replay(events, state), "X12")["open"]
