"""The delivery loop: takes due deliveries from the outbox, sends them, and
records every attempt.

A delivery is claimed by pushing its ``next_attempt_at`` a lease ahead
(``for update skip locked``, so notifiers share the outbox without taking the
same row), then sent, then recorded: delivered; or pending again after an
exponential backoff; or, once its attempts are used up, dead (a dead letter
the player can see and redeliver). A notifier killed between sending and
recording leaves the claim to expire, and the delivery is sent again: at
least once, and receivers deduplicate with ``webhook-id``.

An endpoint that fails ``disable_after`` attempts in a row (across its
deliveries) is disabled with the reason, its pending deliveries become dead
letters, and it gets no new ones until the player enables it again.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import smtplib
import time
from concurrent.futures import ThreadPoolExecutor

import psycopg
import psycopg_pool
from psycopg.rows import dict_row

from api.service import mail, signin, webhook_signatures
from api.service.push import Vapid
from api.service import notifications as accounts
from eventstore.pool import CheckedPool

from . import payloads, push, smtp, webhook
from api.service.settings import Settings, settings

log = logging.getLogger("boardlog.notify")
# The mails that say their notice's own sentence, by kind.
SAID = {"reminder": mail.reminder, "end-proposed": mail.proposal}

def claim(conn, limit: int, lease_seconds: float) -> list[dict]:
    """Due deliveries, each with its notification's whole payload (payloads.py: stored without its columns)."""
    claimed = conn.cursor(row_factory=dict_row).execute(
        "with due as (select id from deliveries where status = 'pending' and next_attempt_at <= now()"
        "  order by next_attempt_at limit %s for update skip locked)"
        " update deliveries d set next_attempt_at = now() + make_interval(secs => %s), attempts = d.attempts + 1"
        " from due, notifications n left join games g on g.id = n.game_id"
        " where d.id = due.id and n.id = d.notification_id"
        " returning d.id, d.notification_id, d.target, d.webhook_id, d.player_id, d.attempts, n.payload,"
        " n.game_id, n.event_at, n.kind, n.version, g.game",
        (limit, lease_seconds)).fetchall()
    for delivery in claimed:
        delivery["payload"] = payloads.readable(delivery["payload"], delivery["notification_id"], delivery.pop("kind"),
                                                delivery["game_id"], delivery.pop("version"), delivery["event_at"],
                                                delivery.pop("game"))
    return claimed


