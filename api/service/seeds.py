"""Where a new game's seed comes from.

A seed source is any callable that gives 32 bytes each time it is called;
the service draws one per game it creates (a rematch too). In production
it is ``secret_seeds``. A test passes a ``DerivedSeeds`` so that each run
plays the same games, and says which seeds a failing test's games had
(tests/support/seeds.py), so that the failure can be played again.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
from typing import Callable

SeedSource = Callable[[], bytes]

SEED_BYTES = 32


def secret_seeds() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


class DerivedSeeds:
    """The n-th seed drawn is sha256(label, n): the same label gives the
    same seeds in the same order, run after run. ``drawn`` lists them."""

    def __init__(self, label: str):
        self.label = label
        self.drawn: list[bytes] = []
        self._lock = threading.Lock()

    def __call__(self) -> bytes:
        with self._lock:
            seed = hashlib.sha256(f"{self.label}\n{len(self.drawn)}".encode()).digest()
            self.drawn.append(seed)
        return seed


class FixedSeeds:
    """Every game gets the one seed given (hex or bytes): to play again the
    game a failing test reported."""

    def __init__(self, seed: bytes | str):
        self.seed = bytes.fromhex(seed) if isinstance(seed, str) else bytes(seed)
        if len(self.seed) != SEED_BYTES:
            raise ValueError(f"a seed is {SEED_BYTES} bytes, not {len(self.seed)}")

    def __call__(self) -> bytes:
        return self.seed
