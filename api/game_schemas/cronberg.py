"""How Cronberg's ``visible`` redacts events, for the OpenAPI document (its
view is declared in domain/games/cronberg/shapes.py)."""

from __future__ import annotations

from marshmallow import fields

REDACTED = {
    "RoundStarted": {"hidden": ("stack",), "added": {"stack_size": fields.Integer(metadata={
        "description": "how many rhomboids the round's face-down stack holds (all 28): given in place of `stack` "
                       "to everyone but the referee"})}},
}
