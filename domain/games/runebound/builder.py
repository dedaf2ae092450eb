"""A small helper for ``decide``: emit events while folding them into a working state,
so that later decisions in the same command see their consequences."""

from __future__ import annotations

import random

from ...engine import Draft
from .evolve import evolve
from .state import State


class Builder(Draft):
    def __init__(self, state: State, rng: random.Random):
        super().__init__(evolve, state, rng)

    def dice(self, count: int = 2) -> tuple[int, ...]:
        return tuple(self.rng.randint(1, 10) for _ in range(count))
