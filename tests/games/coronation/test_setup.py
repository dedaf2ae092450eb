"""Seats, characters, equipment, starting locations and Lind's appearance."""

import random
from collections import Counter

import pytest

from domain.engine import IllegalCommand, resolve_options
from domain.games.coronation import RULES
from domain.games.coronation import messages as m
from domain.games.coronation.data import BOARD
from tests.games.coronation.support import D1, FANDORIN, LIND, MASA, RED_SQUARE, decide, started, state_of, then


def _setup(**options):
    resolved = resolve_options(RULES.options, options)
    seats = RULES.seats(resolved)
    return seats, RULES.setup(seats, resolved, random.Random(5))


def test_seats_are_lind_and_one_to_five_detective_seats():
    assert RULES.seats(resolve_options(RULES.options, {})) == ("lind", "detective-1")
    five = RULES.seats(resolve_options(RULES.options, {"detective_seats": 5}))
    assert five == ("lind", *(f"detective-{n}" for n in range(1, 6)))
    with pytest.raises(IllegalCommand):
        resolve_options(RULES.options, {"detective_seats": 6})
    assert (RULES.min_seats, RULES.max_seats) == (2, 6)


@pytest.mark.parametrize("players,shares", [(1, [5]), (2, [3, 2]), (3, [2, 2, 1]), (4, [2, 1, 1, 1]), (5, [1] * 5)])
def test_the_detectives_are_shared_out_as_in_the_rulebooks_table(players, shares):
    seats, events = _setup(detective_seats=players)
    state = state_of(events)
    counts = Counter(d.seat for d in state.detectives)
    assert [counts[seat] for seat in seats[1:]] == shares
    assert sorted(d.id for d in state.detectives) == sorted(BOARD.detectives)


def test_recommended_equipment_gives_each_detective_two_tickets_and_three_instruments():
    _, events = _setup(equipment="recommended")
    state = state_of(events)
    assert all(d.tickets == 2 and len(d.instruments) == 3 for d in state.detectives)
    assert Counter(t for d in state.detectives for t in d.instruments) == {t: 3 for t in BOARD.instruments}


def test_random_equipment_deals_the_whole_deck_five_cards_each():
    _, events = _setup(equipment="random")
    state = state_of(events)
    assert all(d.tickets + len(d.instruments) == 5 for d in state.detectives)
    assert sum(d.tickets for d in state.detectives) == 10
    assert all(n == 0 for _, n in state.deck)


def test_chosen_equipment_is_submitted_by_the_detective_seats_and_checked_against_the_deck():
    _, events = _setup(equipment="choose")
    assert not state_of(events).detective(FANDORIN).equipped
    events = then(events, (D1, m.EquipDetective(FANDORIN, ("respirator",) * 3 + ("money",) * 2)))
    assert state_of(events).detective(FANDORIN).instruments == ("respirator",) * 3 + ("money",) * 2
    with pytest.raises(IllegalCommand, match="still in the deck"):
        decide(events, D1, m.EquipDetective(MASA, ("ticket", "respirator", "money", "money", "revolver")))
    with pytest.raises(IllegalCommand, match="exactly 5 cards"):
        decide(events, D1, m.EquipDetective(MASA, ("ticket",) * 4))


def test_chosen_equipment_is_listed_in_deck_order():
    _, events = _setup(equipment="choose")
    with pytest.raises(IllegalCommand, match="in the order"):
        decide(events, D1, m.EquipDetective(FANDORIN, ("money", "ticket", "ticket", "ticket", "ticket")))


def test_dealt_equipment_cannot_be_chosen():
    _, events = _setup(equipment="recommended")
    with pytest.raises(IllegalCommand, match="not chosen"):
        decide(events, D1, m.EquipDetective(FANDORIN, ("ticket",) * 5))


def test_detective_seats_choose_their_detectives_starting_locations():
    _, events = _setup()
    events = then(events, (D1, m.PlaceDetective(FANDORIN, RED_SQUARE)), (D1, m.PlaceDetective(MASA, RED_SQUARE)))
    assert state_of(events).detective(FANDORIN).location == RED_SQUARE
    assert state_of(events).detective(MASA).location == RED_SQUARE
    with pytest.raises(IllegalCommand, match="already stands"):
        decide(events, D1, m.PlaceDetective(FANDORIN, 1))


def test_a_seat_directs_only_its_own_detectives():
    seats, events = _setup(detective_seats=5)
    state = state_of(events)
    other = next(d for d in state.detectives if d.seat != "detective-1")
    with pytest.raises(IllegalCommand, match="not yours"):
        decide(events, "detective-1", m.PlaceDetective(other.id, 1))


def test_shared_control_lets_any_detective_seat_direct_any_detective():
    seats, events = _setup(detective_seats=5, shared_control=True)
    for d in BOARD.detectives:
        events = then(events, ("detective-2", m.PlaceDetective(d, 1)))
    assert state_of(events).phase == "appear"


def test_lind_waits_while_the_detectives_take_their_places():
    _, events = _setup()
    assert RULES.to_act(state_of(events)) == {D1}
    with pytest.raises(IllegalCommand, match="not your turn"):
        decide(events, LIND, m.AppearLind(RED_SQUARE))


def test_lind_appears_on_a_location_without_a_detective():
    events = started(places={FANDORIN: RED_SQUARE})
    assert RULES.to_act(state_of(events)) == {LIND}
    with pytest.raises(IllegalCommand, match="without a detective"):
        decide(events, LIND, m.AppearLind(RED_SQUARE))
    assert decide(events, LIND, m.AppearLind(54)) == [m.LindAppeared(54)]


def test_lind_moves_at_once_after_appearing():
    events = then(started(), (LIND, m.AppearLind(RED_SQUARE)))
    state = state_of(events)
    assert (state.phase, state.turn, RULES.to_act(state)) == ("lind", 1, {LIND})
    assert all(isinstance(c, (m.MoveLind, m.HideLind)) for c in RULES.legal_commands(state, LIND))
