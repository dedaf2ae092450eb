"""Cross-origin answers: browser frontends on other origins may call the
API (``BOARDLOG_CORS_ORIGINS``, comma-separated, ``*`` for any)."""

from __future__ import annotations

ALLOW_HEADERS = "Authorization, Content-Type, If-Match, If-None-Match, Idempotency-Key, Last-Event-ID"
ALLOW_METHODS = "GET, POST, PATCH, DELETE, OPTIONS"
EXPOSE_HEADERS = "ETag, Link, Location, Retry-After, X-Request-Id, RateLimit, RateLimit-Policy, Idempotent-Replayed"


class CorsPolicy:
    def __init__(self, origins: str):
        self.allowed = frozenset(origin.strip() for origin in origins.split(",") if origin.strip())
        self.any = "*" in self.allowed

    def headers(self, origin: str | None) -> tuple[list[tuple[str, str]], bool]:
        """The CORS fields to answer a request from ``origin`` with, and
        whether the answer then varies by Origin (a named origin, not ``*``)."""
        if not origin or not self.allowed:
            return [], False
        if self.any:
            allowed, named = "*", False
        elif origin in self.allowed:
            allowed, named = origin, True
        else:
            return [], False
        return [("Access-Control-Allow-Origin", allowed), ("Access-Control-Allow-Headers", ALLOW_HEADERS),
                ("Access-Control-Allow-Methods", ALLOW_METHODS), ("Access-Control-Expose-Headers", EXPOSE_HEADERS),
                ("Access-Control-Max-Age", "600")], named