class Deliverer:
    def __init__(self, database_url: str, concurrency: int = 4):
        self.database_url = database_url
        self.pool = ThreadPoolExecutor(concurrency, thread_name_prefix="deliver")
        self.concurrency = concurrency
        self.db = CheckedPool(database_url, min_size=1, max_size=concurrency + 1,
                              kwargs={"autocommit": True, "connect_timeout": 10},
                              open=True, name="notifier-deliveries")
        self.vapid = Vapid(self.db)  # the notifier's own: made or read once, on the first push

    def close(self) -> None:
        self.pool.shutdown(wait=True)
        self.db.close()

    def step(self) -> int:
        """Claim and send one round of due deliveries; how many were attempted."""
        config = settings()
        with self.db.connection() as conn:
            claimed = claim(conn, self.concurrency * 4, config.claim_seconds)
        if not claimed:
            return 0
        list(self.pool.map(lambda d: self._deliver(d, config), claimed))
        return len(claimed)

    def _deliver(self, delivery: dict, config: Settings) -> None:
        try:
            with self.db.connection() as conn:
                if delivery["target"] == "email" and delivery["payload"]["kind"] in SAID:
                    self._reminder(conn, delivery, config)
                elif delivery["target"] == "email":
                    self._email(conn, delivery, config)
                elif delivery["target"] == accounts.CONFIRMATION_TARGET:
                    self._confirmation(conn, delivery, config)
                elif delivery["target"].startswith("push:"):
                    self._push(conn, delivery, config)
                else:
                    self._webhook(conn, delivery, config)
        except (psycopg.OperationalError, psycopg_pool.PoolTimeout):
            log.warning("delivery %s: PostgreSQL went away; the claim expires and it is sent again",
                        delivery["id"])
        except Exception:
            log.exception("delivery %s failed unexpectedly; the claim expires and it is tried again",
                          delivery["id"])

    # Webhooks

    def _webhook(self, conn, delivery: dict, config: Settings) -> None:
        hook = conn.execute("select url, secret, disabled_at, deleted_at from webhooks where id = %s",
                            (delivery["webhook_id"],)).fetchone()
        if hook is None or hook[3] is not None:
            _finish(conn, delivery, "dead", None, "the endpoint was deleted")
            return
        if hook[2] is not None:
            _finish(conn, delivery, "dead", None, "the endpoint is disabled")
            return
        url, secret = hook[0], hook[1]
        body = json.dumps({"type": delivery["payload"]["kind"], "timestamp": delivery["payload"]["occurred_at"],
                           "data": delivery["payload"]}, separators=(",", ":")).encode()
        outcome = webhook.post(url, body, webhook_signatures.headers(secret, delivery["notification_id"], body),
                               timeout=config.webhook_timeout, max_response=config.webhook_max_response,
                               allow_private=config.allow_private_targets)
        _attempt(conn, delivery, outcome.status, outcome.error, outcome.duration_ms)
        if outcome.ok:
            conn.execute("update webhooks set consecutive_failures = 0, failing_since = null where id = %s",
                         (delivery["webhook_id"],))
            _finish(conn, delivery, "delivered", outcome.status, None)
            return
        self._failed(conn, delivery, outcome.status, outcome.error, config)
        self._count_failure(conn, delivery["webhook_id"], outcome.error, config)

    def _push(self, conn, delivery: dict, config: Settings) -> None:
        """One push; a push service answering 404 or 410 says the device
        unsubscribed, and its subscription goes (with what it had pending)."""
        outcome = push.send(conn, delivery, self.vapid, config)
        if outcome is None:
            _finish(conn, delivery, "dead", None, None, "the device was removed")
            return
        _attempt(conn, delivery, outcome.status, outcome.error, outcome.duration_ms)
        if outcome.ok:
            _finish(conn, delivery, "delivered", outcome.status, None)
        elif outcome.status in push.GONE:
            push.forget(conn, delivery)
            _finish(conn, delivery, "dead", outcome.status, outcome.error,
                    "the push service says the device's subscription is gone")
        else:
            self._failed(conn, delivery, outcome.status, outcome.error, config)

    def _count_failure(self, conn, webhook_id, error: str, config: Settings) -> None:
        """One more failure in a row; the one that reaches ``disable_after``
        disables the endpoint. Counting and disabling are one transaction, so
        that a failure of another delivery, sent at the same time, waits on
        the row and finds the endpoint disabled, rather than counting past the
        threshold first and disabling it with the wrong count."""
        with conn.transaction():
            failures, since, disabled_at = conn.execute(
                "update webhooks set consecutive_failures = consecutive_failures + 1,"
                " failing_since = coalesce(failing_since, now()) where id = %s"
                " returning consecutive_failures, failing_since, disabled_at", (webhook_id,)).fetchone()
            if disabled_at is not None or failures < config.disable_after:
                return
            reason = (f"disabled after {failures} failed deliveries in a row since {since:%Y-%m-%d %H:%M:%S} UTC;"
                      f" the last: {error}")
            conn.execute("update webhooks set disabled_at = now(), disabled_reason = %s where id = %s",
                         (reason, webhook_id))
            conn.execute("update deliveries set status = 'dead', reason = 'the endpoint was disabled'"
                         " where webhook_id = %s and status = 'pending'", (webhook_id,))
        log.warning("webhook %s %s", webhook_id, reason)

    def _failed(self, conn, delivery: dict, status, error, config: Settings) -> None:
        attempts = delivery["attempts"]
        if attempts >= config.max_attempts:
            _finish(conn, delivery, "dead", status, error)
            log.warning("delivery %s (%s) gave up after %d attempts: %s", delivery["id"], delivery["target"],
                        attempts, error)
            return
        delay = config.backoff[min(attempts - 1, len(config.backoff) - 1)]
        conn.execute("update deliveries set last_status = %s, last_error = %s,"
                     " next_attempt_at = now() + make_interval(secs => %s) where id = %s and status = 'pending'",
                     (status, error, delay, delivery["id"]))

    # E-mail

    def _email(self, conn, delivery: dict, config: Settings) -> None:
        if not config.smtp_url:
            _finish(conn, delivery, "suppressed", None, None, "this server sends no mail (BOARDLOG_SMTP_URL is unset)")
            return
        player, game = delivery["player_id"], delivery["game_id"]
        prefs = conn.execute("select email, email_confirmed_at, email_turns, digest from notification_preferences"
                             " where player_id = %s", (player,)).fetchone()
        if prefs is None or prefs[0] is None or prefs[1] is None or prefs[2] == "off" or prefs[3]:
            _finish(conn, delivery, "suppressed", None, None, "no confirmed address, or \"your turn\" mails are off")
            return
        email, mode = prefs[0], prefs[2]
        started = time.monotonic()
        # The mail's links are committed before the mail can leave: a reader who
        # clicks one at once must find it (the links of a mail the throttle then
        # keeps back are never sent, and lapse unused).
        unsubscribe = accounts.unsubscribe_link(conn, player, email, config)
        game_link = signin.mail_link(conn, player, game, config)
        try:
            # The (player, game) row stays locked from the throttle's check to
            # the mail's record: two deliveries for one game cannot both pass.
            with conn.transaction():
                conn.execute("insert into notification_activity (player_id, game_id) values (%s, %s)"
                             " on conflict do nothing", (player, game))
                active, mailed = conn.execute(
                    "select last_active_at, last_mailed_at from notification_activity"
                    " where player_id = %s and game_id = %s for update", (player, game)).fetchone()
                now = dt.datetime.now(dt.timezone.utc)
                if mode != "always" and active is not None and active > delivery["event_at"] - dt.timedelta(
                        seconds=config.active_window):
                    _finish(conn, delivery, "suppressed", None, None,
                            "the player was active in this game a moment before")
                    return
                if mailed is not None and mailed > now - dt.timedelta(seconds=config.email_interval):
                    _finish(conn, delivery, "suppressed", None, None,
                            f"at most one mail per game every {config.email_interval:g}s")
                    return
                payload = delivery["payload"]
                message = mail.your_turn(config.mail_from, email, payload, game_link, unsubscribe)
                message["X-Boardlog-Notification"] = delivery["notification_id"]
                try:
                    smtp.send(config.smtp_url, message)
                except (OSError, smtplib.SMTPException) as error:
                    raise _NotSent(error) from None
                _attempt(conn, delivery, 250, None, int((time.monotonic() - started) * 1000))
                conn.execute("update notification_activity set last_mailed_at = now()"
                             " where player_id = %s and game_id = %s", (player, game))
                _finish(conn, delivery, "delivered", 250, None)
        except _NotSent as failure:
            error = failure.args[0]
            _attempt(conn, delivery, None, f"{type(error).__name__}: {error}"[:500],
                     int((time.monotonic() - started) * 1000))
            self._failed(conn, delivery, None, f"SMTP: {error}"[:500], config)

    def _reminder(self, conn, delivery: dict, config: Settings) -> None:
        """A reminder before a deadline, or a proposal to end a game: its own
        sentence, mailed whenever game mails are on, so neither "your turn"
        throttle applies (he may well have been active in the game, and been
        mailed his turn, a moment before; a proposal waits on his answer)."""
        if not config.smtp_url:
            _finish(conn, delivery, "suppressed", None, None, "this server sends no mail (BOARDLOG_SMTP_URL is unset)")
            return
        player = delivery["player_id"]
        prefs = conn.execute("select email, email_confirmed_at, email_turns from notification_preferences"
                             " where player_id = %s", (player,)).fetchone()
        if prefs is None or prefs[0] is None or prefs[1] is None or prefs[2] == "off":
            _finish(conn, delivery, "suppressed", None, None, "no confirmed address, or game mails are off")
            return
        started = time.monotonic()
        unsubscribe = accounts.unsubscribe_link(conn, player, prefs[0], config)
        game_link = signin.mail_link(conn, player, delivery["game_id"], config)
        message = SAID[delivery["payload"]["kind"]](config.mail_from, prefs[0], delivery["payload"], game_link,
                                                   unsubscribe)
        self._send_mail(conn, delivery, message, started, config)

    def _confirmation(self, conn, delivery: dict, config: Settings) -> None:
        """The mail that confirms an address (queued by the request that set it)."""
        if not config.smtp_url:
            _finish(conn, delivery, "suppressed", None, None, "this server sends no mail (BOARDLOG_SMTP_URL is unset)")
            return
        player, email = delivery["player_id"], delivery["payload"]["email"]
        if not accounts.unconfirmed_address(conn, player, email):
            _finish(conn, delivery, "suppressed", None, None,
                    "the address was changed, removed or confirmed before this mail left")
            return
        started = time.monotonic()
        # As the unsubscribe link: committed before the mail can leave.
        link = accounts.confirmation_link(conn, player, email, config)
        message = mail.confirmation(config.mail_from, email, link, config.token_hours)
        self._send_mail(conn, delivery, message, started, config)

    def _send_mail(self, conn, delivery: dict, message, started: float, config: Settings) -> None:
        """Send one mail of a delivery and record the attempt: delivered, or failed (retried with backoff)."""
        message["X-Boardlog-Notification"] = delivery["notification_id"]
        try:
            smtp.send(config.smtp_url, message)
        except (OSError, smtplib.SMTPException) as error:
            _attempt(conn, delivery, None, f"{type(error).__name__}: {error}"[:500],
                     int((time.monotonic() - started) * 1000))
            self._failed(conn, delivery, None, f"SMTP: {error}"[:500], config)
            return
        _attempt(conn, delivery, 250, None, int((time.monotonic() - started) * 1000))
        _finish(conn, delivery, "delivered", 250, None)

    def digests(self) -> int:
        """One mail a day to each player who chose the digest, listing the games
        that wait on them and how many messages wait unread in each game."""
        config = settings()
        if not config.smtp_url:
            return 0
        sent = 0
        with self.db.connection() as conn:
            due = conn.execute(
                "select player_id, email from notification_preferences where digest and email_confirmed_at"
                " is not null and email_turns <> 'off' and coalesce(last_digest_at, '-infinity') < now() - interval '1 day'"
            ).fetchall()
            for player, email in due:
                games, unread = _waiting(conn, player)
                if games or unread:
                    # Its links are committed before it is mailed (they lapse unused if another notifier sends it).
                    unsubscribe = accounts.unsubscribe_link(conn, player, email, config)
                    links = {str(game_id): signin.mail_link(conn, player, game_id, config)
                             for game_id in dict.fromkeys(row["id"] for row in games + unread)}
                with conn.transaction():
                    claimed = conn.execute(
                        "update notification_preferences set last_digest_at = now() where player_id = %s"
                        " and coalesce(last_digest_at, '-infinity') < now() - interval '1 day'", (player,)).rowcount
                    if not claimed or not (games or unread):
                        continue  # nothing to tell today: the day is claimed all the same
                    message = mail.digest(config.mail_from, email, games, links, unsubscribe, unread)
                    smtp.send(config.smtp_url, message)  # a failure rolls the claim back: tried again next round
                    sent += 1
        return sent


