"""Settings read from the environment, by one parser with one error style:
a value that is not one stops the process with a sentence naming the
variable, not a traceback from int() or ipaddress.

The API, the workers and the notifier all read their settings through here.
The notifier's are read each time they are needed (cheap, and tests may
change them); a process checks them once when it starts (``check``), so a
bad value stops it there instead of failing a request or a delivery later.
"""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass


class SettingError(SystemExit):
    """A setting the process cannot start with (exits with its message)."""


def _refuse(name: str, what: str, text: str) -> SettingError:
    return SettingError(f"{name} must be {what}, not {text[:40]!r}")


def _number(name: str, text: str, minimum: float, kind: type):
    try:
        value = kind(text.strip()) if len(text) <= 20 else None
    except ValueError:
        value = None
    if value is None or value != value or value < minimum or value in (float("inf"), float("-inf")):
        raise _refuse(name, f"a {'whole ' if kind is int else ''}number of at least {minimum}", text)
    return value


def env_number(name: str, default: float, minimum: float = 0, kind: type = int):
    text = os.environ.get(name)
    if text is None or not text.strip():
        return default
    return _number(name, text, minimum, kind)


def env_numbers(name: str, default: tuple, minimum: float = 0, kind: type = float) -> tuple:
    """A comma-separated list of numbers (at least one), each as ``env_number`` reads it."""
    text = os.environ.get(name)
    if text is None or not text.strip():
        return default
    parts = text.split(",")
    if len(text) > 400 or any(not part.strip() for part in parts):
        raise _refuse(name, f"a comma-separated list of numbers of at least {minimum}", text)
    return tuple(_number(name, part, minimum, kind) for part in parts)


def env_networks(name: str):
    """True (every private, loopback and link-local address: 1, true, yes,
    all), nothing (unset, 0, false, no), or the comma-separated networks."""
    text = os.environ.get(name, "").strip()
    if text.lower() in ("1", "true", "yes", "all"):
        return True
    if text.lower() in ("", "0", "false", "no"):
        return ()
    try:
        return tuple(ipaddress.ip_network(part.strip(), strict=False) for part in text.split(",") if part.strip())
    except ValueError:
        raise _refuse(name, "1, 0 or a comma-separated list of networks (10.0.0.0/8, fd00::/8)", text) from None


def env_play_url(name: str) -> str | None:
    """A mail link template of the operator's own frontend: an http(s) URL
    holding ``{game_id}``, and optionally ``{code}`` (the sign-in code), which
    must stand in the fragment (after ``#``) so that no server log or Referer
    sees it. Unset: mails link to this server's web client."""
    text = os.environ.get(name, "").strip()
    if not text:
        return None
    what = ("an http(s) URL template holding {game_id} (and {code}, if at all, after the #), such as "
            "https://example.org/games/{game_id}#signin={code}")
    fragment = text.partition("#")[2]
    placeholders = text.replace("{game_id}", "").replace("{code}", "")
    if (not text.startswith(("https://", "http://")) or "{game_id}" not in text or len(text) > 1000
            or "{" in placeholders or "}" in placeholders or ("{code}" in text and "{code}" not in fragment)):
        raise _refuse(name, what, text)
    return text


def env_postgres_url(name: str) -> str | None:
    """A PostgreSQL connection URL (postgresql://...), or None when unset; only
    its form is checked here, the server it names when the process starts."""
    text = os.environ.get(name, "").strip()
    if not text:
        return None
    what = "a PostgreSQL URL such as postgresql://boardlog@standby.internal:5432/boardlog"
    if not text.startswith(("postgresql://", "postgres://")) or len(text) > 2000:
        raise _refuse(name, what, text)
    from psycopg.conninfo import conninfo_to_dict

    try:
        ports = str(conninfo_to_dict(text).get("port") or "5432")
    except Exception:  # psycopg's ProgrammingError names the fault in libpq's words
        raise _refuse(name, what, text) from None
    if not all(port.isascii() and port.isdigit() and 0 < int(port) < 65536 for port in ports.split(",")):
        raise _refuse(name, what, text)  # libpq would take it, and fail each connection later
    return text


# The notifier's settings

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
    signin_hours: float = 72.0
    play_url: str | None = None

    @property
    def max_attempts(self) -> int:
        return len(self.backoff) + 1


def settings() -> Settings:
    """The notifier's settings (webhooks, mail, the links mails carry)."""
    env = os.environ
    return Settings(
        smtp_url=env.get("BOARDLOG_SMTP_URL") or None,
        mail_from=env.get("BOARDLOG_MAIL_FROM", "boardlog <boardlog@localhost>"),
        public_url=env.get("BOARDLOG_PUBLIC_URL", "http://127.0.0.1:8000").rstrip("/"),
        allow_private_targets=env_networks("BOARDLOG_WEBHOOK_ALLOW_PRIVATE"),
        webhook_timeout=env_number("BOARDLOG_WEBHOOK_TIMEOUT", 5.0, minimum=0.01, kind=float),
        webhook_max_response=env_number("BOARDLOG_WEBHOOK_MAX_RESPONSE", 64 * 1024, minimum=0),
        backoff=env_numbers("BOARDLOG_NOTIFY_BACKOFF", DEFAULT_BACKOFF, minimum=0),
        disable_after=env_number("BOARDLOG_WEBHOOK_DISABLE_AFTER", 20, minimum=1),
        email_interval=env_number("BOARDLOG_EMAIL_INTERVAL", 3600, minimum=0, kind=float),
        active_window=env_number("BOARDLOG_EMAIL_ACTIVE_WINDOW", 300, minimum=0, kind=float),
        token_hours=env_number("BOARDLOG_EMAIL_TOKEN_HOURS", 48, minimum=0, kind=float),
        claim_seconds=env_number("BOARDLOG_NOTIFY_CLAIM_SECONDS", 120, minimum=0.1, kind=float),
        signin_hours=env_number("BOARDLOG_SIGNIN_CODE_HOURS", 72, minimum=0.01, kind=float),
        play_url=env_play_url("BOARDLOG_PLAY_URL"),
    )
