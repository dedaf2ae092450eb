"""End of game scoring: the eight categories, ties, and the winner."""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.games.the_coil.data import STRATEGIES
from domain.games.the_coil.scoring import objective_met, points, ranking_points


def _over(b, nations=("celestos", "dedran", "ignixior"), **per_seat):
    """per_seat: p1={"claimed": ..., "reserves": ..., "hands": ..., "strategies": ...}."""
    state = replace(b.start(nations), phase="over", round=4)
    for seat, fields in per_seat.items():
        state = b.seat(state, seat, **fields)
    return state


def test_ranking_highest_total_gains_two_the_next_total_one_ties_share():
    assert ranking_points({"p1": 3, "p2": 3, "p3": 2, "p4": 1}) == {"p1": 2, "p2": 2, "p3": 1, "p4": 0}
    assert ranking_points({"p1": 4, "p2": 1, "p3": 1}) == {"p1": 2, "p2": 1, "p3": 1}


def test_ranking_a_total_of_zero_scores_nothing():
    assert ranking_points({"p1": 0, "p2": 0}) == {"p1": 0, "p2": 0}
    assert ranking_points({"p1": 2, "p2": 0}) == {"p1": 2, "p2": 0}


def test_western_border_category_counts_western_regions_times_the_modifier(b):
    # p1 Bastion west x1, p2 Westward west x2, p3 Eastward west x1
    state = _over(b, p1={"claimed": (("dedran-01", "west"), ("dedran-02", "west"))},
                  p2={"claimed": (("ignixior-01", "west"),)}, p3={"claimed": ()})
    assert [points(state)[s]["west"] for s in ("p1", "p2", "p3")] == [2, 2, 0]


def test_homeland_category_counts_homeland_regions_times_the_modifier(b):
    # Bastion home x2 (1 region = 2), Westward home x1 (1 region = 1)
    state = _over(b, p1={"claimed": (("celestos-01", "home"),)}, p2={"claimed": (("dedran-01", "home"),)})
    assert [points(state)[s]["home"] for s in ("p1", "p2", "p3")] == [2, 1, 0]


def test_eastern_border_category_counts_eastern_regions_times_the_modifier(b):
    # Eastward east x2
    state = _over(b, p1={"claimed": (("ignixior-01", "east"), ("ignixior-02", "east"))},
                  p3={"claimed": (("dedran-05", "east"),)})
    assert [points(state)[s]["east"] for s in ("p1", "p2", "p3")] == [2, 0, 2]


def test_the_chosen_strategy_cards_modifiers_are_used(b):
    state = _over(b, p1={"claimed": (("dedran-01", "west"),), "strategies": ("bastion", "frontier"),
                         "chosen": "frontier"}, p2={"claimed": (("ignixior-01", "west"),)})
    assert points(state)["p1"]["west"] == 2 and points(state)["p2"]["west"] == 1  # x3 beats x2


@pytest.mark.parametrize("resource, cards, expected", [
    ("mythstone", {"p1": ("celestos-01", "celestos-08"), "p2": ("dedran-06",), "p3": ()}, [2, 1, 0]),
    ("arcane_technology", {"p1": ("celestos-04",), "p2": ("dedran-04",), "p3": ("ignixior-01", "ignixior-04")}, [1, 1, 2]),
    ("food_caches", {"p1": ("celestos-02", "celestos-03"), "p2": ("dedran-09", "dedran-10"), "p3": ("ignixior-11",)}, [2, 2, 1]),
])
def test_resource_categories_count_the_symbols_on_claimed_regions(b, resource, cards, expected):
    per_seat = {seat: {"claimed": tuple((c, "home") for c in held)} for seat, held in cards.items()}
    state = _over(b, **per_seat)
    assert [points(state)[s][resource] for s in ("p1", "p2", "p3")] == expected


