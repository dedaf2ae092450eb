"""The Battle phase: deploying, tactics, rerolls, passing and stopping."""

from __future__ import annotations

import pytest

from domain.engine import IllegalCommand
from domain.games.the_coil.messages import (
    BattleTurnEnded, PhaseBegan, Deploy, DieDeployed, DieShifted, EndTurn, PlayTactic, ReservesRerolled, ShiftDie, Stop,
    Stopped, TacticPlayed,
)
from domain.games.the_coil.state import Region

ALL = ("p1", "p2", "p3")


def _battle(b, reserves=None, hand=(), **kw):
    state = b.battle(b.start(), **kw)
    for seat, values in (reserves or {}).items():
        state = b.seat(state, seat, reserves=values)
    if hand:
        state = b.seat(state, "p1", hands=hand)
    return state


def test_battle_turn_order_is_decided_like_the_escalation_phase(b):
    from domain.games.the_coil.flow import after_escalation_turn, new_draft
    state = b.escalation(b.start())
    state = b.seat(b.seat(state, "p2", reserves=(5, 6)), "p1", reserves=(1,))
    from dataclasses import replace
    em = new_draft(replace(state, turn=3), b.rng())
    after_escalation_turn(em)
    assert em.state.phase == "battle" and em.state.order == ("p2", "p3", "p1")


def test_the_first_die_on_a_region_goes_on_the_starting_arrow_with_any_value(b):
    state = _battle(b, {"p1": (4,)}, coil=[("dedran-02", ())])
    events = b.decide(state, "p1", Deploy(4, "dedran-02"))
    assert events == [DieDeployed("p1", 4, "dedran-02")]
    assert b.rules.replay(events, state).region("dedran-02").dice == (("p1", 4),)


def test_a_die_overcomes_an_opponents_die_only_by_being_exactly_one_higher(b):
    state = _battle(b, {"p1": (3, 4, 5)}, coil=[("dedran-02", (("p2", 3),))])
    assert b.decide(state, "p1", Deploy(4, "dedran-02")) == [DieDeployed("p1", 4, "dedran-02")]
    for value in (3, 5):
        with pytest.raises(IllegalCommand, match="exactly one more"):
            b.decide(state, "p1", Deploy(value, "dedran-02"))


def test_a_one_overcomes_a_six(b):
    state = _battle(b, {"p1": (1,)}, coil=[("dedran-02", (("p2", 6),))])
    assert b.decide(state, "p1", Deploy(1, "dedran-02")) == [DieDeployed("p1", 1, "dedran-02")]


def test_a_die_may_not_overcome_ones_own_die(b):
    state = _battle(b, {"p1": (4,)}, coil=[("dedran-02", (("p2", 2), ("p1", 3)))])
    with pytest.raises(IllegalCommand, match="your own die"):
        b.decide(state, "p1", Deploy(4, "dedran-02"))


def test_a_full_deployment_area_takes_no_more_dice(b):
    full = (("p2", 1), ("p3", 2), ("p2", 3))  # dedran-02 has 3 slots
    state = _battle(b, {"p1": (4,)}, coil=[("dedran-02", full)])
    with pytest.raises(IllegalCommand, match="no free slot"):
        b.decide(state, "p1", Deploy(4, "dedran-02"))


def test_deploying_needs_a_die_of_that_value_in_reserves_and_a_region_in_the_coil(b):
    state = _battle(b, {"p1": (4,)}, coil=[("dedran-02", ())])
    with pytest.raises(IllegalCommand, match="no die in your reserves shows 5"):
        b.decide(state, "p1", Deploy(5, "dedran-02"))
    with pytest.raises(IllegalCommand, match="no region"):
        b.decide(state, "p1", Deploy(4, "nowhere"))


def test_only_the_seat_whose_turn_it_is_may_deploy_or_play_tactics(b):
    state = _battle(b, {"p2": (4,)}, coil=[("dedran-02", ())])
    with pytest.raises(IllegalCommand, match="not your turn"):
        b.decide(state, "p2", Deploy(4, "dedran-02"))


@pytest.mark.parametrize("card, reserves, dice, value, after", [
    ("celestos-01", (2, 6), (6,), None, (1, 2)),      # plus_one: 6 + 1 wraps to 1
    ("celestos-02", (1, 2), (2,), None, (1, 1)),      # minus_one
    ("celestos-03", (2, 6), (2, 6), None, (1, 3)),    # plus_one_two: 6 wraps to 1
    ("celestos-04", (2, 6), (6,), 3, (2, 3)),         # set_value
    ("celestos-05", (2, 6), (2,), None, (5, 6)),      # opposite_face: 7 - 2
    ("celestos-07", (2, 6), (2, 6), None, (3, 5)),    # swap_pip: the first raised, the second lowered
    ("celestos-07", (1, 6), (6, 1), None, (1, 6)),    # swap_pip wraps both ways
])
def test_tactics_change_dice_in_ones_reserves_and_values_wrap(b, card, reserves, dice, value, after):
    state = _battle(b, {"p1": reserves}, hand=(card,))
    events = b.decide(state, "p1", PlayTactic(card, dice, value))
    assert events == [TacticPlayed("p1", card, dice, value, after)]


