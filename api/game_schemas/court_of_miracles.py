"""How The Court of Miracles' ``visible`` redacts events, for the OpenAPI
document (its view is declared in domain/games/court_of_miracles/shapes.py)."""

from __future__ import annotations

from marshmallow import fields

# How ``visible`` redacts events for a viewer who may not see everything.
REDACTED = {
    "GameSetUp": {"hidden": ("pile", "bag"), "added": {
        "pile_size": fields.Integer(metadata={"description": "Plot cards in the pile, in place of `pile` (24 at setup)"}),
        "bag_size": fields.Integer(metadata={"description": "rogues in the bag, in place of `bag`"})}},
    "PlotPileReshuffled": {"hidden": ("pile",), "added": {
        "pile_size": fields.Integer(metadata={"description": "Plot cards in the new pile, in place of `pile`"})}},
    "PlotsDrawn": {"hidden": ("cards",), "added": {"count": fields.Integer(metadata={"description": "how many cards were drawn (everyone sees it)"})}},
    "RoguePlaced": {"hidden": ("rogue",)},
    "RogueDrawn": {"hidden": ("rogue",)},
    "RogueDiscarded": {"hidden": ("rogue",)},
    "SwordsmenChosen": {"hidden": ("count",)},
}
