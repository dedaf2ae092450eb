"""How Runebound's ``visible`` redacts events, for the OpenAPI document (its
view is declared in domain/games/runebound/shapes.py)."""

from __future__ import annotations

REDACTED = {
    "ActionDeclared": {"hidden": ("action",)},
}
