"""Battle rules that do not depend on a command: where a die may go, and what
a tactic does to the dice in one's reserves."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from ...engine import IllegalCommand
from .data import CARDS, TACTICS
from .state import State, wrap

VALUES = (1, 2, 3, 4, 5, 6)


def deploy_refusal(state: State, seat: str, value: int, card: str) -> str | None:
    """Why a die of ``value`` may not go onto region ``card`` now (None: it may)."""
    region = state.region(card)
    if region is None:
        return f"there is no region {card} in the Coil"
    if region.full:
        return f"region {card} has no free slot left"
    if not region.dice:
        return None
    owner, top = region.dice[-1]
    if owner == seat:
        return f"you may not overcome your own die on {card}"
    if value != wrap(top + 1):
        return f"a die on {card} must show exactly one more than the {top} on top (so {wrap(top + 1)})"
    return None


def wanted_values(state: State, seat: str) -> frozenset[int]:
    """The die values that could be deployed somewhere in the Coil right now."""
    wanted: set[int] = set()
    for region in state.coil:
        if region.full:
            continue
        if not region.dice:
            return frozenset(VALUES)
        owner, top = region.dice[-1]
        if owner != seat:
            wanted.add(wrap(top + 1))
    return frozenset(wanted)


def deploy_targets(state: State, seat: str) -> list[tuple[int, str]]:
    """Every (value, region) a die of the seat's reserves may be deployed to."""
    targets = []
    for value in sorted(set(state.reserve(seat))):
        for region in state.coil:
            if deploy_refusal(state, seat, value, region.card) is None:
                targets.append((value, region.card))
    return targets


def can_deploy(state: State, seat: str) -> bool:
    wanted = wanted_values(state, seat)
    return any(value in wanted for value in state.reserve(seat))


def first_turn_reroll(state: State, seat: str, rng: random.Random) -> tuple[tuple[int, ...], int] | None:
    """A first Battle turn with no deployable die: reroll all dice until one can
    be deployed. None when no reroll is due (or no value could be deployed at all)."""
    reserve = state.reserve(seat)
    wanted = wanted_values(state, seat)
    if seat in state.had_turn or not reserve or not wanted or any(v in wanted for v in reserve):
        return None
    attempts = 0
    while True:
        attempts += 1
        values = tuple(sorted(rng.randint(1, 6) for _ in reserve))
        if any(v in wanted for v in values):
            return values, attempts


# ------------------------------------------------------------------ tactics


def _require_dice(reserve: tuple[int, ...], dice: tuple[int, ...]) -> None:
    for value in dice:
        if value not in VALUES:
            raise IllegalCommand(f"a die shows 1 to 6, not {value}")
    have = Counter(reserve)
    for value, count in Counter(dice).items():
        if have[value] < count:
            raise IllegalCommand(
                f"your reserves hold {have[value]} die/dice showing {value}, not {count}"
            )


def check_tactic(reserve: tuple[int, ...], tactic: str, dice: tuple[int, ...], value: int | None) -> None:
    """Refuse a tactic played on the wrong dice (named by their values)."""
    info = TACTICS[tactic]
    if tactic == "reroll":
        if not dice:
            raise IllegalCommand("name at least one die to reroll")
    elif len(dice) != info.dice:
        raise IllegalCommand(f"{info.name} ({tactic}) names exactly {info.dice} die/dice, not {len(dice)}")
    if tactic in ("reroll", "plus_one_two") and list(dice) != sorted(dice):
        raise IllegalCommand("list the dice values in increasing order")
    _require_dice(reserve, dice)
    if info.takes_value:
        if value is None or value not in VALUES:
            raise IllegalCommand(f"{info.name} needs a value from 1 to 6")
        if value == dice[0]:
            raise IllegalCommand(f"that die already shows {value}")
    elif value is not None:
        raise IllegalCommand(f"{info.name} takes no value")


def apply_tactic(reserve: tuple[int, ...], tactic: str, dice: tuple[int, ...], value: int | None,
                 rng: random.Random) -> tuple[int, ...]:
    """The reserves after a checked tactic (reroll draws from rng)."""
    rest = list(reserve)
    for die in dice:
        rest.remove(die)
    if tactic == "plus_one":
        new = [wrap(dice[0] + 1)]
    elif tactic == "minus_one":
        new = [wrap(dice[0] - 1)]
    elif tactic == "plus_one_two":
        new = [wrap(d + 1) for d in dice]
    elif tactic == "set_value":
        new = [value]
    elif tactic == "opposite_face":
        new = [7 - dice[0]]
    elif tactic == "reroll":
        new = [rng.randint(1, 6) for _ in dice]
    else:  # swap_pip
        new = [wrap(dice[0] + 1), wrap(dice[1] - 1)]
    return tuple(sorted(rest + new))


def tactic_choices(reserve: tuple[int, ...], tactic: str) -> list[tuple[tuple[int, ...], int | None]]:
    """Every (dice, value) a tactic accepts on these reserves."""
    distinct = sorted(set(reserve))
    have = Counter(reserve)
    if tactic in ("plus_one", "minus_one", "opposite_face"):
        return [((v,), None) for v in distinct]
    if tactic == "set_value":
        return [((v,), t) for v in distinct for t in VALUES if t != v]
    if tactic == "plus_one_two":
        return [((a, b), None) for a in distinct for b in distinct if a < b or (a == b and have[a] > 1)]
    if tactic == "swap_pip":
        return [((a, b), None) for a in distinct for b in distinct if a != b or have[a] > 1]
    subsets = set()
    for size in range(1, len(reserve) + 1):
        subsets.update(itertools.combinations(reserve, size))
    return [(dice, None) for dice in sorted(subsets)]


def tactic_of(card: str) -> str:
    return CARDS[card].tactic
