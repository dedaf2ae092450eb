"""Request limits, counted in Redis so that every API process shares them.

A sliding-window counter: the count of the current minute plus the previous
minute's, weighted by how much of it the last sixty seconds still cover. A
fixed window would let a client send twice its limit across a minute's
boundary; this one never lets more than the limit through in any sixty
seconds, give or take the weighting. Refused requests are not counted, so a
client that keeps knocking is let in again once its rate falls, and its
Retry-After is exact: the wait until one more request fits.

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
import time

from flask import g

from .auth import current_player
from .errors import problem
from .service.errors import Unauthorized

log = logging.getLogger("boardlog.limits")
WINDOW = 60
UNLIMITED = frozenset({"/healthz", "/readyz"})  # probes of load balancers and orchestrators


def _subject(request) -> str:
    if request.headers.get("Authorization"):
        try:
            if current_player(required=False) is not None:
                return f"token:{g.token_id}"
        except Unauthorized:  # refused later by the endpoint that needs a player; counted by address here
            pass
    return f"addr:{request.remote_addr}"


# Checked and counted in one step, so that two API processes cannot both
# let in the request that fills the window.
ADMIT = """
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local previous = tonumber(redis.call('GET', KEYS[2]) or '0')
if previous * (1 - tonumber(ARGV[2])) + current + 1 > tonumber(ARGV[1]) then
  return {0, previous, current}
end
redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[3]))
return {1, previous, current + 1}
"""


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


class RateLimiter:
    def __init__(self, redis, per_minute: int, clock=time.time):
        self.redis = redis
        self.per_minute = per_minute
        self.clock = clock
        self.admit = redis.register_script(ADMIT) if redis is not None else None

    def check(self, request):
        """None when the request may pass; a 429 problem response otherwise."""
        if self.redis is None or self.per_minute <= 0 or request.path in UNLIMITED:
            return None
        now = self.clock()
        window, elapsed = divmod(now, WINDOW)
        subject = f"boardlog:rate:{_subject(request)}"
        try:
            admitted, previous, current = self.admit(
                keys=[f"{subject}:{int(window)}", f"{subject}:{int(window) - 1}"],
                args=[self.per_minute, elapsed / WINDOW, WINDOW * 2])
        except Exception:  # a Redis outage must not take the API down with it
            log.warning("rate limiting skipped: Redis unreachable")
            return None
        if admitted:
            return None
        retry_after = seconds_until_admitted(self.per_minute, previous, current, elapsed / WINDOW)
        return problem(
            429,
            f"more than {self.per_minute} requests in a minute; try again in {retry_after} s",
            kind="rate-limited",
            headers={"Retry-After": str(retry_after)},
        )