def test_minus_one_turns_a_one_into_a_six(b):
    state = _battle(b, {"p1": (1,)}, hand=("celestos-02",))
    assert b.decide(state, "p1", PlayTactic("celestos-02", (1,)))[0].reserves == (6,)


def test_reroll_tactic_rerolls_the_chosen_dice(b):
    state = _battle(b, {"p1": (1, 1, 5)}, hand=("celestos-06",))
    events = b.decide(state, "p1", PlayTactic("celestos-06", (1, 1)), seed=2)
    assert 5 in events[0].reserves and len(events[0].reserves) == 3


def test_a_played_tactic_is_discarded_to_its_nations_discard_area(b):
    state = _battle(b, {"p1": (2,)}, hand=("dedran-01",))
    state = b.run(state, "p1", PlayTactic("dedran-01", (2,)))
    assert state.hand("p1") == () and state.discard("dedran") == ("dedran-01",) and state.reserve("p1") == (3,)


def test_a_tactic_must_be_in_hand_and_name_dice_in_reserves(b):
    state = _battle(b, {"p1": (2,)}, hand=("celestos-01",))
    with pytest.raises(IllegalCommand, match="not a tactic in your hand"):
        b.decide(state, "p1", PlayTactic("celestos-08", (2,)))
    with pytest.raises(IllegalCommand, match="showing 5"):
        b.decide(state, "p1", PlayTactic("celestos-01", (5,)))
    with pytest.raises(IllegalCommand, match="exactly 1"):
        b.decide(state, "p1", PlayTactic("celestos-01", (2, 2)))
    with pytest.raises(IllegalCommand, match="takes no value"):
        b.decide(state, "p1", PlayTactic("celestos-01", (2,), 4))


def test_celestos_ability_shifts_one_die_once_per_battle_phase(b):
    state = _battle(b, {"p1": (6, 3)})
    events = b.decide(state, "p1", ShiftDie(6, True))
    assert events == [DieShifted("p1", 6, True)]
    state = b.rules.replay(events, state)
    assert state.reserve("p1") == (1, 3)
    with pytest.raises(IllegalCommand, match="once per Battle phase"):
        b.decide(state, "p1", ShiftDie(3, False))


def test_celestos_ability_is_used_only_in_the_battle_phase_on_its_own_turn(b):
    state = b.seat(b.escalation(b.start()), "p1", reserves=(3,))
    with pytest.raises(IllegalCommand, match="belongs to the Battle phase"):
        b.decide(state, "p1", ShiftDie(3, True))
    state = _battle(b, {"p1": (3,), "p2": (4,)}, turn=1)
    with pytest.raises(IllegalCommand, match="not your turn"):
        b.decide(state, "p1", ShiftDie(3, True))
    used = _battle(b, {"p1": (3,)}, shifted=("p1",))
    assert not any(isinstance(c, ShiftDie) for c in b.rules.legal_commands(used, "p1"))
    fresh = b.rules.evolve(used, PhaseBegan("battle", ("p1", "p2", "p3")))
    assert ShiftDie(3, True) in b.rules.legal_commands(fresh, "p1")  # once per Battle phase: a new phase


def test_only_celestos_may_use_the_shift_ability(b):
    state = _battle(b, {"p2": (3,)}, turn=1)
    with pytest.raises(IllegalCommand, match="only Celestos"):
        b.decide(state, "p2", ShiftDie(3, True))


def test_first_turn_with_no_deployable_die_rerolls_all_dice_until_one_can_be_deployed(b):
    state = _battle(b, {"p1": (1,), "p2": (5, 5)}, had_turn=("p1",), coil=[("dedran-02", (("p1", 2),))])
    events = b.decide(state, "p1", EndTurn(), seed=3)
    rerolled = events[1]
    assert isinstance(rerolled, ReservesRerolled) and rerolled.seat == "p2" and 3 in rerolled.values
    assert events[0] == BattleTurnEnded("p1")


def test_first_turn_reroll_also_applies_to_the_first_player_of_the_battle_phase(b):
    from dataclasses import replace

    from domain.games.the_coil.flow import after_escalation_turn, new_draft
    state = b.seat(b.escalation(b.start()), "p1", reserves=(5, 5))
    state = replace(state, turn=3, coil=(Region("dedran-02", (("p2", 2),)),))  # only a 3 can be deployed
    em = new_draft(state, b.rng(4))
    after_escalation_turn(em)
    rerolled = em.events[-1]
    assert isinstance(rerolled, ReservesRerolled) and rerolled.seat == "p1" and 3 in rerolled.values
    assert rerolled.attempts >= 1 and len(rerolled.values) == 2
    assert em.state.current() == "p1" and em.state.reserve("p1") == rerolled.values


def test_no_first_turn_reroll_when_a_die_can_be_deployed_without_a_tactic(b):
    state = _battle(b, {"p1": (1,), "p2": (3, 5)}, had_turn=("p1",), coil=[("dedran-02", (("p1", 2),))])
    assert b.decide(state, "p1", EndTurn()) == [BattleTurnEnded("p1")]


