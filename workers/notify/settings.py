"""The notifier's settings, read from the environment each time they are
needed (cheap, and tests may change them)."""

from __future__ import annotations

import os
from dataclasses import dataclass


def _float(name: str, default: float) -> float:
    return float(os.environ.get(name, default))


def _int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


def _allowed(value: str):
    """BOARDLOG_WEBHOOK_ALLOW_PRIVATE: 1 allows every private, loopback and
    link-local address; a comma-separated list of networks allows just those."""
    import ipaddress

    value = value.strip()
    if value.lower() in ("1", "true", "yes", "all"):
        return True
    if value.lower() in ("", "0", "false", "no"):
        return ()
    return tuple(ipaddress.ip_network(part.strip(), strict=False) for part in value.split(",") if part.strip())


DEFAULT_BACKOFF = (10, 60, 300, 1800, 7200, 21600, 43200)  # seconds before attempt 2, 3, ...


@dataclass(frozen=True)
class Settings:
    smtp_url: str | None
    mail_from: str
    public_url: str
    allow_private_targets: object  # True (all), or a tuple of ip networks allowed despite being private
    webhook_timeout: float
    webhook_max_response: int
    backoff: tuple[float, ...]
    disable_after: int
    email_interval: float
    active_window: float
    token_hours: float
    claim_seconds: float

    @property
    def max_attempts(self) -> int:
        return len(self.backoff) + 1


def settings() -> Settings:
    env = os.environ
    backoff = env.get("BOARDLOG_NOTIFY_BACKOFF")
    return Settings(
        smtp_url=env.get("BOARDLOG_SMTP_URL") or None,
        mail_from=env.get("BOARDLOG_MAIL_FROM", "boardlog <boardlog@localhost>"),
        public_url=env.get("BOARDLOG_PUBLIC_URL", "http://127.0.0.1:8000").rstrip("/"),
        allow_private_targets=_allowed(env.get("BOARDLOG_WEBHOOK_ALLOW_PRIVATE", "")),
        webhook_timeout=_float("BOARDLOG_WEBHOOK_TIMEOUT", 5.0),
        webhook_max_response=_int("BOARDLOG_WEBHOOK_MAX_RESPONSE", 64 * 1024),
        backoff=tuple(float(s) for s in backoff.split(",")) if backoff else DEFAULT_BACKOFF,
        disable_after=_int("BOARDLOG_WEBHOOK_DISABLE_AFTER", 20),
        email_interval=_float("BOARDLOG_EMAIL_INTERVAL", 3600),
        active_window=_float("BOARDLOG_EMAIL_ACTIVE_WINDOW", 300),
        token_hours=_float("BOARDLOG_EMAIL_TOKEN_HOURS", 48),
        claim_seconds=_float("BOARDLOG_NOTIFY_CLAIM_SECONDS", 120),
    )
