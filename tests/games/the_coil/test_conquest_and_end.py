"""The Conquest phase, the rounds and the end of the game."""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.engine import IllegalCommand
from domain.games.the_coil.messages import (
    ChooseStrategy, DiceReturned, GameEnded, PhaseBegan, PlaceRegions, RegionsClaimed, RegionsLeftPlay, Stop,
    StrategyChosen,
)

ALL3 = ("p1", "p2", "p3")


def _stop(b, state, seat="p1"):
    events = b.decide(state, seat, Stop())
    return events, b.rules.replay(events, state)


def _battle(b, coil, nations=("celestos", "dedran", "ignixior"), neutral=None, **kw):
    state = b.start(nations, neutral)
    return b.battle(state, coil=coil, had_turn=state.seats, **kw)


def test_conquest_the_last_die_deployed_claims_the_region(b):
    state = _battle(b, [("dedran-02", (("p2", 1), ("p1", 2)))])
    events, after = _stop(b, state)
    assert RegionsClaimed("p1", (("dedran-02", "west"),)) in events
    assert after.claims("p1") == (("dedran-02", "west"),)


def test_conquest_homeland_regions_with_no_dice_go_to_their_nation(b):
    state = _battle(b, [("celestos-01", ()), ("ignixior-01", ())])
    events, after = _stop(b, state)
    assert RegionsClaimed("p1", (("celestos-01", "home"),)) in events
    assert RegionsClaimed("p3", (("ignixior-01", "home"),)) in events


def test_conquest_places_claimed_regions_in_their_area_while_it_has_room_without_asking(b):
    state = _battle(b, [("dedran-02", (("p2", 1), ("p1", 2))), ("ignixior-01", (("p1", 3),))])
    events, after = _stop(b, state)  # p1's Bastion: west 1, east 1 - both fit
    assert PhaseBegan("conquest", ()) in events
    assert RegionsClaimed("p1", (("dedran-02", "west"), ("ignixior-01", "east"))) in events
    assert after.phase == "expansion"


def _overflow(b):
    won = (("p2", 1), ("p1", 2))
    return _battle(b, [("dedran-02", won), ("dedran-04", won), ("dedran-05", won), ("ignixior-01", (("p1", 3),)),
                       ("celestos-01", (("p3", 5),))])


def test_conquest_overflowing_area_the_player_chooses_which_regions_to_place_the_rest_become_tactics(b):
    events, state = _stop(b, _overflow(b))  # p1's Bastion: west 1 for three western regions
    assert PhaseBegan("conquest", ("p1",)) in events and state.phase == "conquest"
    assert RegionsClaimed("p3", (("celestos-01", "west"),)) in events  # p3 had no choice to make
    assert b.rules.to_act(state) == frozenset({"p1"})
    assert b.rules.legal_commands(state, "p1") == [
        PlaceRegions(("dedran-02", "ignixior-01")), PlaceRegions(("dedran-04", "ignixior-01")),
        PlaceRegions(("dedran-05", "ignixior-01")),
    ]
    events = b.decide(state, "p1", PlaceRegions(("dedran-04", "ignixior-01")))
    assert events[0] == RegionsClaimed(
        "p1", (("dedran-02", "hand"), ("dedran-04", "west"), ("dedran-05", "hand"), ("ignixior-01", "east")))
    after = b.rules.replay(events, state)
    assert after.claims("p1") == (("dedran-04", "west"), ("ignixior-01", "east"))
    assert {"dedran-02", "dedran-05"} <= set(after.hand("p1"))
    assert after.phase == "expansion" and after.round == 2
    assert all(not r.dice for r in after.coil)  # the dice went home; only round 2's new regions remain


@pytest.mark.parametrize("regions, why", [
    (("dedran-04",), "east area takes exactly 1"),                      # must place while there is room
    (("dedran-02", "dedran-04", "ignixior-01"), "west area takes exactly 1"),
    (("ignixior-01", "dedran-04"), "increasing order"),
    (("celestos-01", "ignixior-01"), "not a region you claimed"),
    (("dedran-04", "dedran-04"), "once"),
])
def test_conquest_placing_must_fill_each_area_while_it_has_room_and_no_more(b, regions, why):
    _, state = _stop(b, _overflow(b))
    with pytest.raises(IllegalCommand, match=why):
        b.decide(state, "p1", PlaceRegions(regions))


def test_conquest_is_simultaneous_and_the_round_goes_on_when_the_last_player_has_placed(b):
    won1, won3 = (("p2", 1), ("p1", 2)), (("p2", 1), ("p3", 2))
    state = _battle(b, [("dedran-02", won1), ("dedran-04", won1), ("celestos-02", (("p3", 1),)),
                        ("celestos-03", (("p3", 1),))])  # p3's Eastward: west 1
    events, state = _stop(b, state)
    assert PhaseBegan("conquest", ("p1", "p3")) in events and b.rules.to_act(state) == frozenset({"p1", "p3"})
    state = b.run(state, "p3", PlaceRegions(("celestos-03",)))
    assert state.phase == "conquest" and b.rules.to_act(state) == frozenset({"p1"})
    assert state.region("dedran-02").dice == won1  # the dice stay until every region is placed
    state = b.run(state, "p1", PlaceRegions(("dedran-02",)))
    assert state.phase == "expansion" and state.population("p1") == 7


