"""Hot on the trail: reveals, traps (defused, suffered, spent), hides seen
from the trail, and Lind's extraordinary movement."""

import pytest

from domain.engine import IllegalCommand
from domain.games.coronation import RULES
from domain.games.coronation.messages import (
    DeclineExtraordinaryMovement,
    DetectiveMoved,
    LindMoved,
    LindMovedExtraordinarily,
    LindWon,
    MoveDetective,
    MoveLind,
    MoveLindExtraordinarily,
    RouteCardRevealed,
    TrapDefused,
    TrapSuffered,
    TurnEnded,
)
from tests.games.coronation.support import (
    D1,
    FANDORIN,
    LIND,
    LUBYANKA,
    MASA,
    RED_SQUARE,
    USPENSKY,
    decide,
    lind_at,
    only_detective_left,
    state_of,
    then,
)

SPASSKY, BOROVITSKY, ZARYADYE, TRETYAKOV = 64, 63, 65, 75


def _left(card, by="foot", to=LUBYANKA, **kw):
    """Lind appeared at Red Square and left it; Fandorin waits at Uspensky."""
    kw.setdefault("places", {FANDORIN: USPENSKY})
    return lind_at(RED_SQUARE, **kw) + [LindMoved(to, by, card, False)]


def test_entering_a_location_on_lind_s_route_reveals_its_card_and_the_card_on_it():
    events = _left("ticket", by="cab", to=33)
    assert decide(events, D1, MoveDetective(FANDORIN, RED_SQUARE, "foot")) == [
        DetectiveMoved(FANDORIN, RED_SQUARE, "foot"),
        RouteCardRevealed(0, RED_SQUARE, False, "ticket", True),
    ]


def test_a_location_left_on_foot_without_a_trap_shows_no_card():
    new = decide(_left(None), D1, MoveDetective(FANDORIN, RED_SQUARE, "foot"))
    assert new[-1] == RouteCardRevealed(0, RED_SQUARE, False, None, True)
    card = RULES.view(state_of(_left(None) + new), D1)["route"][0]
    assert (card["location"], card["card_revealed"], card["card"], card["card_left"]) == (RED_SQUARE, True, None, False)


def test_a_trap_is_defused_by_a_detective_holding_its_instrument():
    events = _left("locked-in", hands={FANDORIN: ("ticket", "lock-pick")})
    new = decide(events, D1, MoveDetective(FANDORIN, RED_SQUARE, "foot"))
    assert new[-1] == TrapDefused(FANDORIN, 0, "locked-in", "lock-pick")
    state = state_of(events + new)
    assert state.detective(FANDORIN).instruments == () and state.route[0].spent


def test_a_trap_without_its_instrument_is_suffered_and_the_detective_loses_his_next_action():
    events = _left("gas-in-the-cellar", hands={FANDORIN: ("ticket", "money")})
    new = decide(events, D1, MoveDetective(FANDORIN, RED_SQUARE, "foot"))
    assert new[-1] == TrapSuffered(FANDORIN, 0, "gas-in-the-cellar", "lose-next-action", False)
    events = only_detective_left(events + new, None) + [TurnEnded(1), LindMoved(35, "foot", None, False)]
    state = state_of(events)
    assert FANDORIN in state.acted
    with pytest.raises(IllegalCommand, match="Erast Fandorin has already acted"):
        decide(events, D1, MoveDetective(FANDORIN, LUBYANKA, "foot"))
    events = only_detective_left(events, None) + [TurnEnded(2), LindMoved(34, "foot", None, False)]
    assert decide(events, D1, MoveDetective(FANDORIN, USPENSKY, "foot"))[0].detective == FANDORIN


@pytest.mark.parametrize("trap", ["young-criminal", "locked-in"])
def test_a_ticket_trap_makes_the_detective_discard_a_cab_ticket(trap):
    events = _left(trap)
    events = then(events, (D1, MoveDetective(FANDORIN, RED_SQUARE, "foot")))
    assert events[-1].effect == "discard-ticket"
    assert state_of(events).detective(FANDORIN).tickets == 1


def test_a_trap_acts_only_once():
    events = _left("gas-in-the-cellar", places={FANDORIN: USPENSKY, MASA: ZARYADYE})
    events = then(events, (D1, MoveDetective(FANDORIN, RED_SQUARE, "foot")))
    assert decide(events, D1, MoveDetective(MASA, RED_SQUARE, "foot")) == [DetectiveMoved(MASA, RED_SQUARE, "foot")]


def test_entering_a_decoy_location_does_nothing():
    events = lind_at(RED_SQUARE, places={FANDORIN: 91}) + [LindMoved(90, "hide", "turn-skip", False)]
    assert decide(events, D1, MoveDetective(FANDORIN, 90, "foot")) == [DetectiveMoved(FANDORIN, 90, "foot")]


