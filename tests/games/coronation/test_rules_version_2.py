"""Rules version 2 of Coronation: a location where Lind dropped a decoy stays
closed to him for the rest of the game, even after an extraordinary movement
took that card off the table. Games created under version 1 keep the old way."""

import random

import pytest

from domain.engine import IllegalCommand
from domain.games import VERSIONS
from domain.games.coronation.messages import (
    HideLind,
    LindMoved,
    MoveDetective,
    MoveLind,
    MoveLindExtraordinarily,
    TurnEnded,
)
from tests.games.coronation.support import D1, FANDORIN, LIND, lind_at, only_detective_left

SPASSKY, BOROVITSKY, ZARYADYE, TRETYAKOV = 64, 63, 65, 75
DECOY = 74  # one foot line from Tretyakov
V1, V2 = VERSIONS["coronation"][1], VERSIONS["coronation"][2]


def _decoys_stay_closed(rules) -> bool:
    """The behaviour switch a rules version sets on the game's first state."""
    return rules.switches(rules.version)["decoys_stay_closed"]


def _play(rules, events, *moves):
    events = list(events)
    for seat, command in moves:
        events += rules.decide(rules.replay(events), seat, command, random.Random(0))
    return events


def _decoy_taken_off_the_table(rules):
    """Lind hid with a decoy on Sukharev (74); a detective suffered his young
    criminal and Lind's extraordinary movement replaced the decoy card with
    Tretyakov, next to it; the detectives' turn ended. Lind is to move."""
    events = lind_at(SPASSKY, places={FANDORIN: BOROVITSKY}) + [LindMoved(ZARYADYE, "foot", "young-criminal", False)]
    events = only_detective_left(events, None) + [TurnEnded(1)]
    events = _play(rules, events, (LIND, HideLind(DECOY)), (D1, MoveDetective(FANDORIN, SPASSKY, "foot")),
                   (LIND, MoveLindExtraordinarily(TRETYAKOV)))
    state = rules.replay(events)
    assert DECOY not in state.on_table and state.lind_at == TRETYAKOV
    events = only_detective_left(events, None)
    state = rules.replay(events)
    return events if rules.to_act(state) == {LIND} else events + [TurnEnded(state.turn)]


def test_version_2_is_the_newest_rules_of_coronation_and_names_its_change():
    assert max(VERSIONS["coronation"]) == 2
    assert "decoy" in V2.versions[2] and _decoys_stay_closed(V2) and not _decoys_stay_closed(V1)


def test_under_version_2_a_decoy_location_stays_closed_to_lind_after_an_extraordinary_movement():
    events = _decoy_taken_off_the_table(V2)
    state = V2.replay(events)
    assert V2.to_act(state) == {LIND}
    assert MoveLind(DECOY, "foot") not in V2.legal_commands(state, LIND)
    with pytest.raises(IllegalCommand, match="dropped a decoy there, and it stays closed to him"):
        V2.decide(state, LIND, MoveLind(DECOY, "foot"), random.Random(0))


def test_under_version_1_lind_may_enter_a_decoy_location_again_once_its_card_left_the_table():
    events = _decoy_taken_off_the_table(V1)
    state = V1.replay(events)
    assert MoveLind(DECOY, "foot") in V1.legal_commands(state, LIND)
    assert V1.decide(state, LIND, MoveLind(DECOY, "foot"), random.Random(0))[0] == LindMoved(DECOY, "foot", None, False)


def test_the_same_events_replay_to_each_version_s_own_rules():
    events = _decoy_taken_off_the_table(V1)
    assert V1.replay(events).decoys == V2.replay(events).decoys == (DECOY,)
    assert not V1.replay(events).decoys_stay_closed and V2.replay(events).decoys_stay_closed