def test_resource_categories_ignore_regions_taken_as_tactics(b):
    state = _over(b, p1={"hands": ("celestos-08", "celestos-09")}, p2={"claimed": (("dedran-06", "home"),)})
    assert points(state)["p1"]["mythstone"] == 0 and points(state)["p2"]["mythstone"] == 2


def test_reserves_and_tactics_category_adds_dice_in_reserves_and_tactics_in_hand(b):
    state = _over(b, nations=("celestos", "shakoom", "ignixior"),
                  p1={"reserves": (1, 2), "hands": ("celestos-01",)}, p2={"reserves": (3,)}, p3={"hands": ()})
    assert [points(state)[s]["reserves_and_tactics"] for s in ("p1", "p2", "p3")] == [2, 1, 0]


def test_dedran_ability_wins_ties_in_reserves_and_tactics(b):
    state = _over(b, p1={"reserves": (1, 2)}, p2={"reserves": (3,), "hands": ("dedran-01",)}, p3={"reserves": (4,)})
    assert [points(state)[s]["reserves_and_tactics"] for s in ("p1", "p2", "p3")] == [1, 2, 0]


OBJECTIVES = [  # (strategy card, claimed, reserves, hand) that fulfil its objective
    ("bastion", (("dedran-11", "west"), ("ignixior-12", "east")), (), ()),
    ("westward", (("celestos-02", "home"), ("celestos-03", "home"), ("celestos-10", "home")), (), ()),
    ("eastward", (("celestos-01", "home"), ("celestos-03", "home"), ("celestos-08", "home")), (), ()),
    ("balance", (("celestos-01", "home"), ("celestos-02", "home")), (), ()),
    ("raiders", tuple((f"celestos-1{i}", "home") for i in range(5)), (), ()),
    ("scholars", (("celestos-04", "home"), ("celestos-05", "home"), ("celestos-06", "home")), (), ()),
    ("hoard", (), (), ("dedran-01", "dedran-02", "dedran-03", "dedran-04")),
    ("frontier", (("celestos-12", "home"), ("celestos-13", "home"), ("celestos-14", "home")), (), ()),
    ("homeguard", (), (1, 1, 1), ()),
]


@pytest.mark.parametrize("strategy, claimed, reserves, hand", OBJECTIVES, ids=[o[0] for o in OBJECTIVES])
def test_secret_objective_gains_two_points_when_fulfilled(b, strategy, claimed, reserves, hand):
    state = _over(b, p1={"strategies": (strategy,), "claimed": claimed, "reserves": reserves, "hands": hand})
    objective = STRATEGIES[strategy].objective
    assert objective_met(state, "p1", objective)
    assert points(state)["p1"]["secret_objective"] == 2
    empty = _over(b, p1={"strategies": (strategy,)})
    assert points(empty)["p1"]["secret_objective"] == 0


def test_the_winner_has_the_most_victory_points(b):
    state = _over(b, p3={"claimed": (("celestos-01", "west"), ("ignixior-01", "home"))})
    standings = b.rules.score(state)
    assert standings[0].seat == "p3" and standings[0].rank == 1
    assert b.rules.outcome(state).startswith("p3 ")
    assert set(standings[0].detail["categories"]) == {
        "west", "home", "east", "mythstone", "arcane_technology", "food_caches", "reserves_and_tactics",
        "secret_objective",
    }


def test_a_tie_on_victory_points_goes_to_the_highest_initiative(b):
    state = _over(b)  # nobody scores: Ignixior (initiative 5) wins
    standings = b.rules.score(state)
    assert [s.seat for s in standings] == ["p3", "p1", "p2"] and [s.rank for s in standings] == [1, 2, 3]
    assert all(s.score == 0 for s in standings)


def test_two_players_the_neutral_nation_is_not_ranked_and_scores_nothing(b):
    state = replace(b.start(("celestos", "dedran"), neutral="ignixior"), phase="over")
    assert [s.seat for s in b.rules.score(state)] == ["p1", "p2"]
