"""End-of-game scoring: eight categories, ranking ties as written, the winner
by points then by the highest initiative."""

from __future__ import annotations

from ...engine import Standing, rank_by
from .data import AREAS, CARDS, NATIONS, RESOURCES, STRATEGIES
from .state import State

CATEGORIES = ("west", "home", "east", "mythstone", "arcane_technology", "food_caches",
              "reserves_and_tactics", "secret_objective")


def ranking_points(totals: dict[str, float]) -> dict[str, int]:
    """Highest total (ties too) gains 2, the next distinct total 1; a total of 0 gains nothing."""
    distinct = sorted({t for t in totals.values() if t > 0}, reverse=True)
    points = {seat: 0 for seat in totals}
    for seat, total in totals.items():
        if distinct and total == distinct[0]:
            points[seat] = 2
        elif len(distinct) > 1 and total == distinct[1]:
            points[seat] = 1
    return points


def _symbols(state: State, seat: str) -> dict[str, int]:
    counts = {resource: 0 for resource in RESOURCES}
    for card, _ in state.claims(seat):
        for resource in CARDS[card].resources:
            counts[resource] += 1
    return counts


def objective_met(state: State, seat: str, objective: str) -> bool:
    claims = state.claims(seat)
    areas = [area for _, area in claims]
    symbols = _symbols(state, seat)
    checks = {
        "both_neighbours": lambda: "west" in areas and "east" in areas,
        "three_food_caches": lambda: symbols["food_caches"] >= 3,
        "three_mythstone": lambda: symbols["mythstone"] >= 3,
        "three_arcane_technology": lambda: symbols["arcane_technology"] >= 3,
        "one_of_each_resource": lambda: all(symbols[r] >= 1 for r in RESOURCES),
        "five_regions": lambda: len(claims) >= 5,
        "four_tactics": lambda: len(state.hand(seat)) >= 4,
        "three_basic_regions": lambda: sum(1 for card, _ in claims if not CARDS[card].resources) >= 3,
        "three_dice_in_reserves": lambda: len(state.reserve(seat)) >= 3,
    }
    return checks[objective]()


def category_totals(state: State) -> dict[str, dict[str, float]]:
    """For each category, each seat's total before ranking."""
    totals: dict[str, dict[str, float]] = {category: {} for category in CATEGORIES}
    for seat in state.seats:
        card = STRATEGIES[state.strategy(seat)]
        areas = [area for _, area in state.claims(seat)]
        for area in AREAS:
            totals[area][seat] = areas.count(area) * card.modifier_of(area)
        for resource, count in _symbols(state, seat).items():
            totals[resource][seat] = count
        held = len(state.reserve(seat)) + len(state.hand(seat))
        # Dedran's ability: it wins ties in this category.
        totals["reserves_and_tactics"][seat] = held + (0.5 if held and state.is_ability(seat, "stubborn_hoard") else 0)
        totals["secret_objective"][seat] = 2 if objective_met(state, seat, card.objective) else 0
    return totals


def points(state: State) -> dict[str, dict[str, int]]:
    """Each seat's victory points per category."""
    totals = category_totals(state)
    result = {seat: {} for seat in state.seats}
    for category in CATEGORIES:
        if category == "secret_objective":
            earned = {seat: int(total) for seat, total in totals[category].items()}
        else:
            earned = ranking_points(totals[category])
        for seat, value in earned.items():
            result[seat][category] = value
    return result


def standings(state: State) -> list[Standing]:
    per_seat = points(state)
    totals = {seat: sum(per_seat[seat].values()) for seat in state.seats}
    keys = {seat: (totals[seat], NATIONS[state.nation_of(seat)].initiative) for seat in state.seats}
    ranks = rank_by(keys)
    return sorted(
        (
            Standing(seat, ranks[seat], totals[seat], {
                "nation": state.nation_of(seat), "strategy": state.strategy(seat), "categories": per_seat[seat],
            })
            for seat in state.seats
        ),
        key=lambda s: (s.rank, s.seat),
    )


def outcome(state: State) -> str | None:
    if state.phase != "over":
        return None
    winner = standings(state)[0]
    nation = NATIONS[state.nation_of(winner.seat)].name
    return f"{winner.seat} ({nation}) wins with {winner.score} points"
