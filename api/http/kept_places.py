"""Places kept for long-polls' next waits.

A long-poll is held across its answers: when one answers, its place is kept
for ``RETURN_SECONDS`` (the server's total counts it as held), and the next
long-poll of the same place takes it even when the server is full, so that a
full server refuses newcomers, never the pollers it already serves.

A place is a token's (the same player's polls, on any connection) or, for a
poll without a token, its connection's: the client's address and port. A
poller comes back on its kept-alive connection, while a newcomer from the
same address (a herd, or another client behind the same NAT or proxy) comes
on a connection of its own, and cannot take the place. A poller that opens a
new connection for each poll and has no token keeps nothing: it is a
newcomer each time. (Behind a proxy that reuses its upstream connections for
several clients, one of them may take another's place; each still counts
once against the total.)
"""

from __future__ import annotations

import time
from collections import deque

RETURN_SECONDS = 10.0  # how long an answered long-poll's place is kept for its next one

Place = tuple[str, str]  # ("token", token id) or ("connection", "address port")


def requesting_place() -> Place | None:
    """The place the long-poll being served would keep and take: its token's,
    else its connection's; None outside a request or when the server does not
    say the client's port (then nothing is kept)."""
    from flask import g, has_request_context, request

    if not has_request_context():
        return None
    token = g.get("token_id")
    if token:
        return ("token", token)
    port = request.environ.get("REMOTE_PORT")
    return ("connection", f"{request.remote_addr} {port}") if port else None


class KeptPlaces:
    """The places kept, per place (when each lapses, oldest first) and all of
    them in lapsing order. Not locked: the caller holds its own lock."""

    def __init__(self, clock=time.time):
        self._clock = clock
        self._of: dict[Place, deque[float]] = {}
        self._order: deque[tuple[float, Place]] = deque()
        self.total = 0

    def keep(self, place: Place) -> None:
        until = self._clock() + RETURN_SECONDS
        self._of.setdefault(place, deque()).append(until)
        self._order.append((until, place))
        self.total += 1

    def take(self, place: Place) -> bool:
        """Whether ``place`` had a place kept, which it now takes."""
        self.lapse()
        return self._forget(place)

    def lapse(self) -> None:
        """Forget the kept places whose time is over."""
        now = self._clock()
        while self._order and self._order[0][0] <= now:
            until, place = self._order.popleft()
            self._forget(place, until)

    def _forget(self, place: Place, until: float | None = None) -> bool:
        """One kept place of ``place`` gone (its oldest; with ``until``, only
        if that is the one lapsing then, not taken already)."""
        kept = self._of.get(place)
        if not kept or (until is not None and kept[0] != until):
            return False
        kept.popleft()
        if not kept:
            del self._of[place]
        self.total -= 1
        return True
