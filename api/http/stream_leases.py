"""The per-player cap on open streams, held across every API process of a
deployment: each open stream holds a lease in Redis.

A player's leases are one sorted set, ``boardlog:streams:<player>``; a
member is one stream (``host:pid:random``, so an operator can tell whose it
is), its score the time its lease expires. Opening a stream runs one Lua
script that drops the expired members, counts the rest and adds the new one
only if that count is under the cap: checked and taken in one step, so two
processes cannot both take the last slot. While the stream lives its lease
is renewed: its loop wakes at least once a heartbeat and renews the lease
when half a heartbeat has passed since the last renewal, so about once a
heartbeat. When the stream closes the lease is removed. A process that dies
without closing its streams leaves leases nobody renews: they expire
``LEASE_HEARTBEATS`` heartbeats after their last renewal (45 s by default)
and count no more, so no player stays locked out. A live stream's renewal
may come a heartbeat and a half late before its lease lapses; a write that
blocks it longer than the write timeout (10 s) is killed anyway. The set
itself expires when its last lease would.

A renewal puts back a lease that lapsed meanwhile (a long Redis outage, a
stalled process, Redis flushed): the stream is open, so it counts again,
even if that takes the player over the cap until one closes.

Times are the API process's wall clock (``time.time``, injectable for
tests): processes on several machines must agree on the time within a
heartbeat or so, which NTP gives.

Redis unreachable: a stream opens anyway (fail open, as the rate limiter
does) and a warning is logged once per outage; the process's own count of
the player's streams still caps them at ``per_player`` on that process
(``Streams.open`` checks it first, with or without Redis). No Redis
configured (some tests, a single process): that in-process count is the cap.
A stream opened while Redis could not be reached holds no lease for its
life (an hour at most, ``BOARDLOG_STREAM_LIFETIME``); it reconnects with one.
"""

from __future__ import annotations

import logging
import os
import socket
import time
import uuid

log = logging.getLogger("boardlog.streams")
LEASE_HEARTBEATS = 3
KEY = "boardlog:streams:{}"

# KEYS[1] the player's set; ARGV: now, expiry of the new lease, cap, member, seconds the set lives.
TAKE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local held = redis.call('ZCARD', KEYS[1])
if held >= tonumber(ARGV[3]) then
  return {0, held}
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[5]))
return {1, held + 1}
"""

# KEYS[1] the player's set; ARGV: new expiry, member, seconds the set lives.
RENEW = """
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[3]))
return 1
"""


class Refused(Exception):
    """The player holds ``per_player`` live leases already."""


class Lease:
    __slots__ = ("key", "member", "renew_at")

    def __init__(self, key: str, member: str, renew_at: float):
        self.key, self.member, self.renew_at = key, member, renew_at


class StreamLeases:
    def __init__(self, redis, per_player: int, heartbeat: float, clock=time.time):
        self.redis = redis
        self.per_player = per_player
        self.heartbeat = heartbeat
        self.seconds = LEASE_HEARTBEATS * heartbeat
        self.clock = clock
        self._take = redis.register_script(TAKE)
        self._renew = redis.register_script(RENEW)
        self._prefix = f"{socket.gethostname()}:{os.getpid()}:"
        self._outage = False

    def take(self, player: str) -> Lease | None:
        """A lease on one of the player's slots; None when Redis cannot be
        reached (the stream opens all the same); Refused when all are held."""
        key, member, now = KEY.format(player), self._prefix + uuid.uuid4().hex[:16], self.clock()
        try:
            taken, _held = self._take(keys=[key], args=[now, now + self.seconds, self.per_player, member,
                                                        self._ttl()])
        except Exception:  # a Redis outage must not close the streams to everyone
            self._unreachable("streams open without the per-player cap across processes")
            return None
        self._reachable()
        if not taken:
            raise Refused()
        return Lease(key, member, now + self.heartbeat / 2)

    def keep(self, lease: Lease | None) -> None:
        """Renew the lease when half a heartbeat has passed since it was taken or renewed."""
        if lease is None:
            return
        now = self.clock()
        if now < lease.renew_at:
            return
        try:
            self._renew(keys=[lease.key], args=[now + self.seconds, lease.member, self._ttl()])
        except Exception:
            self._unreachable("stream leases not renewed")
            return
        self._reachable()
        lease.renew_at = now + self.heartbeat / 2

    def release(self, lease: Lease | None) -> None:
        if lease is None:
            return
        try:
            self.redis.zrem(lease.key, lease.member)
        except Exception:  # it expires by itself
            self._unreachable("a closed stream's lease left to expire")

    def held(self, player: str) -> int:
        """The player's live leases, across all processes."""
        return self.redis.zcount(KEY.format(player), f"({self.clock()}", "+inf")

    def _ttl(self) -> int:
        return int(self.seconds) + 1

    def _unreachable(self, what: str) -> None:
        if not self._outage:
            self._outage = True
            log.warning("Redis unreachable: %s", what)

    def _reachable(self) -> None:
        if self._outage:
            self._outage = False
            log.info("Redis reachable again: the per-player stream cap holds across processes")