def test_conquest_timeout_places_the_regions_with_the_lowest_ids(b):
    _, state = _stop(b, _overflow(b))
    assert b.rules.on_timeout(state, "p1", b.rng()) == PlaceRegions(("dedran-02", "ignixior-01"))


def test_conquest_area_room_counts_regions_claimed_in_earlier_rounds(b):
    state = _battle(b, [("dedran-04", (("p1", 2),))])
    state = b.seat(state, "p1", claimed=(("dedran-01", "west"),))
    events, _ = _stop(b, state)
    assert RegionsClaimed("p1", (("dedran-04", "hand"),)) in events


def test_conquest_a_region_of_a_nation_bordering_neither_side_becomes_a_tactic(b):
    state = _battle(b, [("ignixior-01", (("p1", 3),))], nations=("celestos", "dedran", "ignixior", "shakoom"))
    events, _ = _stop(b, state)
    assert RegionsClaimed("p1", (("ignixior-01", "hand"),)) in events


def test_conquest_returns_all_dice_from_the_regions_to_their_populations(b):
    state = _battle(b, [("dedran-02", (("p2", 1), ("p1", 2), ("p3", 3)))])
    state = b.seat(state, "p1", reserves=(6,))
    _, after = _stop(b, state)
    assert after.coil == () or all(not r.dice for r in after.coil)
    assert after.population("p1") == 6 and after.population("p2") == 7 and after.population("p3") == 7


def test_vargree_ability_returns_one_die_of_a_claimed_region_to_its_reserves(b):
    state = _battle(b, [("dedran-02", (("p2", 4), ("p1", 5)))], nations=("vargree", "dedran", "ignixior"))
    events, after = _stop(b, state)
    assert DiceReturned((("p1", 5),)) in events
    assert after.reserve("p1") == (5,) and after.population("p1") == 6


def test_vargree_ability_keeps_the_top_die_of_the_first_region_claimed_by_battle_only(b):
    nations = ("vargree", "dedran", "ignixior")
    state = _battle(b, [("vargree-01", ()), ("dedran-02", (("p1", 3),)), ("ignixior-02", (("p3", 1), ("p1", 2)))],
                    nations=nations)
    events, after = _stop(b, state)
    assert DiceReturned((("p1", 3),)) in events and after.reserve("p1") == (3,)
    state = _battle(b, [("vargree-01", ()), ("dedran-02", (("p1", 3), ("p2", 4)))], nations=nations)
    events, after = _stop(b, state)  # an undisputed homeland region is not claimed by battle
    assert DiceReturned(()) in events and after.reserve("p1") == ()


def test_two_players_the_neutral_nation_collects_its_undisputed_regions_which_leave_play(b):
    state = _battle(b, [("ignixior-01", ()), ("ignixior-04", (("p1", 2),))], nations=("celestos", "dedran"),
                    neutral="ignixior")
    events, after = _stop(b, state)
    assert RegionsLeftPlay("ignixior", ("ignixior-01",)) in events
    assert RegionsClaimed("p1", (("ignixior-04", "east"),)) in events
    assert "ignixior-01" not in after.discard("ignixior") + after.deck("ignixior")


def test_conquest_raises_the_northern_die_and_begins_a_new_round(b):
    state = _battle(b, [])
    events, after = _stop(b, state)
    assert after.round == 2 and after.phase == "expansion"
    assert PhaseBegan("expansion", ALL3) in events


def test_the_game_ends_once_the_fourth_round_is_finished(b):
    state = replace(_battle(b, []), round=4)
    events, after = _stop(b, state)
    assert events[-1] == GameEnded() and after.phase == "over"
    assert b.rules.outcome(after) is not None and b.rules.to_act(after) == frozenset()
    assert b.rules.outcome(state) is None


def test_at_the_end_players_with_several_strategy_cards_choose_one_to_score(b):
    state = replace(_battle(b, []), round=4)
    state = b.seat(state, "p2", strategies=("westward", "raiders"))
    events, after = _stop(b, state)
    assert PhaseBegan("choose", ("p2",)) in events and after.to_act() == frozenset({"p2"})
    assert b.rules.outcome(after) is None
    with pytest.raises(IllegalCommand, match="not one of your strategy cards"):
        b.decide(after, "p2", ChooseStrategy("bastion"))
    events = b.decide(after, "p2", ChooseStrategy("westward"))
    assert events == [StrategyChosen("p2", "westward"), GameEnded()]
    final = b.rules.replay(events, after)
    assert final.strategy("p2") == "westward"


def test_with_stacked_strategy_cards_the_newest_governs_capacities(b):
    won = (("p2", 1), ("p1", 2))
    state = _battle(b, [("dedran-02", won), ("dedran-04", won)])
    state = b.seat(state, "p1", strategies=("bastion", "raiders"))  # Raiders' Pact: west 3
    events, _ = _stop(b, state)
    assert RegionsClaimed("p1", (("dedran-02", "west"), ("dedran-04", "west"))) in events
