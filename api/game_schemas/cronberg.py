"""How Cronberg's ``visible`` redacts events, for the OpenAPI document (its
view is declared in domain/games/cronberg/shapes.py)."""

from __future__ import annotations

from marshmallow import fields

REDACTED = {
    "RoundStarted": {"hidden": ("stack",), "added": {"stack_size": fields.Integer(metadata={"description": "how many rhomboids are stacked"})}},
}
