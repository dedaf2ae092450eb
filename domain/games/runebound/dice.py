"""The dice of a decision, drawn from its draft's random source: two ten-sided
dice for a test or a strike, the movement die at the start of a turn.

The order of the draws is part of every recorded game (a replayed decision
must roll the same numbers), so each roll draws exactly as it always has."""

from __future__ import annotations

from ...kit import Draft
from . import data


def dice(draft: Draft, count: int = 2) -> tuple[int, ...]:
    """``count`` ten-sided dice (a test, or one strike in combat)."""
    return tuple(draft.rng.randint(1, 10) for _ in range(count))


def movement(draft: Draft) -> int:
    """One roll of the movement die: how many roads the hero may walk this turn."""
    return draft.rng.choice(data.MOVEMENT_DIE)
