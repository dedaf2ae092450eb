"""Request limits, shared by every API process through Redis, without a
Redis round trip on any request.

A sliding-window counter: the count of the current minute plus the previous
minute's, weighted by how much of it the last sixty seconds still cover. A
fixed window would let a client send twice its limit across a minute's
boundary; this one never lets more than the limit through in any sixty
seconds, give or take the weighting. Refused requests are not counted, so a
client that keeps knocking is let in again once its rate falls, and its
Retry-After is exact: the wait until one more request fits.

Each process decides on its own, from the counts it last learnt from Redis
plus what it has let in since, and tells Redis in one pipeline every
``sync_every`` seconds (0.5 by default) what it let in and learns what the
other processes did. A poll used to wait for a Redis script on every
request, a quarter of a worker's busy time under a crowd of pollers. The
price, said as a bound: a client spreading its requests over N processes
gets at most what it sends in one ``sync_every`` to each of the other N-1
processes beyond its limit; with one process the limit is exact. While
Redis is unreachable each process keeps counting on its own (so a client is
still limited, per process) and catches up once Redis answers.

A request with a valid token counts against that token only; any other
request (no token, or an unknown or revoked one) against its client
address. So one player over the limit slows down that player alone, not
everyone behind the same address (a frontend's backend serving many players,
a campus NAT), and registrations from that address still get through.
A made-up token buys nothing: it counts against the address.

The client address is the socket's peer unless the operator says how many
proxies in front of the API to trust (BOARDLOG_TRUSTED_PROXIES, 0 by
default); only then is X-Forwarded-For read (werkzeug's ProxyFix), since any
client can write that header.
"""

from __future__ import annotations

import logging
import math
import os
import threading
import time
import weakref
from dataclasses import dataclass, field

from flask import g

from .auth import current_player
from .errors import problem
from ..service.errors import Unauthorized

log = logging.getLogger("boardlog.limits")
WINDOW = 60
UNLIMITED = frozenset({"/healthz", "/readyz"})  # probes of load balancers and orchestrators


def _subject(request) -> str:
    if request.headers.get("Authorization"):
        try:
            if current_player(required=False) is not None:
                return token_subject(g.token_id)
        except Unauthorized:  # refused later by the endpoint that needs a player; counted by address here
            pass
    return address_subject(request.remote_addr)


def token_subject(token_id: str) -> str:
    return f"token:{token_id}"


def address_subject(address: str | None) -> str:
    return f"addr:{address}"


@dataclass(frozen=True)
class Admission:
    """``fields``: the RateLimit-Policy and RateLimit values to answer with
    (None: limits are off); ``retry_after``: seconds, when refused."""

    fields: tuple[str, str] | None
    retry_after: int | None


def seconds_until_admitted(limit: int, previous: int, current: int, elapsed: float, window: int = WINDOW) -> int:
    """How long a refused client waits until one more request fits, in whole
    seconds (at least 1): later in this window if the previous one's weight
    fading is enough, else into the next, where this window's count fades."""
    if current + 1 <= limit and previous > 0:
        fraction = 1 - (limit - 1 - current) / previous
        wait = (fraction - elapsed) * window
    else:
        fraction = max(0.0, 1 - (limit - 1) / current) if current else 0.0
        wait = (1 - elapsed + fraction) * window
    return max(1, math.ceil(wait))


@dataclass
class _Count:
    """What one process knows of one subject's requests."""

    window: int  # the minute these counts are of
    previous: int = 0  # the previous minute's count, all processes, as last learnt
    current: int = 0  # this minute's count, all processes, as last learnt (our own sent ones included)
    unsent: dict[int, int] = field(default_factory=dict)  # minute -> requests let in here, not yet told to Redis
    seen: float = 0.0  # when this process last checked the subject

    def roll(self, window: int) -> None:
        if window == self.window:
            return
        ours = self.unsent.get(self.window, 0)
        self.previous = self.current + ours if window == self.window + 1 else 0
        self.current, self.window = 0, window

    def total(self) -> int:
        return self.current + self.unsent.get(self.window, 0)


