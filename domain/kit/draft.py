"""The one emit-and-fold helper of every game's ``decide``.

A decision often has consequences that depend on its own first effects (a
building laid, then the triangles it encloses); a ``Draft`` folds each event
into ``state`` as it is emitted, so that later steps of the same decision see
it, and keeps the events in order for the store.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from ..engine import Event

# Called after each emitted event, with the draft: a rule that holds after
# every event of a game (The Coil: an empty homeland deck is re-formed at once).
AfterEach = Callable[["Draft", Event], None]


class Draft:
    def __init__(self, evolve: Callable[[Any, Event], Any], state: Any, rng: random.Random | None = None,
                 after_each: AfterEach | None = None):
        self._evolve = evolve
        self._after_each = after_each
        self.state = state
        self.rng = rng
        self.events: list[Event] = []

    def emit(self, *events: Event) -> None:
        for event in events:
            self.events.append(event)
            self.state = self._evolve(self.state, event)
            if self._after_each is not None:
                self._after_each(self, event)