def test_no_first_turn_reroll_when_no_value_could_be_deployed_anywhere(b):
    full = (("p2", 1), ("p3", 2), ("p1", 3))
    state = _battle(b, {"p1": (1,), "p2": (5, 5)}, had_turn=("p1",), coil=[("dedran-02", full)])
    events = b.decide(state, "p1", EndTurn())
    assert events == [BattleTurnEnded("p1")]
    state = b.rules.replay(events, state)
    assert b.decide(state, "p2", EndTurn()) == [BattleTurnEnded("p2")]


def test_no_reroll_on_a_later_turn(b):
    state = _battle(b, {"p1": (1,), "p2": (5,)}, had_turn=ALL, coil=[("dedran-02", (("p1", 2),))])
    assert b.decide(state, "p1", EndTurn()) == [BattleTurnEnded("p1")]


def test_first_turn_must_deploy_a_die_when_one_can_be_deployed(b):
    state = _battle(b, {"p1": (4,)}, coil=[("dedran-02", ())])
    with pytest.raises(IllegalCommand, match="must deploy at least one die"):
        b.decide(state, "p1", EndTurn())
    state = b.run(state, "p1", Deploy(4, "dedran-02"))
    assert b.decide(state, "p1", EndTurn())[0] == BattleTurnEnded("p1")


def test_a_later_turn_may_pass_without_deploying(b):
    state = _battle(b, {"p1": (4,)}, had_turn=("p1",), coil=[("dedran-02", ())])
    assert b.decide(state, "p1", EndTurn())[0] == BattleTurnEnded("p1")


def test_passing_hands_the_turn_to_the_player_on_the_left(b):
    state = _battle(b, {"p1": (4,)}, had_turn=("p1",), coil=[("dedran-02", ())], order=("p3", "p1", "p2"), turn=1)
    state = b.run(state, "p1", EndTurn())
    assert state.current() == "p2"


def test_stop_is_allowed_only_after_every_player_has_had_a_turn(b):
    state = _battle(b, {"p1": (4,)}, had_turn=("p1", "p2"), coil=[("dedran-02", ())])
    with pytest.raises(IllegalCommand, match="every player has had at least one turn"):
        b.decide(state, "p1", Stop())


def test_stop_is_allowed_only_at_the_start_of_a_turn(b):
    state = _battle(b, {"p1": (4, 4)}, had_turn=ALL, coil=[("dedran-02", ()), ("dedran-04", ())])
    state = b.run(state, "p1", Deploy(4, "dedran-02"))
    with pytest.raises(IllegalCommand, match="start of your turn"):
        b.decide(state, "p1", Stop())


def test_stop_ends_the_battle_phase_for_all_players(b):
    state = _battle(b, {"p1": (4,), "p2": (1,), "p3": (5, 6)}, had_turn=ALL, coil=[("dedran-02", ())])
    events = b.decide(state, "p1", Stop())
    assert events[0] == Stopped("p1")
    assert not any(isinstance(e, (BattleTurnEnded, DieDeployed)) for e in events)  # nobody else gets a turn
    after = b.rules.replay(events, state)
    assert after.round == 2 and after.phase == "expansion"
    assert after.reserve("p2") == (1,) and after.reserve("p3") == (5, 6)  # their dice stay in reserves


def test_a_player_beginning_a_turn_with_no_dice_must_stop(b):
    state = _battle(b, {"p1": ()}, had_turn=ALL, hand=("celestos-01",), coil=[("dedran-02", ())])
    assert b.rules.legal_commands(state, "p1") == [Stop()]
    with pytest.raises(IllegalCommand, match="must stop"):
        b.decide(state, "p1", EndTurn())


def test_a_player_with_no_dice_passes_while_stopping_is_not_yet_allowed(b):
    state = _battle(b, {"p1": ()}, coil=[("dedran-02", ())])
    assert b.rules.legal_commands(state, "p1") == [EndTurn()]


def test_tactics_are_used_only_in_the_battle_phase(b):
    state = b.seat(b.seat(b.escalation(b.start()), "p1", reserves=(2,)), "p1", hands=("celestos-01",))
    with pytest.raises(IllegalCommand, match="Battle phase"):
        b.decide(state, "p1", PlayTactic("celestos-01", (2,)))


def test_several_tactics_and_dice_may_be_played_in_one_turn(b):
    state = _battle(b, {"p1": (2, 2)}, hand=("celestos-01", "celestos-08"),
                    coil=[("dedran-02", (("p2", 3),)), ("dedran-04", ())])
    state = b.run(state, "p1", PlayTactic("celestos-01", (2,)))
    state = b.run(state, "p1", PlayTactic("celestos-08", (3,)))
    assert state.reserve("p1") == (2, 4) and state.current() == "p1"
    state = b.run(state, "p1", Deploy(4, "dedran-02"))
    state = b.run(state, "p1", Deploy(2, "dedran-04"))
    assert state.region("dedran-02").dice[-1] == ("p1", 4) and state.reserve("p1") == ()
    assert state.current() == "p1"