class RateLimiter:
    def __init__(self, redis, per_minute: int, clock=time.time, sync_every: float | None = 0.5):
        """``sync_every``: seconds between two exchanges with Redis, made by a
        thread of the limiter's own; None for none (a test calls ``sync``)."""
        self.redis = redis
        self.per_minute = per_minute
        self.policy = f'"default";q={per_minute};w={WINDOW}'  # RateLimit-Policy
        self.clock = clock
        self.sync_every = sync_every
        self._counts: dict[str, _Count] = {}
        self._lock = threading.Lock()
        self._syncer_pid: int | None = None
        self._warned_at = 0.0

    def check(self, request):
        """None when the request may pass; a 429 problem response otherwise."""
        if self.per_minute <= 0 or request.path in UNLIMITED:
            return None
        admission = self.admit(_subject(request))
        g.rate_limit = admission.fields
        if admission.retry_after is None:
            return None
        return problem(
            429,
            f"more than {self.per_minute} requests in a minute; try again in {admission.retry_after} s",
            kind="rate-limited",
            headers={"Retry-After": str(admission.retry_after)},
        )

    def admit(self, subject: str) -> "Admission":
        """Count one request of ``subject`` (``token:<id>`` or ``addr:<address>``)
        if it fits, from what this process knows now, without asking Redis; a
        refused one is not counted."""
        if self.per_minute <= 0:
            return Admission(None, None)
        now = self.clock()
        window, elapsed = divmod(now, WINDOW)
        with self._lock:
            count = self._counts.get(subject)
            if count is None:
                count = self._counts[subject] = _Count(int(window))
            count.roll(int(window))
            count.seen = now
            fraction = elapsed / WINDOW
            used = count.previous * (1 - fraction) + count.total()
            if used + 1 > self.per_minute:
                previous, current = count.previous, count.total()
            else:
                count.unsent[count.window] = count.unsent.get(count.window, 0) + 1
                previous = None
        if self.redis is not None and self.sync_every is not None and self._syncer_pid != os.getpid():
            self._start_syncer()
        if previous is None:
            # The requests that still fit, and when this minute's count stops
            # weighing in full (the IETF RateLimit fields,
            # draft-ietf-httpapi-ratelimit-headers; api/http/http_conventions.py sends them).
            return Admission((self.policy, f'"default";r={max(0, int(self.per_minute - used - 1))};'
                                           f't={max(1, math.ceil(WINDOW - elapsed))}'), None)
        retry_after = seconds_until_admitted(self.per_minute, previous, current, fraction)
        return Admission((self.policy, f'"default";r=0;t={retry_after}'), retry_after)

    def sync(self) -> None:
        """Tell Redis what this process let in since the last exchange, and
        learn every process's counts of the subjects seen here lately."""
        if self.redis is None:
            return
        now = self.clock()
        with self._lock:
            for subject in [s for s, c in self._counts.items() if now - c.seen > 2 * WINDOW and not c.unsent]:
                del self._counts[subject]
            sending = {subject: dict(count.unsent) for subject, count in self._counts.items()
                       if count.unsent or now - count.seen < WINDOW}
            for subject in sending:
                self._counts[subject].unsent = {}
        if not sending:
            return
        pipe = self.redis.pipeline(transaction=False)
        asked = []
        for subject, unsent in sending.items():
            key = f"boardlog:rate:{subject}"
            window = self._counts[subject].window if subject in self._counts else max(unsent)
            for minute, n in unsent.items():
                pipe.incrby(f"{key}:{minute}", n)
                pipe.expire(f"{key}:{minute}", WINDOW * 2)
            pipe.mget(f"{key}:{window - 1}", f"{key}:{window}")
            asked.append((subject, window, len(unsent) * 2))
        try:
            answers = pipe.execute()
        except Exception:  # Redis unreachable: keep what was not sent, count on our own meanwhile
            with self._lock:
                for subject, unsent in sending.items():
                    if not unsent:  # a subject sent only to learn the others' counts: nothing to keep
                        continue
                    count = self._counts.get(subject) or self._counts.setdefault(subject, _Count(max(unsent)))
                    for minute, n in unsent.items():
                        count.unsent[minute] = count.unsent.get(minute, 0) + n
            if now - self._warned_at > WINDOW:
                self._warned_at = now
                log.warning("rate limits are counted per process: Redis unreachable")
            return
        position = 0
        with self._lock:
            for subject, window, sent in asked:
                position += sent
                previous, current = answers[position]
                position += 1
                count = self._counts.get(subject)
                if count is None or count.window != window:
                    continue  # the minute turned meanwhile: the next exchange tells
                count.previous = max(count.previous, int(previous or 0))
                count.current = int(current or 0)

    def _start_syncer(self) -> None:
        with self._lock:
            if self._syncer_pid == os.getpid():
                return
            self._syncer_pid = os.getpid()
        threading.Thread(target=_sync_forever, args=(weakref.ref(self), self.sync_every, os.getpid()),
                         name="rate-limits", daemon=True).start()


def _sync_forever(limiter_ref, every: float, pid: int) -> None:
    """Until the limiter is gone (its app was dropped) or the process forked."""
    while True:
        time.sleep(every)
        limiter = limiter_ref()
        if limiter is None or limiter._syncer_pid != pid:
            return
        try:
            limiter.sync()
        except Exception:  # never let the thread die: limits would stop being shared
            log.exception("rate limit exchange with Redis failed")
        del limiter
