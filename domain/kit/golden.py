"""The golden games a game keeps, declared in its package (``golden.py``:
``GOLDEN``): each a real game played through the API with seeded random
legal commands to its end, exported and kept for ever
(tests/golden/<game>/), so that every later release must replay and audit
it as VERIFIED. tests/golden/record.py records them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping


@dataclass(frozen=True)
class Golden:
    """``options`` as a game's creator gives them (engine options such as
    turn_seconds included); ``timeouts``: the share of turns left to pass
    their deadline instead of being played; the first of ``seeds`` whose
    outcome says ``outcome_says`` (and not ``outcome_lacks``) is kept."""

    name: str
    options: Mapping[str, Any] = field(default_factory=dict)
    timeouts: float = 0.0
    outcome_says: str | None = None
    outcome_lacks: str | None = None
    seeds: range = range(1, 60)

    def accepts(self, outcome: str) -> bool:
        return ((self.outcome_says is None or self.outcome_says in outcome)
                and (self.outcome_lacks is None or self.outcome_lacks not in outcome))