def test_entering_where_lind_hid_reveals_the_decoy_and_the_card_he_left_when_he_moved_on():
    events = lind_at(RED_SQUARE, places={FANDORIN: USPENSKY}) + [LindMoved(90, "hide", "turn-skip", False)]
    events = only_detective_left(events, None) + [TurnEnded(1), LindMoved(LUBYANKA, "foot", "gas-in-the-cellar", False)]
    assert decide(events, D1, MoveDetective(FANDORIN, RED_SQUARE, "foot")) == [
        DetectiveMoved(FANDORIN, RED_SQUARE, "foot"),
        RouteCardRevealed(0, RED_SQUARE, False, "turn-skip", True),
        RouteCardRevealed(1, None, True, "gas-in-the-cellar", True),
        TrapSuffered(FANDORIN, 1, "gas-in-the-cellar", "lose-next-action", False),
    ]


def _snared(trap, **kw):
    """Lind left Spassky Gate on foot for Zaryadye, setting ``trap``; Fandorin
    at Borovitsky Gate walks into it."""
    kw.setdefault("places", {FANDORIN: BOROVITSKY})
    events = lind_at(SPASSKY, **kw) + [LindMoved(ZARYADYE, "foot", trap, False)]
    return then(events, (D1, MoveDetective(FANDORIN, SPASSKY, "foot")))


@pytest.mark.parametrize("trap", ["suspicious-snack", "young-criminal", "hey-with-the-wind"])
def test_the_three_extraordinary_traps_let_lind_move_at_once_on_foot(trap):
    events = _snared(trap)
    assert events[-1].extraordinary
    state = state_of(events)
    assert RULES.to_act(state) == {LIND}
    assert set(RULES.legal_commands(state, LIND)) == {
        MoveLindExtraordinarily(RED_SQUARE),
        MoveLindExtraordinarily(TRETYAKOV),
        DeclineExtraordinaryMovement(),
    }
    events = then(events, (LIND, MoveLindExtraordinarily(TRETYAKOV)))
    assert events[-1] == LindMovedExtraordinarily(TRETYAKOV, False)
    state = state_of(events)
    assert state.lind_at == TRETYAKOV and RULES.to_act(state) == {D1}


def test_the_other_traps_allow_no_extraordinary_movement():
    events = _snared("gas-in-the-cellar")
    assert RULES.to_act(state_of(events)) == {D1}
    with pytest.raises(IllegalCommand, match="not your turn"):
        decide(events, LIND, MoveLindExtraordinarily(TRETYAKOV))


def test_lind_may_decline_the_extraordinary_movement():
    events = then(_snared("suspicious-snack"), (LIND, DeclineExtraordinaryMovement()))
    assert events[-1] == LindMovedExtraordinarily(None, False)
    assert state_of(events).lind_at == ZARYADYE


def test_the_extraordinary_movement_replaces_the_last_route_card():
    events = then(_snared("suspicious-snack"), (LIND, MoveLindExtraordinarily(TRETYAKOV)))
    assert [c.location for c in state_of(events).route] == [SPASSKY, TRETYAKOV]


def test_the_extraordinary_movement_obeys_no_revisit_and_never_onto_a_detective():
    events = _snared("suspicious-snack", places={FANDORIN: BOROVITSKY, MASA: RED_SQUARE})
    with pytest.raises(IllegalCommand, match="already lies on the table"):
        decide(events, LIND, MoveLindExtraordinarily(SPASSKY))
    with pytest.raises(IllegalCommand, match="a detective stands there"):
        decide(events, LIND, MoveLindExtraordinarily(RED_SQUARE))
    with pytest.raises(IllegalCommand, match="foot"):
        decide(events, LIND, MoveLindExtraordinarily(USPENSKY))


def test_the_extraordinary_movement_steals_the_jewel_of_the_location_left():
    events = lind_at(53, places={FANDORIN: 43}) + [LindMoved(USPENSKY, "foot", "hey-with-the-wind", True)]
    events = then(events, (D1, MoveDetective(FANDORIN, 53, "foot")), (LIND, MoveLindExtraordinarily(SPASSKY)))
    assert events[-1] == LindMovedExtraordinarily(SPASSKY, True)
    assert state_of(events).jewels_left == 4


def test_an_abandoned_location_may_be_entered_later_without_effect():
    events = _snared("suspicious-snack", places={FANDORIN: BOROVITSKY, MASA: RED_SQUARE})
    events = then(events, (LIND, MoveLindExtraordinarily(TRETYAKOV)))
    assert decide(events, D1, MoveDetective(MASA, ZARYADYE, "foot")) == [DetectiveMoved(MASA, ZARYADYE, "foot")]


def test_the_extraordinary_movement_after_a_hide_replaces_the_decoy():
    events = lind_at(SPASSKY, places={FANDORIN: BOROVITSKY}) + [LindMoved(ZARYADYE, "foot", "young-criminal", False)]
    events = only_detective_left(events, None) + [TurnEnded(1), LindMoved(90, "hide", "turn-skip", False)]
    events = then(events, (D1, MoveDetective(FANDORIN, SPASSKY, "foot")), (LIND, MoveLindExtraordinarily(TRETYAKOV)))
    state = state_of(events)
    assert [(c.location, c.hide, c.card) for c in state.route] == [
        (SPASSKY, False, "young-criminal"),
        (ZARYADYE, False, "turn-skip"),
        (TRETYAKOV, False, None),
    ]
    assert state.lind_at == TRETYAKOV


