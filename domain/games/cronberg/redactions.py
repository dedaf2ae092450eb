"""What Cronberg's ``visible`` hides of its events, for the API's document
and the conformance suite (domain.kit.redaction)."""

from ...kit.redaction import Redacted
from ...kit.shape import Int, described

REDACTED = {
    "RoundStarted": Redacted(hidden=("stack",), added={"stack_size": described(Int(), (
        "how many rhomboids the round's face-down stack holds (all 28): given in place of `stack` to everyone but "
        "the referee"))}),
}
