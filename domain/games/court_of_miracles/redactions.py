"""What The Court of Miracles' ``visible`` hides of its events, for the API's
document and the conformance suite (domain.kit.redaction)."""

from ...kit.redaction import Redacted
from ...kit.shape import Int, described

REDACTED = {
    "GameSetUp": Redacted(hidden=("pile", "bag"), added={
        "pile_size": described(Int(), "Plot cards in the pile, in place of `pile` (24 at setup)"),
        "bag_size": described(Int(), "rogues in the bag, in place of `bag`")}),
    "PlotPileReshuffled": Redacted(hidden=("pile",), added={
        "pile_size": described(Int(), "Plot cards in the new pile, in place of `pile`")}),
    "PlotsDrawn": Redacted(hidden=("cards",), added={
        "count": described(Int(), "how many cards were drawn (everyone sees it)")}),
    "RoguePlaced": Redacted(hidden=("rogue",)),
    "RogueDrawn": Redacted(hidden=("rogue",)),
    "RogueDiscarded": Redacted(hidden=("rogue",)),
    "SwordsmenChosen": Redacted(hidden=("count",)),
}
