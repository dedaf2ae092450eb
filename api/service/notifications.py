"""What a player configures for notifications: webhook endpoints, an e-mail
address (used only once confirmed), preferences; and the single-use tokens
of confirmation and unsubscribe links.

Tokens are random, mailed once, stored as sha256; using one is one UPDATE
that also checks it is unused and unexpired, so a token works once even when
two requests race.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import secrets
import uuid

from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from domain.notices import KINDS as WEBHOOK_KINDS  # turn, started, timed-out, ... rematch

from .errors import Conflict, InvalidRequest, NotFound, ServiceError

# Problem kinds of this module (one cause each): link-unknown (404), link-used,
# link-expired, link-for-old-address (409) for the links mails carry;
# webhook-not-found, delivery-not-found (404); too-many-webhooks,
# webhook-disabled, delivery-pending (409); mail-unavailable (503: this server sends no mail).
EMAIL_TURNS = ("off", "idle", "always")
MAX_WEBHOOKS = 10
MAX_EMAIL_LENGTH = 254
UNSUBSCRIBE_DAYS = 90
# Deliberately plain: one @, a dotted domain, no spaces or angle brackets.
EMAIL_FORM = re.compile(r"^[^@\s<>()\[\],;:\"]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$")


class MailUnavailable(ServiceError):
    """No SMTP server configured: a 503 (whether the server answers is the notifier's business)."""

    kind = "mail-unavailable"


def _error(cls, kind: str, message: str) -> ServiceError:
    return cls(message, kind=kind)


def _sha(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


# Tokens


def new_token(conn, player, purpose: str, email: str, lifetime: dt.timedelta) -> str:
    token = secrets.token_urlsafe(32)
    conn.execute("insert into email_tokens (token_sha256, player_id, purpose, email, expires_at)"
                 " values (%s, %s, %s, %s, now() + %s)", (_sha(token), player, purpose, email, lifetime))
    return token


def use_token(conn, token: str, purpose: str) -> tuple[str, str]:
    """(player, email) of an unused, unexpired token, now used; else an error that says which."""
    what = "confirmation" if purpose == "confirm" else "unsubscribe"
    if not isinstance(token, str) or not 1 <= len(token) <= 200:
        raise _error(NotFound, "link-unknown", f"this {what} link is not one boardlog sent")
    row = conn.execute(
        "update email_tokens set used_at = now() where token_sha256 = %s and purpose = %s"
        " and used_at is null and expires_at > now() returning player_id, email",
        (_sha(token), purpose)).fetchone()
    if row is not None:
        return str(row[0]), row[1]
    known = conn.execute("select used_at, expires_at from email_tokens where token_sha256 = %s and purpose = %s",
                         (_sha(token), purpose)).fetchone()
    if known is None:
        raise _error(NotFound, "link-unknown", f"this {what} link is not one boardlog sent")
    if known[0] is not None:
        raise _error(Conflict, "link-used", f"this {what} link was already used; each link works once")
    raise _error(Conflict, "link-expired", f"this {what} link has expired"
                 + ("; set your address again to get a new one" if purpose == "confirm" else ""))


def unsubscribe_link(conn, player, email: str, config) -> str:
    token = new_token(conn, player, "unsubscribe", email, dt.timedelta(days=UNSUBSCRIBE_DAYS))
    return f"{config.public_url}/v1/notifications/unsubscribe?token={token}"


# Preferences


def preferences(conn, player) -> dict:
    row = conn.cursor(row_factory=dict_row).execute(
        "select email, email_confirmed_at, email_turns, digest from notification_preferences where player_id = %s",
        (player,)).fetchone()
    row = row or {"email": None, "email_confirmed_at": None, "email_turns": "idle", "digest": False}
    return {"email": row["email"], "email_confirmed": row["email_confirmed_at"] is not None,
            "email_turns": row["email_turns"], "digest": row["digest"]}


def check_email(email: str) -> str:
    if len(email) > MAX_EMAIL_LENGTH or not EMAIL_FORM.match(email):
        raise InvalidRequest(f"{email[:80]!r} is not an e-mail address", errors={"email": ["not an e-mail address"]})
    return email


def update_preferences(conn, player, changes: dict, config) -> dict:
    """Apply ``changes``; if the address changed (or is set again while still
    unconfirmed), a confirmation mail is queued in the outbox, in the same
    transaction: the notifier sends it, so the request never waits on SMTP."""
    with conn.transaction():
        conn.execute("insert into notification_preferences (player_id) values (%s) on conflict do nothing", (player,))
        current = preferences(conn, player)
        if "email_turns" in changes:
            conn.execute("update notification_preferences set email_turns = %s, updated_at = now()"
                         " where player_id = %s", (changes["email_turns"], player))
        if "digest" in changes:
            conn.execute("update notification_preferences set digest = %s, updated_at = now() where player_id = %s",
                         (changes["digest"], player))
        resend = changes.get("email") is not None and not current["email_confirmed"]
        if "email" in changes and (changes["email"] != current["email"] or resend):
            email = changes["email"]
            conn.execute("update notification_preferences set email = %s, email_confirmed_at = null,"
                         " updated_at = now() where player_id = %s", (email, player))
            if email is not None:
                if not config.smtp_url:
                    raise MailUnavailable("this server sends no mail (BOARDLOG_SMTP_URL is unset), so an address "
                                          "cannot be confirmed")
                queue_confirmation(conn, player, email)
        return preferences(conn, player)


# The confirmation mail, through the outbox

CONFIRMATION_KIND = "email-confirmation"
CONFIRMATION_TARGET = "confirmation"
WAKE_CHANNEL = "boardlog_deliveries"  # the notifier's delivery loop LISTENs to it
SUBSCRIPTION = "notifications"  # the notifier's catch-up subscription to the feed (its checkpoint's name)
# How often a notifier with nothing to do says it is alive (subscriptions.updated_at),
# and how old that sign may grow before /readyz calls the notifier silent.
HEARTBEAT_SECONDS = 5.0
SILENT_AFTER_SECONDS = 60.0


def queue_confirmation(conn, player, email: str) -> str:
    """A confirmation mail to ``email`` in the outbox; its notification's id.
    The link's token is made when the mail leaves (confirmation_link), so
    that no usable link waits in the database."""
    notification = f"c{uuid.uuid4().hex}"
    conn.execute("insert into notifications (id, player_id, kind, payload, event_at)"
                 " values (%s, %s, %s, %s, now())",
                 (notification, player, CONFIRMATION_KIND, Jsonb({"email": email})))
    conn.execute("insert into deliveries (notification_id, target, player_id) values (%s, %s, %s)",
                 (notification, CONFIRMATION_TARGET, player))
    conn.execute("select pg_notify(%s, '')", (WAKE_CHANNEL,))
    return notification


def unconfirmed_address(conn, player, email: str) -> bool:
    """Whether ``email`` is still the player's address, and not yet confirmed
    (else a queued confirmation mail is not sent)."""
    row = conn.execute("select email, email_confirmed_at from notification_preferences where player_id = %s",
                       (player,)).fetchone()
    return row is not None and row[0] == email and row[1] is None


def confirmation_link(conn, player, email: str, config) -> str:
    token = new_token(conn, player, "confirm", email, dt.timedelta(hours=config.token_hours))
    return f"{config.public_url}/v1/notifications/confirm?token={token}"


def confirm(conn, token: str) -> dict:
    with conn.transaction():
        player, email = use_token(conn, token, "confirm")
        changed = conn.execute("update notification_preferences set email_confirmed_at = now()"
                               " where player_id = %s and email = %s", (player, email)).rowcount
        if not changed:
            raise _error(Conflict, "link-for-old-address", "this link confirms an address that is no longer yours on "
                         "boardlog; confirm the newest address with the newest link")
        return {"email": email, **preferences(conn, player)}


def unsubscribe(conn, token: str) -> dict:
    with conn.transaction():
        player, email = use_token(conn, token, "unsubscribe")
        conn.execute("update notification_preferences set email_turns = 'off', digest = false, updated_at = now()"
                     " where player_id = %s and email = %s", (player, email))
        return {"email": email, "email_turns": "off", "digest": False}


# Webhooks

_HOOK_COLUMNS = ("id, url, kinds, created_at, disabled_at, disabled_reason, consecutive_failures")


def _hook(row: dict) -> dict:
    return {**row, "kinds": list(row["kinds"]), "enabled": row["disabled_at"] is None}


def create_webhook(conn, player, url: str, kinds: list[str], secret: str) -> dict:
    with conn.transaction():
        conn.execute("select id from players where id = %s for update", (player,))
        count = conn.execute("select count(*) from webhooks where player_id = %s and deleted_at is null",
                             (player,)).fetchone()[0]
        if count >= MAX_WEBHOOKS:
            raise _error(Conflict, "too-many-webhooks", f"a player may have at most {MAX_WEBHOOKS} webhooks; "
                         "delete one first")
        row = conn.cursor(row_factory=dict_row).execute(
            f"insert into webhooks (id, player_id, url, kinds, secret) values (%s, %s, %s, %s, %s)"
            f" returning {_HOOK_COLUMNS}", (uuid.uuid4(), player, url, sorted(set(kinds)), secret)).fetchone()
    return {**_hook(row), "secret": secret}


def webhooks(conn, player) -> list[dict]:
    rows = conn.cursor(row_factory=dict_row).execute(
        f"select {_HOOK_COLUMNS} from webhooks where player_id = %s and deleted_at is null order by created_at",
        (player,)).fetchall()
    return [_hook(row) for row in rows]


def webhook(conn, player, webhook_id) -> dict:
    row = conn.cursor(row_factory=dict_row).execute(
        f"select {_HOOK_COLUMNS} from webhooks where id = %s and player_id = %s and deleted_at is null",
        (webhook_id, player)).fetchone()
    if row is None:
        raise _error(NotFound, "webhook-not-found", f"you have no webhook {webhook_id}")
    return _hook(row)


def delete_webhook(conn, player, webhook_id) -> None:
    with conn.transaction():
        webhook(conn, player, webhook_id)
        conn.execute("update webhooks set deleted_at = now() where id = %s", (webhook_id,))
        conn.execute("update deliveries set status = 'dead', reason = 'the endpoint was deleted'"
                     " where webhook_id = %s and status = 'pending'", (webhook_id,))


def enable_webhook(conn, player, webhook_id) -> dict:
    webhook(conn, player, webhook_id)
    conn.execute("update webhooks set disabled_at = null, disabled_reason = null, consecutive_failures = 0,"
                 " failing_since = null where id = %s", (webhook_id,))
    return webhook(conn, player, webhook_id)


def deliveries(conn, player, webhook_id, status: str | None, limit: int, before: int | None) -> list[dict]:
    webhook(conn, player, webhook_id)
    return _log(conn, "d.webhook_id = %s", webhook_id, status, limit, before)


def mail_deliveries(conn, player, status: str | None, limit: int, before: int | None) -> list[dict]:
    return _log(conn, "d.player_id = %s and d.target = 'email'", player, status, limit, before)


def _log(conn, which: str, key, status: str | None, limit: int, before: int | None) -> list[dict]:
    """Deliveries, newest first, each with every attempt."""
    rows = conn.cursor(row_factory=dict_row).execute(
        "select d.id, d.notification_id, n.kind, n.game_id, n.version, d.status, d.attempts, d.next_attempt_at,"
        " d.last_status, d.last_error, d.reason, d.delivered_at, d.created_at"
        " from deliveries d join notifications n on n.id = d.notification_id"
        f" where {which} and (%s::text is null or d.status = %s::text)"
        " and (%s::bigint is null or d.id < %s::bigint) order by d.id desc limit %s",
        (key, status, status, before, before, limit)).fetchall()
    attempts = conn.cursor(row_factory=dict_row).execute(
        "select delivery_id, attempt, at, status_code, error, duration_ms from delivery_attempts"
        " where delivery_id = any(%s) order by id", ([row["id"] for row in rows],)).fetchall()
    logs: dict[int, list] = {}
    for attempt in attempts:
        logs.setdefault(attempt.pop("delivery_id"), []).append(attempt)
    for row in rows:
        row["log"] = logs.get(row["id"], [])
        if row["status"] != "pending":
            row["next_attempt_at"] = None
    return rows


def redeliver(conn, player, webhook_id, delivery_id: int) -> dict:
    hook = webhook(conn, player, webhook_id)
    if not hook["enabled"]:
        raise _error(Conflict, "webhook-disabled", "this webhook is disabled ("
                     f"{hook['disabled_reason']}); enable it first with POST .../enable")
    return _requeue(conn, delivery_id, "webhook_id = %s", webhook_id,
                    f"webhook {webhook_id} has no delivery {delivery_id}")


def redeliver_mail(conn, player, delivery_id: int) -> dict:
    """Send a mail delivery again (a dead letter, or one sent or skipped): the
    throttle and the preferences are applied again when it goes out."""
    return _requeue(conn, delivery_id, "player_id = %s and target = 'email'", player,
                    f"you have no mail delivery {delivery_id}")


def _requeue(conn, delivery_id: int, whose: str, key, unknown: str) -> dict:
    """Queue a delivery again, with a fresh round of attempts; ``whose`` limits it to the caller's."""
    changed = conn.execute(
        "update deliveries set status = 'pending', attempts = 0, next_attempt_at = now(), reason = null"
        f" where id = %s and {whose} and status <> 'pending'", (delivery_id, key)).rowcount
    if not changed:
        if conn.execute(f"select 1 from deliveries where id = %s and {whose}", (delivery_id, key)).fetchone() is None:
            raise _error(NotFound, "delivery-not-found", unknown)
        raise _error(Conflict, "delivery-pending", f"delivery {delivery_id} is already waiting to be sent")
    conn.execute("select pg_notify(%s, '')", (WAKE_CHANNEL,))
    return {"id": delivery_id, "status": "pending"}
