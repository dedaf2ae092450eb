"""The explicit registry of hosted games, by their API name."""

from __future__ import annotations

from ..engine import Rules
from .cronberg import RULES as cronberg

_ALL: tuple[Rules, ...] = (cronberg,)

REGISTRY: dict[str, Rules] = {rules.name: rules for rules in _ALL}


def get(name: str) -> Rules | None:
    return REGISTRY.get(name)
