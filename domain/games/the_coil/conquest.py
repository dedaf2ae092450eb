"""Conquest rules that do not depend on a command: which regions a seat
claims, and where the claimed regions may be placed.

"Place your claimed regions face down in the appropriate area on your strategy
card if possible, otherwise place it in your hand as a tactic." Placing is
forced while an area has room; when a seat claims more regions for an area than
it has room for, the seat chooses which of them go onto the strategy card (the
rest become tactics). A region of a nation that borders the seat on neither
side has no area and goes to the hand.
"""

from __future__ import annotations

import itertools

from .data import AREAS
from .state import Region, State


def won_regions(state: State, seat: str) -> list[Region]:
    """Regions on which the seat's die was the last deployed, and its own
    homeland regions with no dice, in Coil order."""
    nation = state.nation_of(seat)
    return [r for r in state.coil if (r.dice and r.dice[-1][0] == seat) or (not r.dice and r.nation == nation)]


def _by_area(state: State, seat: str) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {area: [] for area in AREAS}
    for region in won_regions(state, seat):
        area = state.area_for(seat, region.nation)
        if area:
            groups[area].append(region.card)
    return groups


def placements(state: State, seat: str) -> list[tuple[str, ...]]:
    """Every legal set of regions to place on the strategy card (ids sorted):
    in each area, exactly as many as fit (all of them when they fit)."""
    options_per_area = []
    for area, cards in _by_area(state, seat).items():
        take = max(0, min(state.room_in(seat, area), len(cards)))
        options_per_area.append(list(itertools.combinations(sorted(cards), take)))
    return sorted(tuple(sorted(itertools.chain(*combo))) for combo in itertools.product(*options_per_area))


def needs_choice(state: State, seat: str) -> bool:
    """More claimed regions for some area than the room left there (and some room)."""
    return len(placements(state, seat)) > 1


def claim(state: State, seat: str, placed: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """(card, area) for each won region, in Coil order; those not placed go to the hand."""
    return tuple(
        (region.card, state.area_for(seat, region.nation) if region.card in placed else "hand")
        for region in won_regions(state, seat)
    )


def placement_refusal(state: State, seat: str, regions: tuple[str, ...]) -> str | None:
    """Why these regions may not be the ones placed on the strategy card (None: they may)."""
    groups = _by_area(state, seat)
    area_of = {card: area for area, cards in groups.items() for card in cards}
    for card in regions:
        if card not in area_of:
            return (f"{card} is not a region you claimed for an area of your strategy card; "
                    f"yours: {', '.join(sorted(area_of)) or 'none'}")
    if len(set(regions)) != len(regions):
        return "name each region once"
    if list(regions) != sorted(regions):
        return "list the regions in increasing order of their ids"
    for area, cards in groups.items():
        take = max(0, min(state.room_in(seat, area), len(cards)))
        named = sum(1 for card in regions if area_of[card] == area)
        if named != take:
            return (f"your {area} area takes exactly {take} of the {len(cards)} region(s) you claimed for it "
                    f"(claimed regions are placed while there is room), not {named}")
    return None
