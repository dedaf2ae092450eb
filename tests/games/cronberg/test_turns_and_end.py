"""Game play and its end: the choice of action, turn order, the duty to act,
passing, the end of the game, the winner, several rounds and the timeout
(rulebook "Game Play", "Game End", "Winning")."""

from __future__ import annotations

import random

import pytest

from domain.engine import IllegalCommand
from domain.games.cronberg import RULES
from domain.games.cronberg.messages import (
    DrawBuilding,
    GameEnded,
    MemberScored,
    PlaceBuilding,
    PlaceMember,
    RoundEnded,
    RoundStarted,
    TurnBegan,
    TurnPassed,
)

from tests.games.cronberg.support import (
    ALL_TILES,
    P1_ELSEWHERE,
    P2_ELSEWHERE,
    built,
    decide,
    drawn,
    enclosed,
    ending,
    given,
    member,
    numbers_at,
)


def test_a_player_may_play_a_building_or_place_a_family_member():
    commands = RULES.legal_commands(given(), "p1")
    assert DrawBuilding() in commands
    assert PlaceMember(crossing="X19") in commands
    assert {type(c) for c in commands} == {DrawBuilding, PlaceMember}


def test_turn_order_rotates_clockwise():
    state = given(players=3, starter="p2")
    events = decide(state, "p2", PlaceMember(crossing="X19"))
    assert events[-1] == TurnBegan(seat="p3")
    state = RULES.replay(events, state)
    events = decide(state, "p3", DrawBuilding())
    state = RULES.replay(events, state)
    assert RULES.to_act(state) == {"p3"}  # the same player places the building it drew
    events = decide(state, "p3", PlaceBuilding(triangles=("T40", "T41")))
    assert events[-1] == TurnBegan(seat="p1")


def test_only_the_player_whose_turn_it_is_may_act():
    assert RULES.legal_commands(given(), "p2") == []
    with pytest.raises(IllegalCommand, match="not your turn: p1 is to act"):
        decide(given(), "p2", DrawBuilding())


def test_a_player_who_can_still_place_something_must_act_there_is_no_passing_at_will():
    # p2 has no member left but buildings remain: p2 must play a building.
    state = given(*(member("p2", c) for c in ("X01", "X02", "X03", "X04")))
    assert decide(state, "p1", PlaceMember(crossing="X19"))[1:] == [TurnBegan(seat="p2")]
    # no building is left but p2 has members: p2 must place one.
    state = given(stack=())
    assert decide(state, "p1", PlaceMember(crossing="X19"))[1:] == [TurnBegan(seat="p2")]
    assert all(isinstance(c, PlaceMember) for c in RULES.legal_commands(RULES.replay([TurnBegan(seat="p2")], state), "p2"))


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
    with pytest.raises(IllegalCommand, match="not your turn"):
        decide(after, "p1", DrawBuilding())


def test_the_game_goes_on_while_one_player_can_still_act():
    # p1 has no member left and no building remains, but p2 still has members.
    state = given(*(member("p1", c) for c in ("X01", "X02", "X03")), stack=())
    events = decide(state, "p1", PlaceMember(crossing="X04"))
    assert events[1:] == [TurnBegan(seat="p2")]
    state = RULES.replay([*events, member("p2", "X30"), member("p2", "X37"), member("p2", "X19")], state)
    events = decide(state, "p2", PlaceMember(crossing="X20"))
    assert isinstance(events[-1], GameEnded)  # p1 could not act, so nobody can


def test_the_player_with_the_highest_score_wins():
    state = ending(built(3, "T05", "T06"))  # p2's member on X04 scores 3 at the end
    events = decide(state, "p1", PlaceMember(crossing="X19"))
    assert events[-1] == GameEnded(winners=("p2",), points=3)
    after = RULES.replay(events, state)
    assert RULES.outcome(after) == "p2 wins with 3 points"
    assert [(s.seat, s.rank, s.score) for s in RULES.score(after)] == [("p1", 2, 0), ("p2", 1, 3)]


def test_equal_scores_share_the_win():
    # p2's member on X04 scores 3; p1's last member on X08 gets 2 (tile 3) + 1 (tile 20): 3 as well.
    state = ending(built(3, "T05", "T06"), built(20, "T14", "T15"), *enclosed("T07"))
    assert numbers_at(state, "X04") == (3,) and numbers_at(state, "X08") == (2, 1)
    events = decide(state, "p1", PlaceMember(crossing="X08"))
    assert events[-1] == GameEnded(winners=("p1", "p2"), points=3)
    after = RULES.replay(events, state)
    assert RULES.outcome(after) == "p1 and p2 share the win with 3 points"
    assert [(s.rank, s.score) for s in RULES.score(after)] == [(1, 3), (1, 3)]


def test_with_several_rounds_the_next_round_starts_from_the_previous_scores():
    state = ending(built(3, "T05", "T06"), rounds=2)
    events = decide(state, "p1", PlaceMember(crossing="X19"))
    assert events[-2] == RoundEnded(round=1, scores=(0, 3))
    restarted = events[-1]
    assert isinstance(restarted, RoundStarted) and restarted.round == 2 and restarted.starter == "p2"
    assert sorted(restarted.stack) == list(ALL_TILES)
    after = RULES.replay(events, state)
    assert after.scores == (0, 3) and after.supply == (4, 4)
    assert all(m == -1 for m in after.members) and not any(after.cover) and not after.enclosed
    assert RULES.outcome(after) is None and RULES.to_act(after) == {"p2"}


def test_after_the_last_round_the_highest_running_score_wins():
    # p2 won round 1 by 10; in round 2 p1 scores 4 (X07) and p2 3 (X04): p2 wins the game.
    state = given(member("p2", "X04"), MemberScored(seat="p2", crossing="X04", points=10, at_end=True), rounds=2, stack=())
    state = RULES.replay(
        [RoundStarted(round=2, starter="p1", stack=()), built(3, "T05", "T06"), *P2_ELSEWHERE, *P1_ELSEWHERE, TurnBegan(seat="p1")],
        state,
    )
    events = decide(state, "p1", PlaceMember(crossing="X07"))
    assert events[-2:] == [RoundEnded(round=2, scores=(4, 13)), GameEnded(winners=("p2",), points=13)]


def test_on_timeout_a_legal_command_keeps_the_game_going():
    for state in (given(), given(drawn(5)), given(stack=())):
        seat = sorted(RULES.to_act(state))[0]
        assert RULES.on_timeout(state, seat, random.Random(1)) in RULES.legal_commands(state, seat)


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


def test_scores_may_go_below_zero():
    state = given(member("p1", "X01"), TurnBegan(seat="p2"), drawn(4, seat="p2"))
    events = decide(state, "p2", PlaceBuilding(triangles=("T01", "T02"), turned=True))
    assert [e.points for e in events if isinstance(e, MemberScored)] == [-6]
    assert RULES.replay(events, state).scores == (-6, 0)
