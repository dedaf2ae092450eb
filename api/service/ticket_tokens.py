"""Whether the token a signed stream ticket names still stands, decided in
the common case without PostgreSQL, with the bound every token has in this
server (BOARDLOG_TOKEN_CACHE_SECONDS, api/service/players.py):

- a token revoked in this process (``revoked``: every revocation here, and
  every one the stream sweeper finds, passes through ``Streams.tokens_revoked``)
  stands no more, at once;
- a ticket says when its issuing process last read its token from
  PostgreSQL and found it live (``checked_at``, signed with the rest): that
  read is trusted for the token cache time, as that process trusts it for
  every request of that token; and for as long as the ticket lives when this
  process has heard every revocation committed since that read (its LISTEN
  connection has listened to revocations without a break since before it,
  api/service/token_cache.py): a revocation after the read was then heard
  here, and is remembered for as long as such a ticket may be used;
- else the last read this process made of that token id is trusted for the
  token cache time;
- else one read by primary key, remembered.

So a token revoked in another process may open a stream here only while
this process cannot hear revocations, within the token cache time, as its
bearer token may make any request here. Times are wall-clock seconds (the
ticket crosses processes, maybe machines: they must agree on the time
within a second or so, which NTP gives).
"""

from __future__ import annotations

import threading
import time

from .token_cache import REVOKED_CHANNEL

MAX_REMEMBERED = 100_000


class TicketTokens:
    def __init__(self, pool, cache_seconds: float, clock=time.time, ticket_seconds: float = 0, hears=None):
        """``hears``: the event store, whose LISTEN connection hears revocations
        (``listening_since``); ``ticket_seconds``: how long a ticket lives."""
        self.pool = pool
        self.seconds = cache_seconds
        self.clock = clock
        self._listening_since = getattr(hears, "listening_since", None)
        # A revocation is remembered as long as a ticket whose token was read before it may still be used.
        self.remember = cache_seconds + ticket_seconds
        self._lock = threading.Lock()
        self._revoked: dict[str, float] = {}  # token id -> when this process learnt it was revoked
        self._live: dict[str, float] = {}  # token id -> until when a read of it (found live) is trusted
        self.reads = 0  # reads from PostgreSQL so far (tests compare it with the streams opened)

    def revoked(self, token_ids) -> None:
        """These tokens stand no more: forget any read of them, and remember
        them for as long as a ticket's own check of them could be trusted."""
        now = self.clock()
        with self._lock:
            for old in [token for token, when in self._revoked.items() if now - when > self.remember]:
                del self._revoked[old]
            for token in token_ids:
                self._revoked[str(token)] = now
                self._live.pop(str(token), None)

    def stands(self, token_id: str, checked_at: float | None) -> bool:
        now = self.clock()
        with self._lock:
            if token_id in self._revoked:
                return False
            if checked_at is not None and (0 <= now - checked_at < self.seconds or self._heard_since(checked_at)):
                return True
            if self._live.get(token_id, float("-inf")) > now:
                return True
        self.reads += 1
        with self.pool.connection() as conn:
            row = conn.execute("select revoked_at is null from player_tokens where id = %s", (token_id,)).fetchone()
        live = bool(row and row[0])
        if live:
            with self._lock:
                if len(self._live) >= MAX_REMEMBERED:
                    self._live.clear()
                if token_id not in self._revoked:
                    self._live[token_id] = now + self.seconds
        return live

    def _heard_since(self, checked_at: float) -> bool:
        """Whether every revocation committed since ``checked_at`` was heard here."""
        if self._listening_since is None:
            return False
        since = self._listening_since(REVOKED_CHANNEL)
        return since is not None and since <= checked_at
