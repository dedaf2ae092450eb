"""How The Coil's ``visible`` redacts events, for the OpenAPI document (its
view is declared in domain/games/the_coil/shapes.py)."""

from __future__ import annotations

# How ``visible`` redacts events for a viewer who may not see everything.
REDACTED = {
    "DeckShuffled": {"hidden": ("cards",)},
    "StrategyDeckShuffled": {"hidden": ("cards",)},
    "StrategyDrawn": {"hidden": ("card",)},
    "Strategized": {"hidden": ("card",)},
    "StrategyChosen": {"hidden": ("card",)},
    "CardsDrawn": {"hidden": ("cards",)},
    "Scouted": {"hidden": ("card",)},
    "RegionsClaimed": {"hidden": ("regions",)},
}
