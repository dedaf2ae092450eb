"""What Coronation's ``visible`` hides of its events, for the API's document
and the conformance suite (domain.kit.redaction): Lind's moves keep only what
the detectives learn."""

from ...kit.redaction import EVERY_FIELD, Redacted
from ...kit.shape import Bool, described

# What detective seats and spectators get in place of Lind's hidden choices
# (Lind's player and the referee get the event whole, without these).
JEWEL_STOLEN = ("he took the jewel of the location he left (which one is not told); given in place of the hidden "
                "fields to detective seats and spectators")

REDACTED = {
    "LindAppeared": Redacted(hidden=EVERY_FIELD),
    "LindMoved": Redacted(hidden=EVERY_FIELD, added={
        "card_left": described(Bool(), "he left a face-down card on the route card he was on (public, what card it "
                                       "is is not); given in place of the hidden fields to detective seats and "
                                       "spectators"),
        "jewel_stolen": described(Bool(), JEWEL_STOLEN),
    }),
    "LindMovedExtraordinarily": Redacted(hidden=EVERY_FIELD, added={"jewel_stolen": described(Bool(), JEWEL_STOLEN)}),
}