def test_a_turn_in_which_every_detective_lost_his_action_ends_when_lind_has_moved():
    events = lind_at(RED_SQUARE) + [LindMoved(LUBYANKA, "foot", None, False)]
    events += [TrapSuffered(d.id, 0, "gas-in-the-cellar", "lose-next-action", False) for d in state_of(events).detectives]
    events = only_detective_left(events, None) + [TurnEnded(1)]
    new = decide(events, LIND, MoveLind(35, "foot"))
    assert new == [LindMoved(35, "foot", None, False), TurnEnded(2)]
    assert RULES.to_act(state_of(events + new)) == {LIND}


def test_lind_wins_at_once_when_his_extraordinary_movement_takes_the_last_jewel():
    events = lind_at(2, places={FANDORIN: 43}) + [
        LindMoved(29, "cab", "ticket", True), TurnEnded(1),
        LindMoved(60, "cab", "ticket", True), TurnEnded(2),
        LindMoved(88, "cab", "ticket", True), TurnEnded(3),
        LindMoved(53, "cab", "ticket", True), TurnEnded(4),
        LindMoved(USPENSKY, "foot", "suspicious-snack", True),
    ]
    assert state_of(events).jewels_left == 1
    events = then(events, (D1, MoveDetective(FANDORIN, 53, "foot")))
    new = decide(events, LIND, MoveLindExtraordinarily(SPASSKY))
    assert new == [LindMovedExtraordinarily(SPASSKY, True), LindWon("jewels")]


def test_only_the_detective_who_enters_uses_his_own_instrument_against_a_trap():
    kit = {MASA: ("ticket", "respirator"), FANDORIN: ("ticket", "money")}
    events = _left("gas-in-the-cellar", hands=kit, places={FANDORIN: USPENSKY, MASA: 1})
    new = decide(events, D1, MoveDetective(FANDORIN, RED_SQUARE, "foot"))
    assert new[-1] == TrapSuffered(FANDORIN, 0, "gas-in-the-cellar", "lose-next-action", False)
    assert state_of(events + new).detective(MASA).instruments == ("respirator",)


def test_defusing_discards_the_instrument_and_the_detective_acts_on_next_turn():
    events = _left("suspicious-snack", hands={FANDORIN: ("first-aid-kit", "first-aid-kit")})
    events = then(events, (D1, MoveDetective(FANDORIN, RED_SQUARE, "foot")))
    assert events[-1] == TrapDefused(FANDORIN, 0, "suspicious-snack", "first-aid-kit")
    state = state_of(events)
    assert state.detective(FANDORIN).instruments == ("first-aid-kit",)
    assert not state.detective(FANDORIN).stunned and RULES.to_act(state) == {D1}  # no extraordinary movement


def test_the_extraordinary_movement_sets_no_trap_and_leaves_no_card():
    events = _snared("suspicious-snack")
    before = state_of(events)
    events = then(events, (LIND, MoveLindExtraordinarily(TRETYAKOV)))
    after = state_of(events)
    assert after.hand == before.hand and after.route[-1].card is None
    assert [c.card for c in after.route] == ["suspicious-snack", None]


def test_with_no_foot_move_open_lind_can_only_decline_the_extraordinary_movement():
    events = _snared("hey-with-the-wind", places={FANDORIN: BOROVITSKY, MASA: RED_SQUARE, "zyukin": TRETYAKOV})
    state = state_of(events)
    assert RULES.legal_commands(state, LIND) == [DeclineExtraordinaryMovement()]
    with pytest.raises(IllegalCommand, match="a detective stands there"):
        decide(events, LIND, MoveLindExtraordinarily(TRETYAKOV))


def test_a_ticket_trap_costs_a_detective_without_tickets_nothing_more():
    events = then(_left("locked-in", hands={FANDORIN: ("money",)}), (D1, MoveDetective(FANDORIN, RED_SQUARE, "foot")))
    assert events[-1] == TrapSuffered(FANDORIN, 0, "locked-in", "discard-ticket", False)
    detective = state_of(events).detective(FANDORIN)
    assert (detective.tickets, detective.instruments, detective.stunned) == (0, ("money",), False)


def test_a_jewel_is_taken_once_even_if_lind_comes_back_to_its_abandoned_location():
    events = lind_at(53, places={FANDORIN: 43}) + [LindMoved(USPENSKY, "foot", "hey-with-the-wind", True)]
    events = then(events, (D1, MoveDetective(FANDORIN, 53, "foot")), (LIND, MoveLindExtraordinarily(SPASSKY)))
    events = only_detective_left(events, None) + [TurnEnded(1)]
    events = then(events, (LIND, MoveLind(USPENSKY, "foot")))
    assert events[-1] == LindMoved(USPENSKY, "foot", None, False)  # leaving Spassky Gate takes nothing
    events = only_detective_left(events, None) + [TurnEnded(2)]
    assert state_of(events).jewels_left == 4
    assert decide(events, LIND, MoveLind(RED_SQUARE, "foot")) == [LindMoved(RED_SQUARE, "foot", None, False)]
