"""Lind's rules: moves and what they cost, no revisits, never onto a
detective, no standing still but by hiding, traps, jewels, his victories and
his being cornered."""

import pytest

from domain.engine import IllegalCommand
from domain.games.coronation import RULES
from domain.games.coronation.messages import (
    LindCaught,
    LindMoved,
    LindWon,
    HideLind,
    MoveDetective,
    MoveLind,
    TurnEnded,
    DetectiveMoved,
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
    route,
    state_of,
    then,
)


def test_lind_moves_on_foot_along_a_red_line():
    events = lind_at(RED_SQUARE)
    assert decide(events, LIND, MoveLind(LUBYANKA, "foot")) == [LindMoved(LUBYANKA, "foot", None, False)]
    state = state_of(then(events, (LIND, MoveLind(LUBYANKA, "foot"))))
    assert state.lind_at == LUBYANKA and [c.location for c in state.route] == [RED_SQUARE, LUBYANKA]
    assert state.cards_left == 24


def test_lind_may_not_move_on_foot_where_no_red_line_runs():
    with pytest.raises(IllegalCommand, match="no foot"):
        decide(lind_at(RED_SQUARE), LIND, MoveLind(33, "foot"))


def test_lind_moves_by_cab_along_a_green_line_and_leaves_a_ticket():
    events = then(lind_at(RED_SQUARE), (LIND, MoveLind(33, "cab")))
    assert events[-1] == LindMoved(33, "cab", "ticket", False)
    state = state_of(events)
    assert state.count("ticket") == 5 and state.route[0].card == "ticket"
    with pytest.raises(IllegalCommand, match="no cab"):
        decide(lind_at(RED_SQUARE), LIND, MoveLind(LUBYANKA, "cab"))


def test_lind_needs_a_ticket_for_a_cab():
    events = route(81, *((to, "cab", "ticket") for to in (82, 84, 85, 86, 87)), (RED_SQUARE, "cab", "ticket"))
    with pytest.raises(IllegalCommand, match="no ticket card left"):
        decide(events, LIND, MoveLind(33, "cab"))


def test_lind_moves_through_the_underground_between_two_entrances_and_drops_the_note():
    events = then(lind_at(RED_SQUARE), (LIND, MoveLind(11, "underground")))
    assert events[-1] == LindMoved(11, "underground", "note", False)
    assert state_of(events).count("note") == 0


def test_the_underground_passage_needs_an_entrance_at_both_ends():
    with pytest.raises(IllegalCommand, match="underground entrance"):
        decide(lind_at(USPENSKY), LIND, MoveLind(11, "underground"))
    with pytest.raises(IllegalCommand, match="underground entrance"):
        decide(lind_at(RED_SQUARE), LIND, MoveLind(1, "underground"))


def test_lind_has_one_note_for_the_underground():
    events = route(RED_SQUARE, (11, "underground", "note"))
    with pytest.raises(IllegalCommand, match="no note card left"):
        decide(events, LIND, MoveLind(41, "underground"))


def test_lind_may_not_visit_a_location_twice():
    events = route(RED_SQUARE, (LUBYANKA, "foot", None))
    with pytest.raises(IllegalCommand, match="already lies on the table"):
        decide(events, LIND, MoveLind(RED_SQUARE, "foot"))


def test_lind_may_not_move_onto_a_detective():
    with pytest.raises(IllegalCommand, match="a detective stands there"):
        decide(lind_at(RED_SQUARE, places={MASA: LUBYANKA}), LIND, MoveLind(LUBYANKA, "foot"))


def test_lind_may_not_stay_in_place():
    with pytest.raises(IllegalCommand, match="may not stay in place"):
        decide(lind_at(RED_SQUARE), LIND, MoveLind(RED_SQUARE, "foot"))


def test_lind_hides_with_a_turn_skip_card_on_a_decoy_location_card():
    events = then(lind_at(RED_SQUARE), (LIND, HideLind(90)))
    assert events[-1] == LindMoved(90, "hide", "turn-skip", False)
    state = state_of(events)
    assert state.lind_at == RED_SQUARE and state.count("turn-skip") == 1
    assert [(c.location, c.hide, c.card) for c in state.route] == [(RED_SQUARE, False, "turn-skip"), (90, True, None)]


def test_lind_hides_only_twice():
    events = route(RED_SQUARE, (90, "hide", "turn-skip"), (91, "hide", "turn-skip"))
    with pytest.raises(IllegalCommand, match="no turn-skip card left"):
        decide(events, LIND, HideLind(89))


def test_the_decoy_is_a_location_card_not_on_the_table():
    with pytest.raises(IllegalCommand, match="not on the table"):
        decide(route(RED_SQUARE, (LUBYANKA, "foot", None)), LIND, HideLind(RED_SQUARE))


def test_lind_may_never_visit_a_decoy_location():
    events = route(RED_SQUARE, (USPENSKY, "hide", "turn-skip"))
    with pytest.raises(IllegalCommand, match="already lies on the table"):
        decide(events, LIND, MoveLind(USPENSKY, "foot"))


def test_traps_are_set_only_when_leaving_on_foot():
    events = lind_at(RED_SQUARE)
    for to, by in ((33, "cab"), (11, "underground")):
        with pytest.raises(IllegalCommand, match="only when Lind leaves on foot"):
            decide(events, LIND, MoveLind(to, by, "locked-in"))


