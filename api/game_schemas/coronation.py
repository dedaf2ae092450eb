"""How Coronation's ``visible`` redacts events, for the OpenAPI document (its
view is declared in domain/games/coronation/shapes.py)."""

from __future__ import annotations

from marshmallow import fields

# How ``visible`` redacts events for a viewer who may not see everything: Lind's
# moves keep only what the detectives learn.
REDACTED = {
    "LindAppeared": {"hidden": "*"},
    "LindMoved": {"hidden": "*", "added": {
        "card_left": fields.Boolean(metadata={"description": "he left a face-down card on his route card"}),
        "jewel_stolen": fields.Boolean(),
    }},
    "LindMovedExtraordinarily": {"hidden": "*", "added": {"jewel_stolen": fields.Boolean()}},
}
