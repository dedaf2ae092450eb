"""The explicit registry of hosted games, by their API name."""

from __future__ import annotations

from ..engine import Rules
from .coronation import RULES as coronation
from .court_of_miracles import RULES as court_of_miracles
from .cronberg import RULES as cronberg
from .runebound import RULES as runebound
from .the_coil import RULES as the_coil

_ALL: tuple[Rules, ...] = (cronberg, coronation, court_of_miracles, the_coil, runebound)

REGISTRY: dict[str, Rules] = {rules.name: rules for rules in _ALL}


def get(name: str) -> Rules | None:
    return REGISTRY.get(name)
