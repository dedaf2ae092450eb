"""Setup exactly as the rulebook says, and the board and card data."""

import random

import pytest

from domain.engine import IllegalCommand, resolve_options
from domain.games.court_of_miracles import RULES
from domain.games.court_of_miracles import messages as m
from domain.games.court_of_miracles.data import (BOARD_JSON, KING_END, LINES, NEIGHBOURHOODS, PLOT_DECK, ROGUES,
                                                  WRATH)


def setup_state(players, seed=1):
    seats = RULES.seats({"players": players})
    events = RULES.setup(seats, {"players": players}, random.Random(seed))
    return events, RULES.replay(events)


def test_seats_are_p1_to_pn_for_2_to_5_players():
    assert RULES.seats({"players": 2}) == ("p1", "p2")
    assert RULES.seats({"players": 5}) == ("p1", "p2", "p3", "p4", "p5")
    assert (RULES.min_seats, RULES.max_seats, RULES.name) == (2, 5, "court-of-miracles")


def test_first_player_gets_1_coin_the_next_2_and_the_others_3():
    for seed in range(6):
        _, s = setup_state(4, seed)
        order = [s.seats[(s.seats.index(s.active) + i) % 4] for i in range(4)]
        assert [s.player(p).coins for p in order] == [1, 2, 3, 3]
        assert s.reserve == 60 - 9


def test_each_player_receives_one_plot_card_and_the_pile_keeps_the_rest():
    events, s = setup_state(5)
    assert all(len(p.hand) == 1 for p in s.players)
    assert len(s.pile) == 24 - 5
    dealt = sorted(c for p in s.players for c in p.hand) + list(s.pile)
    assert sorted(dealt) == sorted(PLOT_DECK)


def test_each_player_has_two_henchmen_a_beggar_and_the_right_hand_parked_on_line_3():
    _, s = setup_state(3)
    for p in s.players:
        assert p.supply == ("beggar", "henchman", "henchman")
        assert p.right_hand_parked and p.lines == ()


def test_the_bag_holds_the_absent_players_starting_sets_and_the_special_rogues():
    for players in range(2, 6):
        _, s = setup_state(players)
        assert len(s.bag) + 4 * players == 32
        for special in ("brute", "pickpocket", "priest", "soothsayer", "swordsman", "courtesan"):
            assert s.bag.count(special) == 2
        assert s.bag.count("right-hand") == 5 - players


def test_the_penniless_king_starts_at_the_louvre_and_the_first_player_is_to_act():
    _, s = setup_state(2)
    assert s.king == 0 and s.phase == "place"
    assert RULES.to_act(s) == {s.active}


def test_setup_shuffles_are_recorded_in_events():
    events, s = setup_state(4, seed=7)
    assert isinstance(events[0], m.GameSetUp) and isinstance(events[-1], m.TurnBegan)
    assert RULES.replay(RULES.decode_event(e.to_json()) for e in events) == s


def test_board_data_has_five_neighbourhoods_of_three_spots_with_one_effect_of_each_kind():
    assert len(NEIGHBOURHOODS) == 5
    for n in NEIGHBOURHOODS:
        assert [s.number for s in n.spots] == [1, 2, 3]
        assert sorted(s.effect for s in n.spots) == ["coins", "king", "plots"]
    for effect in ("king", "coins", "plots"):
        amounts = sorted(s.amount for n in NEIGHBOURHOODS for s in n.spots if s.effect == effect)
        assert amounts == [1, 1, 1, 2, 2]
    for n in BOARD_JSON["neighbourhoods"]:
        assert all("x" in s and "y" in s for s in n["spots"]) and "x" in n


def test_board_data_has_the_renown_lines_and_the_kings_path_with_wrath_spaces():
    assert [(l.line, l.toll) for l in LINES] == [(1, 4), (2, 5), (3, 6), (4, 7), (5, 8)]
    assert KING_END == 20 and sorted(WRATH) == [4, 8, 12, 16]
    assert set(WRATH.values()) <= {n.id for n in NEIGHBOURHOODS}
    assert all("x" in sp for sp in BOARD_JSON["king_path"]["spaces"])


def test_card_data_has_32_rogues_and_24_plot_cards():
    assert sum(r["starting"] * 5 + r["extra"] for r in ROGUES.values()) == 32
    assert len(PLOT_DECK) == 24 and len(set(PLOT_DECK)) == 12


def test_first_player_is_the_seat_named_by_the_option_the_last_to_have_visited_notre_dame():
    for first in range(1, 5):
        options = resolve_options(RULES.options, {"players": 4, "first_player": first})
        events = RULES.setup(RULES.seats(options), options, random.Random(first))
        s = RULES.replay(events)
        assert s.active == f"p{first}" and events[-1] == m.TurnBegan(f"p{first}")
        assert s.player(f"p{first}").coins == 1 and s.player(f"p{first % 4 + 1}").coins == 2


def test_first_player_is_chosen_at_random_when_the_option_is_0():
    options = resolve_options(RULES.options, {"players": 4})
    assert options["first_player"] == 0
    firsts = {RULES.replay(RULES.setup(RULES.seats(options), options, random.Random(seed))).active
              for seed in range(40)}
    assert firsts == {"p1", "p2", "p3", "p4"}


def test_first_player_option_must_name_a_seat_of_the_game():
    with pytest.raises(IllegalCommand, match="first_player must name one of the 3 seats"):
        RULES.seats(resolve_options(RULES.options, {"players": 3, "first_player": 4}))
    with pytest.raises(IllegalCommand, match="at most 5"):
        resolve_options(RULES.options, {"players": 3, "first_player": 6})
