"""Fixed-window request limits per token and per client address, counted in
Redis so that every API process shares them."""

from __future__ import annotations

import hashlib
import logging
import time

from .errors import problem

log = logging.getLogger("boardlog.limits")
WINDOW = 60
UNLIMITED = frozenset({"/healthz", "/readyz"})  # probes of load balancers and orchestrators


class RateLimiter:
    def __init__(self, redis, per_minute: int):
        self.redis = redis
        self.per_minute = per_minute

    def check(self, request):
        """None when the request may pass; a 429 problem response otherwise."""
        if self.redis is None or self.per_minute <= 0 or request.path in UNLIMITED:
            return None
        window = int(time.time()) // WINDOW
        subjects = [f"addr:{request.remote_addr}"]
        auth = request.headers.get("Authorization")
        if auth:
            subjects.append("token:" + hashlib.sha256(auth.encode()).hexdigest()[:32])
        try:
            pipe = self.redis.pipeline()
            for subject in subjects:
                key = f"boardlog:rate:{subject}:{window}"
                pipe.incr(key)
                pipe.expire(key, WINDOW * 2)
            counts = pipe.execute()[::2]
        except Exception:  # a Redis outage must not take the API down with it
            log.warning("rate limiting skipped: Redis unreachable")
            return None
        if max(counts) <= self.per_minute:
            return None
        retry_after = WINDOW - int(time.time()) % WINDOW
        return problem(
            429,
            f"more than {self.per_minute} requests in a minute; try again in {retry_after} s",
            kind="rate-limited",
            headers={"Retry-After": str(retry_after)},
        )
