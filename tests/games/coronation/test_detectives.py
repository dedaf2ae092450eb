"""The detectives' actions: one per detective per turn in any order, on foot
or by cab, never underground; catching Lind; the end of a turn."""

import pytest

from domain.engine import IllegalCommand
from domain.games.coronation import RULES
from domain.games.coronation.messages import (
    DetectiveMoved,
    LindCaught,
    LindMoved,
    MoveDetective,
    TurnEnded,
)
from domain.games.coronation.data import BOARD
from tests.games.coronation.support import (
    D1,
    ENDLUNG,
    FANDORIN,
    KARNOVICH,
    LIND,
    LUBYANKA,
    MASA,
    RED_SQUARE,
    USPENSKY,
    ZYUKIN,
    decide,
    lind_at,
    only_detective_left,
    state_of,
    then,
)


def _detectives_turn(**kw):
    """Lind appeared at Uspensky Cathedral and walked to Red Square."""
    return lind_at(USPENSKY, **kw) + [LindMoved(RED_SQUARE, "foot", None, True)]


def test_each_detective_acts_once_per_turn_in_any_order():
    events = _detectives_turn()
    assert RULES.to_act(state_of(events)) == {D1}
    events = then(events, (D1, MoveDetective(KARNOVICH, 21, "foot")), (D1, MoveDetective(FANDORIN, 2, "foot")))
    with pytest.raises(IllegalCommand, match="Colonel Karnovich has already acted this turn"):
        decide(events, D1, MoveDetective(KARNOVICH, 20, "foot"))


def test_a_detective_moves_on_foot_along_a_red_line():
    events = _detectives_turn()
    assert decide(events, D1, MoveDetective(FANDORIN, 2, "foot")) == [DetectiveMoved(FANDORIN, 2, "foot")]
    with pytest.raises(IllegalCommand, match="no foot"):
        decide(events, D1, MoveDetective(FANDORIN, 20, "foot"))


def test_a_detective_moves_by_cab_along_a_green_line_spending_a_ticket():
    events = then(_detectives_turn(places={FANDORIN: LUBYANKA}), (D1, MoveDetective(FANDORIN, 33, "cab")))
    assert events[-1] == DetectiveMoved(FANDORIN, 33, "cab")
    assert state_of(events).detective(FANDORIN).tickets == 1
    with pytest.raises(IllegalCommand, match="no cab"):
        decide(_detectives_turn(), D1, MoveDetective(FANDORIN, 2, "cab"))


def test_a_detective_without_a_ticket_takes_no_cab():
    events = _detectives_turn(places={FANDORIN: LUBYANKA}, hands={FANDORIN: ("money",)})
    with pytest.raises(IllegalCommand, match="Erast Fandorin has no cab ticket left"):
        decide(events, D1, MoveDetective(FANDORIN, 33, "cab"))


def test_detectives_never_use_the_underground():
    events = _detectives_turn(places={FANDORIN: LUBYANKA})
    with pytest.raises(IllegalCommand, match="never underground"):
        decide(events, D1, MoveDetective(FANDORIN, 11, "underground"))


def test_detectives_may_share_a_location_and_visit_it_again():
    events = then(
        _detectives_turn(places={FANDORIN: 1, MASA: 1}),
        (D1, MoveDetective(FANDORIN, 2, "foot")),
        (D1, MoveDetective(MASA, 2, "foot")),
    )
    events = only_detective_left(events, None) + [TurnEnded(1), LindMoved(LUBYANKA, "foot", None, False)]
    events = then(events, (D1, MoveDetective(FANDORIN, 1, "foot")))
    assert {d.location for d in state_of(events).detectives if d.id in (FANDORIN, MASA)} == {1, 2}


def test_a_detective_has_no_turn_to_skip():
    state = state_of(_detectives_turn())
    commands = RULES.legal_commands(state, D1)
    assert all(isinstance(c, MoveDetective) for c in commands)
    here = state.detective(FANDORIN).location
    with pytest.raises(IllegalCommand):
        decide(_detectives_turn(), D1, MoveDetective(FANDORIN, here, "foot"))


def test_a_seat_directs_only_its_own_detectives_in_play():
    control = ((FANDORIN, D1), (MASA, D1), (ZYUKIN, D1), (ENDLUNG, "detective-2"), (KARNOVICH, "detective-2"))
    events = _detectives_turn(seats=(LIND, D1, "detective-2"), control=control)
    assert RULES.to_act(state_of(events)) == {D1, "detective-2"}
    with pytest.raises(IllegalCommand, match="Lieutenant Endlung is not yours to direct"):
        decide(events, D1, MoveDetective(ENDLUNG, 18, "foot"))
    events = then(events, ("detective-2", MoveDetective(ENDLUNG, 18, "foot")),
                  ("detective-2", MoveDetective(KARNOVICH, 21, "foot")))
    assert RULES.to_act(state_of(events)) == {D1}


def test_a_detective_entering_lind_location_catches_him():
    events = _detectives_turn(places={FANDORIN: LUBYANKA})
    new = decide(events, D1, MoveDetective(FANDORIN, RED_SQUARE, "foot"))
    assert new == [DetectiveMoved(FANDORIN, RED_SQUARE, "foot"), LindCaught(FANDORIN, RED_SQUARE)]
    state = state_of(events + new)
    assert RULES.outcome(state) == "The detectives win: Erast Fandorin caught Doctor Lind at Red Square"
    assert RULES.to_act(state) == frozenset()
    assert [(s.seat, s.rank) for s in RULES.score(state)] == [(LIND, 2), (D1, 1)]


def test_the_turn_ends_when_all_five_detectives_have_acted():
    events = only_detective_left(_detectives_turn(), FANDORIN)
    new = decide(events, D1, MoveDetective(FANDORIN, 2, "foot"))
    assert new == [DetectiveMoved(FANDORIN, 2, "foot"), TurnEnded(1)]
    state = state_of(events + new)
    assert (state.turn, state.phase, RULES.to_act(state)) == (2, "lind", {LIND})


def test_lind_moves_first_in_every_turn():
    state = state_of(only_detective_left(_detectives_turn(), None) + [TurnEnded(1)])
    assert RULES.to_act(state) == {LIND}
    with pytest.raises(IllegalCommand, match="not your turn"):
        RULES.decide(state, D1, MoveDetective(FANDORIN, 2, "foot"), None)
    assert BOARD.foot[RED_SQUARE]
