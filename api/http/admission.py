"""Admission: which waiters (streams and waiting long-polls) a process takes
in, and the limits that refuse the others before any work, each answered
with Retry-After and a problem document.

- The server: ``total`` waiters (BOARDLOG_MAX_WAITERS) across the workers of
  one gunicorn master, which share their counts (api/http/waiter_board.py), and
  never more than that in one process, whatever the others report; outside
  gunicorn, per process. 503 server-busy.
- Memory: while the process's resident memory is above ``max_memory_mb``
  (BOARDLOG_MAX_MEMORY_MB; 0: no such bound). 503 server-busy.
- The database pool, saturated (``pool_saturated``): a newcomer's work
  would only lengthen the queue. 503 server-busy.
- Shutting down: 503 shutting-down.
- One player: ``per_player`` open streams (429 too-many-streams), across
  the API processes of a deployment when the app has Redis (each stream
  holds a lease there, see api/http/stream_leases.py), else per process.
- One client: ``long_polls_per_token`` waiting long-polls per token, and
  ``waiters_per_address`` waiters with no token (spectators' streams and
  long-polls) per client address, per process (429 too-many-waiters), so
  that no one client fills a process and starves the others. A seated
  player's streams are bounded per player instead.

What a process holds is never touched by these limits: they refuse only
newcomers, so a process at its capacity keeps serving its waiters, and a
long-poll that answered keeps its place for its next one
(api/http/kept_places.py).
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from contextlib import contextmanager

from . import waiter_board
from .kept_places import KeptPlaces, Place, requesting_place
from .memory_return import MemoryReturn, resident_mib
from ..service.errors import Unauthorized
from ..service.settings import env_number
from .stream_leases import Refused, StreamLeases

TIMED_OUT_SECONDS = 5.0  # a pool whose requests timed out this recently is saturated while any queue
MEMORY_LOOK_SECONDS = 1.0  # the resident memory is read at most this often

Client = tuple[str, str]  # ("token", token id) or ("address", client address)


class StreamLimit(Exception):
    def __init__(self, status: int, detail: str, kind: str, retry_after: int):
        super().__init__(detail)
        self.status, self.detail, self.kind, self.retry_after = status, detail, kind, retry_after


def settings_from_env() -> dict:
    return {
        "per_player": env_number("BOARDLOG_STREAMS_PER_PLAYER", 8, minimum=1),
        "total": env_number("BOARDLOG_MAX_WAITERS", 12000, minimum=1),
        "long_polls_per_token": env_number("BOARDLOG_LONG_POLLS_PER_TOKEN", 16, minimum=1),
        "waiters_per_address": env_number("BOARDLOG_WAITERS_PER_ADDRESS", 500, minimum=1),
        "max_memory_mb": env_number("BOARDLOG_MAX_MEMORY_MB", 0, minimum=0),
        "return_memory": bool(env_number("BOARDLOG_RETURN_MEMORY", 1, minimum=0)),
        "heartbeat": env_number("BOARDLOG_HEARTBEAT_SECONDS", 15.0, minimum=0.01, kind=float),
        "write_timeout": env_number("BOARDLOG_STREAM_WRITE_TIMEOUT", 10.0, minimum=0.01, kind=float),
        "retry_ms": env_number("BOARDLOG_STREAM_RETRY_MS", 3000, minimum=0),
        "lifetime": env_number("BOARDLOG_STREAM_LIFETIME", 3600.0, minimum=0.01, kind=float),
        # Requests queued for a database connection at which new waiters are refused (0: the pool's size).
        "saturated_waiting": env_number("BOARDLOG_POOL_SATURATED_WAITING", 0, minimum=0),
    }


def requesting_client() -> Client | None:
    """The client of the request being served, for the per-client caps: the
    token it authenticated with (a bearer token or a ticket's), else its
    address (as werkzeug's ProxyFix gives it). None outside a request."""
    from flask import g, has_request_context, request

    if not has_request_context():
        return None
    token = g.get("token_id")
    return ("token", token) if token else ("address", request.remote_addr or "")


def revoked_while_waiting() -> Unauthorized:
    """What a long-poll answers when its token was revoked while it waited."""
    return Unauthorized("the token this request was made with was revoked while it waited: sign in again "
                        "(get a new token), then ask again", kind="token-unknown")


class Slot:
    """One open stream or long-poll."""

    __slots__ = ("player", "token", "client", "place", "greenlet", "writing_since", "written_at", "registry", "lease",
                 "watch", "revoked")

    def __init__(self, registry: "Waiters", player: str | None, token: str | None, client: Client | None,
                 place: Place | None = None):
        self.registry = registry
        self.player = player
        self.token = token  # the id of the bearer token the stream (or long-poll) was opened with, if any
        self.client = client  # what the per-client caps count it against, if anything
        self.place = place  # a long-poll's: the place it keeps for its next one, if any
        self.greenlet = _current_greenlet()
        self.writing_since: float | None = None
        self.written_at = time.monotonic()  # when the stream last wrote anything (a heartbeat is due 15 s on)
        self.lease = None  # the stream's lease in Redis, if any
        self.watch = None  # what the stream waits on, once it runs
        self.revoked = False  # its token was revoked: the stream (or long-poll) ends


def _current_greenlet():
    """The greenlet serving this request when gevent patched the process, else None."""
    import sys

    monkey = sys.modules.get("gevent.monkey")
    if monkey is None or not monkey.is_module_patched("socket"):
        return None
    import gevent

    return gevent.getcurrent()


class Waiters:
    """The waiters one process holds, and the limits on newcomers."""

    def __init__(self, service, per_player: int = 8, total: int = 12000, heartbeat: float = 15.0,
                 redis=None, clock=time.time, saturated_waiting: int = 0, long_polls_per_token: int = 16,
                 waiters_per_address: int = 500, max_memory_mb: int = 0, return_memory: bool = True,
                 retry_ms: int = 3000):
        """``redis``: where the per-player cap is counted across processes (None: in this one)."""
        self.service = service
        self.per_player = per_player
        self.total = total
        self.long_polls_per_token = long_polls_per_token
        self.waiters_per_address = waiters_per_address
        self.max_memory_mb = max_memory_mb
        self.saturated_waiting = saturated_waiting
        self.retry_ms = retry_ms
        self._pool_errors = 0  # the pool's count of requests that timed out, when last looked at
        self._timed_out_at: float | None = None  # when that count last grew
        self._memory_seen = (0.0, float("-inf"))  # (MiB resident, when read)
        self.draining = False
        self._lock = threading.Lock()
        self._slots: set[Slot] = set()
        self._streams_of: Counter = Counter()
        self._waiters_of: Counter = Counter()  # per client, for the per-client caps
        self._clock = clock
        self._kept = KeptPlaces(lambda: self._clock())  # for long-polls' next waits
        self.board = waiter_board.this_worker()  # the server's shared counts, under gunicorn
        self.memory = MemoryReturn() if return_memory else None
        self.leases = StreamLeases(redis, per_player, heartbeat, clock) if redis is not None else None

    # -- taking and giving back a place ------------------------------------------

    def open(self, player: str | None, stream: bool = True, token: str | None = None,
             client: Client | None = None, place: Place | None = None) -> Slot:
        """A slot for a new waiter, or StreamLimit (429 per player or client,
        503 for the server); ``token``: the id of the token a stream is opened
        with, which ends it when revoked; ``client``: who the caller is, for the
        per-client caps (a seated player's stream is capped per player instead);
        ``place``: a long-poll's, whose kept place it takes even when full."""
        saturated = self.pool_saturated()
        capped = client if not stream or player is None else None
        with self._lock:
            returning = not stream and place is not None and self._kept.take(place)
            self._refuse_if_full(saturated, returning)
            if stream and player is not None and self._streams_of[player] >= self.per_player:
                raise self._too_many()
            if capped is not None and self._waiters_of[capped] >= self._cap_of(capped):
                raise self._too_many_of(capped)
            slot = Slot(self, player if stream else None, token, capped, None if stream else place)
            self._slots.add(slot)
            if slot.player is not None:
                self._streams_of[player] += 1
            if capped is not None:
                self._waiters_of[capped] += 1
            self._counted()
        if slot.player is not None and self.leases is not None:
            try:
                slot.lease = self.leases.take(slot.player)  # outside the lock: a round trip to Redis
            except Refused:
                self.close(slot)
                raise self._too_many() from None
        self._opened(slot)
        return slot

    def _opened(self, slot: Slot) -> None:
        """What a subclass starts once a slot is taken (a watchdog, a sweeper)."""

    def admit(self) -> None:
        """StreamLimit (503) if a new waiter would be refused now: checked
        before a stream's open does any work (its game's load queues for the
        pool too), and again when it takes its slot."""
        saturated = self.pool_saturated()
        with self._lock:
            self._refuse_if_full(saturated)

    def close(self, slot: Slot) -> None:
        with self._lock:
            if slot not in self._slots:
                return
            self._slots.remove(slot)
            if slot.player is not None:
                self._streams_of[slot.player] -= 1
                if not self._streams_of[slot.player]:
                    del self._streams_of[slot.player]
            if slot.client is not None:
                self._waiters_of[slot.client] -= 1
                if not self._waiters_of[slot.client]:
                    del self._waiters_of[slot.client]
            self._counted()
        if self.leases is not None:
            self.leases.release(slot.lease)

    def _counted(self) -> None:
        """Under the lock: the new count, on the server's board and for memory's return."""
        held = len(self._slots)
        if self.board is not None:
            self.board.set(held + self._kept.total)
        if self.memory is not None:
            self.memory.held(held)

    def _keep(self, slot: Slot) -> None:
        """Renew the stream's lease when due (each loop of a stream, which wakes at least once a heartbeat)."""
        if self.leases is not None:
            self.leases.keep(slot.lease)

    @contextmanager
    def waiting(self, client: Client | None = None, token: str | None = None):
        """A long-poll's slot, counted against the server's total and against
        ``client`` (default: the caller of the request being served);
        ``token``: the id of the token it was asked with, whose revocation
        marks the slot ``revoked`` and wakes its ``watch``, as a stream's.
        Once it answers, its place is kept for its next long-poll."""
        slot = self.open(None, stream=False, client=client if client is not None else requesting_client(),
                         token=token, place=requesting_place())
        try:
            yield slot
        finally:
            self.close(slot)
            if slot.place is not None:
                with self._lock:
                    self._kept.keep(slot.place)
                    self._counted()

    def kept(self) -> int:
        """The places kept for long-polls' next waits, not yet taken or lapsed."""
        with self._lock:
            self._kept.lapse()
            return self._kept.total

    def wait_for_version(self, stream_id: str, version: int, timeout: float, token: str | None = None) -> int:
        """A long-poll: the stream's version once past ``version`` (or when
        ``timeout`` ran out), waited in a slot of its own; Unauthorized when
        ``token`` (the id of the token it was asked with) is revoked
        meanwhile, in this process or another: the wait ends then, and
        answers nothing that token's seat sees (as a stream ends)."""
        with self.waiting(token=token) as slot:
            def watching(watch):
                slot.watch = watch  # what tokens_revoked wakes

            current = self.service.store.wait_for_version(stream_id, version, timeout,
                                                          until=lambda: slot.revoked, watching=watching)
        if slot.revoked:
            raise revoked_while_waiting()
        return current

    def count(self) -> int:
        """The waiters this process holds."""
        with self._lock:
            return len(self._slots)

    def server_count(self) -> int:
        """The waiters the server holds: all its workers', or this process's outside gunicorn."""
        return self.board.server_total() if self.board is not None else self.count()

    # -- the limits ------------------------------------------------------------------

    def _refuse_if_full(self, saturated: bool, returning: bool = False) -> None:
        """``returning``: a long-poll that takes the place kept for it, which the total already counts."""
        if self.draining:
            raise StreamLimit(503, "this server is shutting down; connect again", "shutting-down",
                              max(1, self._retry() // 1000))
        self._kept.lapse()
        held = len(self._slots) + self._kept.total
        full = held >= self.total or (self.board is not None and self.board.server_total() >= self.total)
        if full and not returning:
            raise StreamLimit(503, f"this server holds its limit of {self.total} waiting requests; "
                                   "try again shortly", "server-busy", random.randint(2, 10))
        if saturated:
            raise StreamLimit(503, "this server's database connections are all in use and requests queue "
                                   "for them; try again shortly", "server-busy", random.randint(2, 10))
        if self.max_memory_mb and self._resident_mib() > self.max_memory_mb:
            raise StreamLimit(503, f"this server process uses more memory than its bound of {self.max_memory_mb} "
                                   "MiB; try again shortly", "server-busy", random.randint(2, 10))

    def _retry(self) -> int:
        """A reconnection delay in milliseconds, jittered (``retry_ms`` to twice
        that) so that the clients of one process do not all come back at once."""
        return self.retry_ms + random.randint(0, self.retry_ms)

    def _cap_of(self, client: Client) -> int:
        return self.long_polls_per_token if client[0] == "token" else self.waiters_per_address

    def _too_many(self) -> StreamLimit:
        return StreamLimit(429, f"you have {self.per_player} streams open, the most one player may at once; "
                                "close one (another tab or device) and try again", "too-many-streams", 30)

    def _too_many_of(self, client: Client) -> StreamLimit:
        if client[0] == "token":
            detail = (f"this token has {self.long_polls_per_token} long-polls waiting, the most one token may "
                      "at once; wait for one to answer, or follow the game with its stream instead")
        else:
            detail = (f"{self.waiters_per_address} requests without a token wait from your address, the most "
                      "one address may at once; close one and try again")
        return StreamLimit(429, detail, "too-many-waiters", random.randint(5, 15))

    def _resident_mib(self) -> float:
        """The process's resident memory, read at most once a second."""
        value, when = self._memory_seen
        now = time.monotonic()
        if now - when >= MEMORY_LOOK_SECONDS:
            value = resident_mib()
            self._memory_seen = (value, now)
        return value

    # -- saturation --------------------------------------------------------------

    def pool_stats(self) -> dict | None:
        """The database pool's size, free connections, queued requests and
        requests that timed out so far (None: no pool to ask)."""
        pool = getattr(self.service, "pool", None)
        if pool is None or not hasattr(pool, "get_stats"):
            return None
        stats = pool.get_stats()
        return {"max": pool.max_size, "size": stats.get("pool_size", 0),
                "available": stats.get("pool_available", 0), "waiting": stats.get("requests_waiting", 0),
                "timed_out": stats.get("requests_errors", 0)}

    def pool_saturated(self, stats: dict | None = None) -> bool:
        """No free connection, and requests queue for one: at least
        ``saturated_waiting`` of them (default twice the pool's size), or any
        while requests timed out waiting within the last ``TIMED_OUT_SECONDS``.
        A short queue behind a burst drains in milliseconds and is no reason
        to refuse anyone; a queue that long, or one whose requests give up, is."""
        stats = self.pool_stats() if stats is None else stats
        if stats is None:
            return False
        now = time.monotonic()
        if stats["timed_out"] > self._pool_errors:
            self._pool_errors, self._timed_out_at = stats["timed_out"], now
        if stats["available"] > 0 or stats["waiting"] == 0:
            return False
        if stats["waiting"] >= (self.saturated_waiting or 2 * stats["max"]):
            return True
        return self._timed_out_at is not None and now - self._timed_out_at < TIMED_OUT_SECONDS

    def saturation(self) -> dict:
        """What readiness reports: waiters held (this process's and the
        server's) against the limit, memory, and the pool."""
        stats = self.pool_stats()
        held, server = self.count(), self.server_count()
        memory = self._resident_mib()
        return {"waiters": held, "server_waiters": server, "max_waiters": self.total,
                "waiters_near_limit": max(held, server) >= 0.9 * self.total,
                "memory_mb": round(memory), "max_memory_mb": self.max_memory_mb or None,
                "memory_over_limit": bool(self.max_memory_mb) and memory > self.max_memory_mb,
                "pool": stats, "pool_saturated": self.pool_saturated(stats) if stats is not None else False,
                "draining": self.draining}
