"""What a game's ``visible`` hides of its events, declared once in the game's
package (``redactions.py``) beside the door itself: the API's document types
each event as a viewer may get it from this, and the conformance suite
checks it against what ``visible`` does (a hidden field is left out or
nulled for some viewer; every key ``visible`` adds is declared here)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from .shape import Shape

EVERY_FIELD = "*"


@dataclass(frozen=True)
class Redacted:
    """``hidden``: the event's fields some viewers get as null or not at all
    (EVERY_FIELD: all of them); ``added``: the keys given in their place, by
    shape (described: the document shows each description)."""

    hidden: tuple[str, ...] | str = ()
    added: Mapping[str, Shape] = field(default_factory=dict)

    def hides(self, name: str) -> bool:
        return self.hidden == EVERY_FIELD or name in self.hidden
