"""Expansion, Muster and Escalation."""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.engine import IllegalCommand
from domain.games.the_coil.messages import (
    DeckShuffled, DiceMustered, EndEscalation, EscalationTurnEnded, Expand, Muster, PhaseBegan, Recruit,
    Recruited, RegionFlipped, Scout, Scouted, Strategize, Strategized,
)
from domain.games.the_coil.state import Region


def _expansion(b, nations=("celestos", "dedran", "ignixior"), neutral=None):
    state = b.start(nations, neutral)
    return replace(state, phase="expansion", pending=state.seats)


def test_expansion_is_simultaneous_every_seat_flips_its_top_card_into_the_coil(b):
    state = _expansion(b)
    assert state.to_act() == frozenset({"p1", "p2", "p3"})
    events = b.decide(state, "p2", Expand())
    assert events == [RegionFlipped("p2", "dedran", "dedran-01")]
    state = b.rules.replay(events, state)
    assert state.to_act() == frozenset({"p1", "p3"}) and state.coil == (Region("dedran-01"),)
    with pytest.raises(IllegalCommand, match="not your turn"):
        b.decide(state, "p2", Expand())


def test_expansion_ends_when_every_seat_has_flipped_and_muster_begins(b):
    state = _expansion(b)
    for seat in ("p3", "p1", "p2"):
        state = b.run(state, seat, Expand())
    assert state.phase == "muster" and state.to_act() == frozenset({"p1", "p2", "p3"})


def test_an_empty_homeland_deck_is_reshuffled_from_its_discard_area_as_soon_as_it_is_empty(b):
    state = _expansion(b)
    state = replace(state, decks=(("celestos-05",),) + state.decks[1:],
                    discards=(("celestos-01", "celestos-02"),) + state.discards[1:])
    events = b.decide(state, "p1", Expand(), seed=1)
    assert events[0] == RegionFlipped("p1", "celestos", "celestos-05")
    assert isinstance(events[1], DeckShuffled) and sorted(events[1].cards) == ["celestos-01", "celestos-02"]
    state = b.rules.replay(events, state)
    assert len(state.deck("celestos")) == 2 and state.discard("celestos") == ()


def test_a_tactic_discarded_to_an_empty_homeland_deck_forms_a_new_deck_at_once(b):
    from domain.games.the_coil.messages import PlayTactic, TacticPlayed
    state = b.battle(b.start(), coil=[("ignixior-01", ())])
    state = b.seat(b.seat(state, "p1", reserves=(2,)), "p1", hands=("dedran-01",))
    state = replace(state, decks=state.decks[:1] + ((),) + state.decks[2:])
    events = b.decide(state, "p1", PlayTactic("dedran-01", (2,)))
    assert isinstance(events[0], TacticPlayed) and events[1] == DeckShuffled("dedran", ("dedran-01",))
    state = b.rules.replay(events, state)
    assert state.deck("dedran") == ("dedran-01",) and state.discard("dedran") == ()


def test_no_homeland_deck_is_ever_empty_while_its_discard_area_holds_cards():
    import random

    from domain.games.the_coil import RULES
    from domain.playout import start, step
    for players in (2, 4):
        playout = start(RULES, {"players": players}, 11)
        rng = random.Random(11)
        while not playout.over:
            step(playout, rng, check=False)
            for nation in playout.state.table():
                assert playout.state.deck(nation) or not playout.state.discard(nation), nation


def test_a_seat_with_no_homeland_cards_left_skips_expansion(b):
    state = b.start()
    state = replace(state, decks=((),) + state.decks[1:])
    from domain.games.the_coil.flow import begin_round, new_draft
    em = new_draft(replace(state, round=1), b.rng())
    begin_round(em, 2)
    assert em.state.to_act() == frozenset({"p2", "p3"})


def test_the_neutral_nation_flips_its_top_card_in_each_expansion(b):
    from domain.games.the_coil.flow import begin_round, new_draft
    state = b.start(("celestos", "dedran"), neutral="shakoom")
    em = new_draft(state, b.rng())
    begin_round(em, 2)
    assert RegionFlipped(None, "shakoom", "shakoom-01") in em.events
    assert em.state.to_act() == frozenset({"p1", "p2"})


