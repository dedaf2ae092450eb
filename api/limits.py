"""Fixed-window request limits, counted in Redis so that every API process
shares them.

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
import time

from .errors import problem
from .service.errors import Unauthorized

log = logging.getLogger("boardlog.limits")
WINDOW = 60
UNLIMITED = frozenset({"/healthz", "/readyz"})  # probes of load balancers and orchestrators


def _subject(request) -> str:
    from .auth import current_player

    if request.headers.get("Authorization"):
        try:
            if current_player(required=False) is not None:
                from flask import g

                return f"token:{g.token_id}"
        except Unauthorized:  # refused later by the endpoint that needs a player; counted by address here
            pass
    return f"addr:{request.remote_addr}"


class RateLimiter:
    def __init__(self, redis, per_minute: int):
        self.redis = redis
        self.per_minute = per_minute

    def check(self, request):
        """None when the request may pass; a 429 problem response otherwise."""
        if self.redis is None or self.per_minute <= 0 or request.path in UNLIMITED:
            return None
        window = int(time.time()) // WINDOW
        key = f"boardlog:rate:{_subject(request)}:{window}"
        try:
            pipe = self.redis.pipeline()
            pipe.incr(key)
            pipe.expire(key, WINDOW * 2)
            count = pipe.execute()[0]
        except Exception:  # a Redis outage must not take the API down with it
            log.warning("rate limiting skipped: Redis unreachable")
            return None
        if count <= self.per_minute:
            return None
        retry_after = WINDOW - int(time.time()) % WINDOW
        return problem(
            429,
            f"more than {self.per_minute} requests in a minute; try again in {retry_after} s",
            kind="rate-limited",
            headers={"Retry-After": str(retry_after)},
        )
