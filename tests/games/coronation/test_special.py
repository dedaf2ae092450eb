"""Special locations: instead of moving, discard the location's instrument and
open the route card where Lind was four places before his last one."""

import pytest

from domain.engine import IllegalCommand
from domain.games.coronation import RULES
from domain.games.coronation.messages import (
    DetectiveMoved,
    GatherInformation,
    InformationGathered,
    LindMoved,
    MoveDetective,
    RouteCardRevealed,
    TurnEnded,
)
from tests.games.coronation.support import D1, FANDORIN, FOUNDLING_HOME, NIKOLSKAYA, decide, route, state_of

KIT = ("ticket", "first-aid-kit")


def _informant(steps, hands=None, places=None, enters=True):
    """Lind walked ``steps``; Fandorin entered the Foundling Home (first-aid
    kit) during the last turn, and Lind has just moved again."""
    *walked, (last_to, last_by, last_card) = steps
    events = route(*walked, places=places or {FANDORIN: NIKOLSKAYA}, hands=hands or {FANDORIN: KIT})
    turn = state_of(events).turn
    events += [LindMoved(80, "foot", None, False)]
    if enters:
        events += [DetectiveMoved(FANDORIN, FOUNDLING_HOME, "foot")]
    events += [TurnEnded(turn), LindMoved(last_to, last_by, last_card, False)]
    return events


WALK = (81, (82, "foot", "locked-in"), (83, "cab", "ticket"), (84, "foot", None), (86, "foot", None))


def test_a_detective_who_entered_a_special_location_may_gather_information_instead_of_moving():
    events = _informant(WALK)
    state = state_of(events)
    assert GatherInformation(FANDORIN) in RULES.legal_commands(state, D1)
    assert decide(events, D1, GatherInformation(FANDORIN)) == [
        InformationGathered(FANDORIN, "first-aid-kit"),
        RouteCardRevealed(1, 82, False, None, False),
    ]


def test_gathering_information_reveals_where_lind_was_four_route_cards_earlier_but_not_the_card_on_it():
    events = _informant(WALK)
    events += decide(events, D1, GatherInformation(FANDORIN))
    state = state_of(events)
    assert [c.location for c in state.route] == [81, 82, 83, 84, 80, 86]
    card = RULES.view(state, D1)["route"][1]
    assert (card["revealed"], card["location"], card["card_revealed"], card["card"]) == (True, 82, False, None)
    detective = state.detective(FANDORIN)
    assert detective.location == FOUNDLING_HOME and detective.instruments == ()


def test_gathering_information_needs_the_instrument_of_the_location():
    events = _informant(WALK, hands={FANDORIN: ("ticket", "money")})
    with pytest.raises(IllegalCommand, match="holds no First-aid kit"):
        decide(events, D1, GatherInformation(FANDORIN))


def test_gathering_information_is_only_for_the_action_right_after_entering():
    events = _informant(WALK, places={FANDORIN: FOUNDLING_HOME}, enters=False)
    with pytest.raises(IllegalCommand, match="did not enter a special location"):
        decide(events, D1, GatherInformation(FANDORIN))


def test_gathering_information_needs_a_closed_route_card_four_places_before_the_last():
    events = _informant(WALK[:2] + WALK[4:])
    with pytest.raises(IllegalCommand, match="no closed route card 4 places before"):
        decide(events, D1, GatherInformation(FANDORIN))


def test_gathering_information_about_a_hide_says_only_that_it_was_a_hide():
    walk = (81, (90, "hide", "turn-skip")) + WALK[2:]
    assert decide(_informant(walk), D1, GatherInformation(FANDORIN))[-1] == RouteCardRevealed(1, None, True, None, False)


def test_the_card_on_a_location_revealed_by_information_is_found_by_entering_it():
    events = _informant(WALK, places={FANDORIN: NIKOLSKAYA, "masa": 91})
    events += decide(events, D1, GatherInformation(FANDORIN))
    new = decide(events, D1, MoveDetective("masa", 82, "foot"))
    assert new[1] == RouteCardRevealed(1, 82, False, "ticket", True)