def _waiting(conn, player) -> tuple[list[dict], list[dict]]:
    """What a digest lists: the games waiting on the player, and his unread messages' counts by game."""
    games = conn.cursor(row_factory=dict_row).execute(
        # deadline_soon: the seat's deadline falls before the next digest (a day on)
        "select g.id, g.game, g.version, sd.deadline, coalesce(sd.deadline < now() + interval '1 day', false)"
        " as deadline_soon from games g join game_seats s on s.game_id = g.id"
        " left join seat_deadlines sd on sd.game_id = g.id and sd.seat = s.seat"
        " where s.player_id = %s and g.status = 'active' and s.seat = any(g.to_act)"
        " order by coalesce(sd.deadline, g.deadline) nulls last", (player,)).fetchall()
    unread = conn.cursor(row_factory=dict_row).execute(
        "select g.id, g.game, sum(r.unread)::int as count from talk_reads r"
        " join talk_channels c on c.stream_id = r.stream_id join games g on g.id = c.game_id"
        " where r.player_id = %s and r.unread > 0 group by g.id, g.game order by g.id",
        (player,)).fetchall()
    return games, unread


class _NotSent(Exception):
    """The mail server refused or could not be reached."""


def _attempt(conn, delivery: dict, status, error, duration_ms: int) -> None:
    conn.execute("insert into delivery_attempts (delivery_id, attempt, status_code, error, duration_ms)"
                 " values (%s, %s, %s, %s, %s)", (delivery["id"], delivery["attempts"], status, error, duration_ms))


def _finish(conn, delivery: dict, status: str, code, error, reason: str | None = None) -> None:
    conn.execute(
        "update deliveries set status = %s, last_status = coalesce(%s, last_status), last_error = %s, reason = %s,"
        " delivered_at = case when %s = 'delivered' then now() end where id = %s",
        (status, code, error, reason, status, delivery["id"]))
