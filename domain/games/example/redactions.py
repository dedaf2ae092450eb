"""What the example's ``visible`` hides of its events (domain.kit.redaction):
the document types each event as a viewer gets it from this, and the
conformance suite checks it against ``visible``."""

from ...kit.redaction import Redacted
from ...kit.shape import Int, List, described

REDACTED = {
    "CardsDealt": Redacted(hidden=("hands", "deck"), added={
        "hand_size": described(Int(), "how many cards each seat was dealt"),
        "deck_size": described(Int(), "how many cards are left in the deck, face down"),
        "hand": described(List(Int()), "the viewer's own hand (a seat's only)"),
    }),
    "CardChosen": Redacted(hidden=("card",)),
}
