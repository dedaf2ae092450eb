"""Action B: playing a family member (rulebook "B Playing a Family Member")."""

from __future__ import annotations

import pytest

from domain.engine import IllegalCommand
from domain.games.cronberg import RULES
from domain.games.cronberg.messages import DrawBuilding, PlaceMember

from tests.games.cronberg.support import built, decide, enclosed, given, member


def test_a_family_member_goes_on_a_free_crossing():
    state = given(member("p2", "X19"))
    assert PlaceMember(crossing="X19") not in RULES.legal_commands(state, "p1")
    with pytest.raises(IllegalCommand, match="X19 is not free: p2"):
        decide(state, "p1", PlaceMember(crossing="X19"))
    assert decide(state, "p1", PlaceMember(crossing="X20"))[0] == member("p1", "X20")


def test_a_crossing_with_ones_own_member_is_not_free_either():
    state = given(member("p1", "X19"))
    with pytest.raises(IllegalCommand, match="X19 is not free: p1"):
        decide(state, "p1", PlaceMember(crossing="X19"))


def test_placing_a_member_takes_it_from_the_supply():
    after = RULES.replay(decide(given(), "p1", PlaceMember(crossing="X19")), given())
    assert after.supply == (3, 4)


def test_a_family_member_needs_a_crossing_that_borders_a_vacant_triangle():
    state = given(built(4, "T01", "T02"))
    assert PlaceMember(crossing="X01") not in RULES.legal_commands(state, "p1")
    with pytest.raises(IllegalCommand, match="X01 borders no vacant triangle"):
        decide(state, "p1", PlaceMember(crossing="X01"))


def test_an_unknown_crossing_is_refused():
    with pytest.raises(IllegalCommand, match="no crossing 'X77'"):
        decide(given(), "p1", PlaceMember(crossing="X77"))


def test_a_family_member_may_not_be_placed_beside_an_active_musketeer():
    state = given(built(1, "T08", "T09"), built(2, "T11", "T12"), built(3, "T20", "T21"), *enclosed("T10"))
    for crossing in ("X06", "X11", "X12"):
        assert PlaceMember(crossing=crossing) not in RULES.legal_commands(state, "p1")
        with pytest.raises(IllegalCommand, match="active Musketeer"):
            decide(state, "p1", PlaceMember(crossing=crossing))


def test_a_family_member_may_be_placed_beside_a_musketeer_not_yet_active():
    state = given(built(1, "T08", "T09"), built(2, "T11", "T12"))
    assert decide(state, "p1", PlaceMember(crossing="X11"))[0] == member("p1", "X11")


def test_a_family_member_may_be_placed_beside_an_enclosed_park():
    # X18's other triangles are covered; the Park T33 is enclosed and vacant.
    state = given(built(1, "T18", "T19"), built(2, "T20", "T21"), built(3, "T31", "T32"), built(6, "T34", "T47"), *enclosed("T33"))
    assert decide(state, "p1", PlaceMember(crossing="X18"))[0] == member("p1", "X18")


def test_a_player_with_no_family_member_in_supply_cannot_place_one():
    state = given(*(member("p1", c) for c in ("X01", "X02", "X03", "X04")))
    assert RULES.legal_commands(state, "p1") == [DrawBuilding()]
    with pytest.raises(IllegalCommand, match="none is left"):
        decide(state, "p1", PlaceMember(crossing="X19"))


def test_a_family_member_may_stand_on_a_crossing_of_the_wall():
    # X01 lies on the wall and touches only T01 and T02.
    assert decide(given(), "p1", PlaceMember(crossing="X01"))[0] == member("p1", "X01")
    assert PlaceMember(crossing="X30") in RULES.legal_commands(given(), "p1")
