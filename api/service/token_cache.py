"""What a process remembers of the bearer tokens it has checked, so that a
poll costs no query for its token.

A revocation commits a NOTIFY on ``REVOKED_CHANNEL`` with the revoked
tokens' ids (api/service/readmodels.py), and every process's LISTEN
connection hears it (eventstore/listener.py): each forgets those tokens at
once. So a token checked while that connection was listening is trusted
for ``trust_seconds`` (BOARDLOG_TOKEN_TRUST_SECONDS, an hour), as long as
the connection has not broken since (a break may have lost a notice) and
still finishes its rounds (a connection gone silent may be dead); else for
``cache_seconds`` (BOARDLOG_TOKEN_CACHE_SECONDS, 10 s), the bound that holds
whatever happens to the LISTEN connection. A play-by-mail player who polls
once a minute thus costs no query per poll, where a 10 s cache gave him
one each time.

A token revoked by hand in SQL sends no notice: processes then honour it
within ``trust_seconds`` (send ``NOTIFY boardlog_tokens_revoked, '<id>'``
to make it at once).
"""

from __future__ import annotations

import threading
import time
import weakref
from dataclasses import dataclass
from typing import Callable, NamedTuple

REVOKED_CHANNEL = "boardlog_tokens_revoked"


@dataclass(frozen=True)
class Identity:
    player: str
    token_id: str


class _Remembered(NamedTuple):
    identity: Identity
    until: float  # trusted until then in any case
    trusted_until: float  # and until then while revocations are heard without a break since ``epoch``
    epoch: int | None
    read_at: float  # when the row was read, wall-clock (a stream ticket carries it to other processes)


class Reading(NamedTuple):
    """What held when a token's row was read: its entry is trusted from then."""

    at: float
    epoch: int | None
    heard: int
    wall: float


class TokenCache:
    MAX_REMEMBERED = 100_000

    def __init__(self, cache_seconds: float, trust_seconds: float, clock: Callable[[], float], notices=None):
        """``notices``: the event store, whose LISTEN connection hears revocations (None: none are heard)."""
        self.cache_seconds = cache_seconds
        self.trust_seconds = trust_seconds
        self.clock = clock
        self._notices = notices if hasattr(notices, "on_notice") else None
        self._listening = False
        self._tokens: dict[bytes, _Remembered] = {}  # sha256 of the token -> what is known of it
        self._lock = threading.Lock()
        self._heard = 0  # revocation notices heard so far
        self._observers: list[weakref.WeakMethod] = []

    def get(self, digest: bytes) -> Identity | None:
        entry = self._trusted(digest)
        return entry.identity if entry is not None else None

    def read_at(self, digest: bytes) -> float | None:
        """When (wall-clock) the trusted read of this token was made, else None."""
        entry = self._trusted(digest)
        return entry.read_at if entry is not None else None

    def _trusted(self, digest: bytes) -> _Remembered | None:
        entry = self._tokens.get(digest)  # a dict read is atomic; the lock guards the writes
        if entry is None:
            return None
        now = self.clock()
        if now < entry.until:
            return entry
        if entry.epoch is not None and now < entry.trusted_until and self._epoch() == entry.epoch:
            return entry
        return None

    def reading(self) -> Reading:
        """Note what holds before a token's row is read."""
        if not self._listening and self._notices is not None:
            self._listening = True
            self._notices.on_notice(REVOKED_CHANNEL, self._hear)
        return Reading(self.clock(), self._epoch(), self._heard, time.time())

    def put(self, digest: bytes, identity: Identity, reading: Reading) -> None:
        # A notice heard while the row was read may be this token's: then only the short bound.
        epoch = reading.epoch if self._heard == reading.heard else None
        entry = _Remembered(identity, reading.at + self.cache_seconds, reading.at + self.trust_seconds, epoch,
                            reading.wall)
        with self._lock:
            if len(self._tokens) >= self.MAX_REMEMBERED:
                self._tokens.clear()
            self._tokens[digest] = entry

    def forget(self, digest: bytes) -> None:
        with self._lock:
            self._tokens.pop(digest, None)

    def forget_where(self, gone: Callable[[Identity], bool]) -> None:
        with self._lock:
            for digest in [d for d, entry in self._tokens.items() if gone(entry.identity)]:
                del self._tokens[digest]

    def observe(self, revoked: Callable[[set[str]], None]) -> None:
        """``revoked(token_ids)`` for each revocation heard (a bound method, held weakly)."""
        with self._lock:
            self._observers = [o for o in self._observers if o() is not None] + [weakref.WeakMethod(revoked)]

    def _epoch(self) -> int | None:
        return self._notices.listening_to(REVOKED_CHANNEL) if self._notices is not None else None

    def _hear(self, payload: str) -> None:
        token_ids = {part for part in payload.split(",") if part}
        self._heard += 1
        self.forget_where(lambda identity: identity.token_id in token_ids)
        for observer in list(self._observers):
            revoked = observer()
            if revoked is not None:
                revoked(token_ids)
