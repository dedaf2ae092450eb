"""What The Coil's ``visible`` hides of its events, for the API's document and
the conformance suite (domain.kit.redaction)."""

from ...kit.redaction import Redacted

REDACTED = {
    "DeckShuffled": Redacted(hidden=("cards",)),
    "StrategyDeckShuffled": Redacted(hidden=("cards",)),
    "StrategyDrawn": Redacted(hidden=("card",)),
    "Strategized": Redacted(hidden=("card",)),
    "StrategyChosen": Redacted(hidden=("card",)),
    "CardsDrawn": Redacted(hidden=("cards",)),
    "Scouted": Redacted(hidden=("card",)),
    "RegionsClaimed": Redacted(hidden=("regions",)),
}
