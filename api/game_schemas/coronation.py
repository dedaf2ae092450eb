"""How Coronation's ``visible`` redacts events, for the OpenAPI document (its
view is declared in domain/games/coronation/shapes.py)."""

from __future__ import annotations

from marshmallow import fields

# What detective seats and spectators get in place of Lind's hidden choices
# (Lind's player and the referee get the event whole, without these).
JEWEL_STOLEN = ("he took the jewel of the location he left (which one is not told); given in place of the hidden "
                "fields to detective seats and spectators")

# How ``visible`` redacts events for a viewer who may not see everything: Lind's
# moves keep only what the detectives learn.
REDACTED = {
    "LindAppeared": {"hidden": "*"},
    "LindMoved": {"hidden": "*", "added": {
        "card_left": fields.Boolean(metadata={"description": "he left a face-down card on the route card he was on "
                                                             "(public, what card it is is not); given in place of "
                                                             "the hidden fields to detective seats and spectators"}),
        "jewel_stolen": fields.Boolean(metadata={"description": JEWEL_STOLEN}),
    }},
    "LindMovedExtraordinarily": {"hidden": "*", "added": {
        "jewel_stolen": fields.Boolean(metadata={"description": JEWEL_STOLEN}),
    }},
}
