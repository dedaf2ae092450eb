"""End of game scoring: the eight categories, ties, and the winner."""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.games.the_coil.data import CARDS, STRATEGIES
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


def test_regions_placed_under_a_newer_card_count_in_full_when_an_older_card_is_chosen(b):
    west = tuple((card, "west") for card in ("dedran-11", "dedran-12", "dedran-13"))  # placed under Raiders (west 3)
    state = _over(b, p1={"claimed": west, "strategies": ("bastion", "raiders"), "chosen": "bastion"})
    from domain.games.the_coil.scoring import category_totals
    assert category_totals(state)["west"]["p1"] == 3  # Bastion: west x1, capacity 1, none removed


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


def _single(resource: str) -> list[str]:
    return [c.id for c in CARDS.values() if c.resources == (resource,)]


def _category_state(b, category: str, counts: tuple[int, int, int]):
    """p1 Bastion (x1, x2, x1), p2 Westward (x2, x1, x1), p3 Eastward (x1, x1, x2); nations without
    Dedran's ability; each seat holds ``counts`` of what the category counts."""
    per_seat = {}
    for seat, count in zip(("p1", "p2", "p3"), counts):
        if category in ("west", "home", "east"):
            per_seat[seat] = {"claimed": tuple((f"shakoom-{i + 1:02d}", category) for i in range(count))}
        elif category == "reserves_and_tactics":
            per_seat[seat] = {"reserves": (1,) * (count // 2), "hands": ("celestos-01",) * (count - count // 2)}
        else:
            per_seat[seat] = {"claimed": tuple((card, "home") for card in _single(category)[:count])}
    return _over(b, nations=("celestos", "shakoom", "ignixior"), **per_seat)


# (category, held per seat, that category's total per seat, points per seat)
RANKED = [
    ("west", (1, 1, 2), (1, 2, 2), (1, 2, 2)),            # tied for the highest: both 2, the next total 1
    ("west", (2, 0, 1), (2, 0, 1), (2, 0, 1)),            # a total of 0 scores nothing
    ("home", (1, 2, 1), (2, 2, 1), (2, 2, 1)),
    ("home", (3, 1, 1), (6, 1, 1), (2, 1, 1)),            # tied for the second highest: both 1
    ("east", (1, 1, 1), (1, 1, 2), (1, 1, 2)),
    ("mythstone", (2, 2, 1), (2, 2, 1), (2, 2, 1)),
    ("mythstone", (3, 1, 1), (3, 1, 1), (2, 1, 1)),
    ("arcane_technology", (1, 3, 3), (1, 3, 3), (1, 2, 2)),
    ("arcane_technology", (0, 0, 0), (0, 0, 0), (0, 0, 0)),
    ("food_caches", (2, 1, 2), (2, 1, 2), (2, 1, 2)),
    ("reserves_and_tactics", (4, 4, 2), (4, 4, 2), (2, 2, 1)),
    ("reserves_and_tactics", (1, 3, 2), (1, 3, 2), (0, 2, 1)),  # the third total scores nothing
]


@pytest.mark.parametrize("category, held, totals, expected", RANKED)
def test_each_ranked_category_two_points_for_the_highest_one_for_the_second_ties_share(
        b, category, held, totals, expected):
    from domain.games.the_coil.scoring import category_totals
    state = _category_state(b, category, held)
    assert tuple(category_totals(state)[category][s] for s in ("p1", "p2", "p3")) == totals
    assert tuple(points(state)[s][category] for s in ("p1", "p2", "p3")) == expected


def test_dedran_ability_tied_for_the_second_highest_total_pushes_the_rival_down(b):
    # Dedran (p2) and Celestos (p1) tie at 1 behind Ignixior's 3: Dedran takes the 1 point alone.
    state = _over(b, p1={"reserves": (1,)}, p2={"hands": ("dedran-01",)}, p3={"reserves": (1, 2, 3)})
    assert [points(state)[s]["reserves_and_tactics"] for s in ("p1", "p2", "p3")] == [0, 1, 2]


def test_a_tie_on_victory_points_goes_to_the_nation_with_the_highest_initiative_not_seat_order(b):
    # p1 Celestos (initiative 3) and p2 Dedran (1) both earn 2; Ignixior (5) earns nothing.
    state = _over(b, p1={"claimed": (("dedran-11", "west"),)}, p2={"claimed": (("celestos-12", "east"),)},
                  p3={"strategies": ("homeguard",)})  # basic regions: no resource points
    standings = b.rules.score(state)
    assert [(s.seat, s.score, s.rank) for s in standings] == [("p1", 2, 1), ("p2", 2, 2), ("p3", 0, 3)]
    state = _over(b, nations=("dedran", "celestos", "ignixior"), p1={"claimed": (("celestos-12", "east"),)},
                  p2={"claimed": (("dedran-11", "west"),)}, p3={"strategies": ("homeguard",)})
    assert [s.seat for s in b.rules.score(state)][:2] == ["p2", "p1"]