def test_lind_sets_a_trap_on_the_location_he_leaves_on_foot():
    events = then(lind_at(RED_SQUARE), (LIND, MoveLind(LUBYANKA, "foot", "locked-in")))
    state = state_of(events)
    assert state.route[0].card == "locked-in" and state.count("locked-in") == 2


def test_lind_sets_only_traps_he_still_holds():
    events = route(70, (71, "foot", "locked-in"), (72, "foot", "locked-in"), (RED_SQUARE, "foot", "locked-in"))
    with pytest.raises(IllegalCommand, match="no locked-in card left"):
        decide(events, LIND, MoveLind(LUBYANKA, "foot", "locked-in"))
    with pytest.raises(IllegalCommand, match="there is no trap"):
        decide(events, LIND, MoveLind(LUBYANKA, "foot", "bear-trap"))


def test_leaving_a_jewel_location_steals_its_jewel():
    events = then(lind_at(USPENSKY), (LIND, MoveLind(RED_SQUARE, "foot")))
    assert events[-1] == LindMoved(RED_SQUARE, "foot", None, True)
    assert state_of(events).jewels_left == 5


def test_hiding_at_a_jewel_location_steals_nothing():
    events = then(lind_at(USPENSKY), (LIND, HideLind(90)))
    assert events[-1].stole is False and state_of(events).jewels_left == 6


def test_lind_wins_when_he_has_left_every_jewel_location():
    events = route(2, (29, "cab", "ticket"), (53, "cab", "ticket"), (60, "cab", "ticket"), (88, "cab", "ticket"),
                   (USPENSKY, "cab", "ticket"))
    assert state_of(events).jewels_left == 1
    new = decide(events, LIND, MoveLind(RED_SQUARE, "foot"))
    assert new == [LindMoved(RED_SQUARE, "foot", None, True), LindWon("jewels")]
    assert RULES.outcome(state_of(events + new)) == "Doctor Lind wins: he stole every coronation jewel"


def test_lind_wins_when_the_last_turn_ends():
    events = then(lind_at(RED_SQUARE, last_turn=1), (LIND, MoveLind(LUBYANKA, "foot")))
    events = only_detective_left(events, FANDORIN)
    new = decide(events, D1, MoveDetective(FANDORIN, 2, "foot"))
    assert new == [DetectiveMoved(FANDORIN, 2, "foot"), LindWon("time")]
    state = state_of(events + new)
    assert RULES.outcome(state) == "Doctor Lind wins: turn 1 ended and he was never caught"
    assert [s.rank for s in RULES.score(state)] == [1, 2]


def test_lind_with_no_legal_action_on_his_turn_is_caught():
    events = route(92, (80, "hide", "turn-skip"), places={FANDORIN: 74, MASA: 91})
    events = only_detective_left(then(events, (LIND, HideLind(81))), FANDORIN)
    new = decide(events, D1, MoveDetective(FANDORIN, 83, "foot"))
    assert new == [DetectiveMoved(FANDORIN, 83, "foot"), TurnEnded(2), LindCaught(None, 92)]
    assert RULES.outcome(state_of(events + new)).startswith("The detectives win: Doctor Lind had no legal action")


def test_only_lind_moves_lind_and_lind_moves_no_detective():
    events = lind_at(RED_SQUARE)
    with pytest.raises(IllegalCommand, match="not your turn"):
        decide(events, D1, MoveLind(LUBYANKA, "foot"))
    with pytest.raises(IllegalCommand, match="moves no detective"):
        decide(events, LIND, MoveDetective(FANDORIN, 2, "foot"))


def _walk_to_turn(last_turn_option: dict, turns: int):
    """Lind walked ``turns`` times (to distinct locations 30, 31, ...); the
    detectives have acted in the last of those turns but for Fandorin."""
    steps = [(30 + n, "foot", None) for n in range(1, turns)]
    events = route(30, *steps, **last_turn_option) + [LindMoved(30 + turns, "foot", None, False)]
    return only_detective_left(events, FANDORIN)


def test_lind_wins_when_turn_21_the_default_last_turn_ends():
    events = _walk_to_turn({}, 21)
    state = state_of(events)
    assert (state.turn, state.last_turn) == (21, 21)
    new = decide(events, D1, MoveDetective(FANDORIN, 2, "foot"))
    assert new == [DetectiveMoved(FANDORIN, 2, "foot"), LindWon("time")]
    assert RULES.outcome(state_of(events + new)) == "Doctor Lind wins: turn 21 ended and he was never caught"


def test_the_game_goes_on_after_turn_20():
    events = _walk_to_turn({}, 20)
    new = decide(events, D1, MoveDetective(FANDORIN, 2, "foot"))
    assert new == [DetectiveMoved(FANDORIN, 2, "foot"), TurnEnded(20)]
    assert RULES.outcome(state_of(events + new)) is None


def test_the_last_turn_is_an_option():
    events = _walk_to_turn({"last_turn": 22}, 21)
    assert decide(events, D1, MoveDetective(FANDORIN, 2, "foot"))[-1] == TurnEnded(21)