def _muster(b, nations=("celestos", "dedran", "ignixior")):
    state = b.start(nations)
    return replace(state, phase="muster", pending=state.seats)


def test_muster_rolls_the_nations_dice_and_places_them_beside_old_reserves(b):
    state = b.seat(_muster(b), "p1", reserves=(6, 6))
    events = b.decide(state, "p1", Muster(), seed=4)
    assert isinstance(events[0], DiceMustered) and len(events[0].values) == 3  # Celestos musters 3
    state = b.rules.replay(events, state)
    assert len(state.reserve("p1")) == 5 and state.reserve("p1").count(6) >= 2
    assert state.population("p1") == 2


def test_muster_is_simultaneous_and_ends_in_escalation(b):
    state = _muster(b)
    for seat in ("p2", "p3", "p1"):
        assert seat in state.to_act()
        state = b.run(state, seat, Muster())
    assert state.phase == "escalation"


def test_muster_takes_no_more_dice_than_the_population_holds(b):
    state = b.seat(_muster(b), "p3", reserves=(1, 1, 1, 1, 1))  # Ignixior musters 4, has 2 left
    events = b.decide(state, "p3", Muster())
    assert len(events[0].values) == 2


def test_ignixior_ability_sets_one_mustered_die_to_a_chosen_value(b):
    state = _muster(b)
    events = b.decide(state, "p3", Muster(fixed=6), seed=1)
    assert events[0].values[0] == 6 and events[0].fixed == 6 and len(events[0].values) == 4


def test_ignixior_ability_is_used_only_when_mustering(b):
    state = b.seat(b.escalation(b.start(("ignixior", "dedran", "celestos"))), "p1", reserves=(2,))
    with pytest.raises(IllegalCommand, match="belongs to the Muster phase"):
        b.decide(state, "p1", Muster(fixed=6))


def test_only_ignixior_may_set_a_mustered_die(b):
    with pytest.raises(IllegalCommand, match="only Ignixior"):
        b.decide(_muster(b), "p1", Muster(fixed=6))
    with pytest.raises(IllegalCommand, match="1 to 6"):
        b.decide(_muster(b), "p3", Muster(fixed=9))


def test_escalation_order_starts_with_the_greatest_reserve_total_then_clockwise(b):
    state = _muster(b)
    state = b.seat(b.seat(b.seat(state, "p1", reserves=(6, 6, 6, 6)), "p2", reserves=(6, 6, 6, 6, 6)), "p3", reserves=())
    state = replace(state, pending=("p3",))
    events = b.decide(state, "p3", Muster(fixed=1), seed=0)  # Ignixior adds 4 dice: at most 1 + 18 = 19
    assert sum(events[0].values) < 24 and events[-1] == PhaseBegan("escalation", ("p2", "p3", "p1"))
    assert b.rules.replay(events, state).current() == "p2"


def test_escalation_ties_go_to_the_highest_initiative(b):
    from domain.games.the_coil.flow import turn_order
    state = b.start()  # celestos 3, dedran 1, ignixior 5
    state = b.seat(b.seat(b.seat(state, "p1", reserves=(6,)), "p2", reserves=(6,)), "p3", reserves=(1,))
    assert turn_order(state) == ("p1", "p2", "p3")  # Celestos beats Dedran
    state = b.seat(state, "p3", reserves=(3, 3))
    assert turn_order(state) == ("p3", "p1", "p2")  # Ignixior's initiative 5 wins the tie at 6


def test_escalation_allows_up_to_the_northern_die_in_actions(b):
    state = b.escalation(replace(b.start(), round=2))
    assert state.actions_left == 2
    state = b.run(state, "p1", Recruit())
    assert state.current() == "p1" and state.actions_left == 1
    events = b.decide(state, "p1", Recruit())
    assert isinstance(events[0], Recruited) and events[1] == EscalationTurnEnded("p1")


def test_escalation_allows_fewer_actions_with_end_escalation(b):
    state = b.escalation(replace(b.start(), round=3))
    events = b.decide(state, "p1", EndEscalation())
    assert events == [EscalationTurnEnded("p1")]
    assert b.rules.replay(events, state).current() == "p2"


