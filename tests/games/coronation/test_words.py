"""Coronation's legal commands in words (issue 33): each says, with the names
printed on the board and the cards, what the seat would do."""

import random

from domain import words
from domain.engine import resolve_options
from domain.games.coronation import RULES
from domain.games.coronation import messages as m
from tests.games.coronation.support import (
    D1, ENDLUNG, FANDORIN, KARNOVICH, LIND, MASA, RED_SQUARE, ZYUKIN, lind_at, state_of,
)
from tests.games.said import entries, sentences

D2 = "detective-2"


def _opening(**options):
    resolved = resolve_options(RULES.options, options)
    return state_of(RULES.setup(RULES.seats(resolved), resolved, random.Random(5)))


def test_every_opening_placement_names_the_detective_and_the_location_by_their_printed_names():
    said = sentences(RULES, _opening(), D1)
    assert len(said) == 5 * 92
    assert "Place Masa on location 12, Sadovaya-Triumfalnaya" in said
    assert not any("masa" in s for s in said)


def test_chosen_equipment_is_said_as_counted_cards_by_their_names():
    said = sentences(RULES, _opening(equipment="choose"), D1)
    assert any(s.startswith("Equip Erast Fandorin with 2 cab tickets, ") for s in said)
    assert not any("lock-pick" in s or "first-aid-kit" in s for s in said)


def test_lind_s_move_says_how_where_and_which_trap_he_leaves():
    said = sentences(RULES, state_of(lind_at(RED_SQUARE)), LIND)
    assert "Take the underground to location 45, Lubyanka Square" in said
    assert "Go on foot to location 54, Uspensky Cathedral, leaving the trap Locked In behind" in said


def test_lind_s_hand_is_his_cards_one_entry_each_named_in_card_faces():
    state = state_of(lind_at(RED_SQUARE))
    hand = RULES.hand.cards(RULES.view(state, LIND), LIND)
    faces = entries(RULES, RULES.hand.names)
    assert len(hand) == state.cards_left == 24
    assert {faces[card]["name"] for card in hand} >= {"Cab ticket", "Underground note", "Turn skip", "Locked In"}


def test_a_detective_seat_s_hand_is_the_cards_of_the_detectives_it_directs():
    state = state_of(lind_at(RED_SQUARE, hands={MASA: ("ticket", "revolver", "money")}, seats=(LIND, D1, D2),
                             control=((FANDORIN, D2), (MASA, D1), (ZYUKIN, D2), (ENDLUNG, D2), (KARNOVICH, D2))))
    faces = entries(RULES, RULES.hand.names)
    hand = RULES.hand.cards(RULES.view(state, D1), D1)
    assert [faces[card]["name"] for card in hand] == ["Cab ticket", "Revolver", "Money"]
    assert len(RULES.hand.cards(RULES.view(state, D2), D2)) == 8
    assert RULES.hand.cards(RULES.view(state, None), None) is None


def test_every_field_naming_a_place_or_a_card_points_at_its_data_list():
    for command, field in ((m.PlaceDetective, "location"), (m.MoveDetective, "to"), (m.HideLind, "decoy"),
                           (m.MoveLind, "trap"), (m.EquipDetective, "cards"), (m.GatherInformation, "detective")):
        names = RULES.names_of(command, field)
        assert names is not None and entries(RULES, names), f"{command.__name__}.{field}"


def test_a_detective_s_equipment_is_told_in_the_log_by_the_cards_names():
    told = words.tell(RULES.name, m.DetectiveEquipped(MASA, ("ticket", "ticket", "lock-pick", "money", "money"))
                      .to_json(), D1)
    assert told == "Masa was equipped with 2 cab tickets, 1 Lock pick and 2 Money"
