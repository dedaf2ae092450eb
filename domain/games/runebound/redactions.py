"""What Runebound's ``visible`` hides of its events, for the API's document and
the conformance suite (domain.kit.redaction)."""

from ...kit.redaction import Redacted

REDACTED = {
    # Deck orders: every viewer but the referee gets each deck's size in place
    # of its cards (the field's description says so).
    "GameStarted": Redacted(hidden=("decks",)),
    "ActionDeclared": Redacted(hidden=("action",)),
}