def test_shakoom_ability_takes_one_more_escalation_action_on_its_turn(b):
    state = b.start(("shakoom", "dedran", "ignixior"))
    from domain.games.the_coil.evolve import evolve
    state = evolve(state, PhaseBegan("escalation", state.seats))  # round 1: the northern die shows 1
    assert state.actions_left == 2
    state = b.run(state, "p1", Recruit())
    assert state.current() == "p1" and state.actions_left == 1
    events = b.decide(state, "p1", Scout("dedran"))
    assert events[-1] == EscalationTurnEnded("p1")
    state = b.rules.replay(events, state)
    assert state.current() == "p2" and state.actions_left == 1  # Dedran: just the northern die
    events = b.decide(state, "p2", Recruit())
    assert events[-1] == EscalationTurnEnded("p2")


def test_recruit_rolls_a_die_from_population_into_reserves(b):
    state = b.escalation(replace(b.start(), round=2))
    state = b.run(state, "p1", Recruit(), seed=5)
    assert len(state.reserve("p1")) == 1 and state.population("p1") == 6


def test_recruit_needs_a_die_in_the_population(b):
    state = b.seat(b.escalation(b.start()), "p1", reserves=(1,) * 7)
    with pytest.raises(IllegalCommand, match="population"):
        b.decide(state, "p1", Recruit())


def test_scout_draws_the_top_card_into_hand_and_flips_the_next_into_the_coil(b):
    state = b.escalation(replace(b.start(), round=2))
    events = b.decide(state, "p1", Scout("dedran"))
    assert events == [Scouted("p1", "dedran", "dedran-01", "dedran-02")]
    state = b.rules.replay(events, state)
    assert "dedran-01" in state.hand("p1") and state.region("dedran-02") is not None
    assert state.deck("dedran")[0] == "dedran-03"


def test_scout_may_draw_from_the_neutral_nations_deck_in_a_two_player_game(b):
    state = b.escalation(b.start(("celestos", "dedran"), neutral="vargree"))
    events = b.decide(state, "p1", Scout("vargree"))
    assert events[0].card == "vargree-01"


def test_scout_is_refused_on_a_deck_not_in_play_or_empty_with_its_discard(b):
    state = b.escalation(b.start())
    with pytest.raises(IllegalCommand, match="no homeland deck"):
        b.decide(state, "p1", Scout("shakoom"))
    empty = replace(state, decks=((),) + state.decks[1:])
    with pytest.raises(IllegalCommand, match="empty"):
        b.decide(empty, "p1", Scout("celestos"))


def test_scout_with_one_card_left_reshuffles_the_discard_for_the_flip(b):
    state = b.escalation(b.start())
    state = replace(state, decks=(("celestos-01",),) + state.decks[1:], discards=(("celestos-02",),) + state.discards[1:])
    events = b.decide(state, "p1", Scout("celestos"))
    assert events[0] == DeckShuffled("celestos", ("celestos-02",))
    assert events[1] == Scouted("p1", "celestos", "celestos-01", "celestos-02")


def test_strategize_puts_the_top_strategy_card_face_down_on_the_old_one(b):
    state = b.escalation(b.start())
    top = state.strategy_deck[0]
    events = b.decide(state, "p1", Strategize())
    assert events[0] == Strategized("p1", top)
    state = b.rules.replay(events, state)
    assert state.strategies[0] == ("bastion", top) and state.strategy("p1") == top


def test_strategize_is_refused_when_the_strategy_deck_is_empty(b):
    state = replace(b.escalation(b.start()), strategy_deck=())
    with pytest.raises(IllegalCommand, match="strategy deck is empty"):
        b.decide(state, "p1", Strategize())


def test_the_last_escalation_turn_begins_the_battle_phase(b):
    state = b.seat(b.escalation(b.start()), "p3", reserves=(6,))
    state = replace(state, turn=2)
    events = b.decide(state, "p3", EndEscalation())
    assert events[1] == PhaseBegan("battle", ("p3", "p1", "p2"))


def test_escalation_commands_are_refused_in_another_phase(b):
    state = replace(b.start(), phase="muster", pending=("p1", "p2", "p3"))
    with pytest.raises(IllegalCommand, match="Escalation"):
        b.decide(state, "p1", Recruit())
