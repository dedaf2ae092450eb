"""``boardlog notifier``: the subscription and the delivery loop in one process.

``boardlog worker`` starts one as a child process (so ``boardlog serve``,
which starts a worker, runs it too); ``boardlog notifier`` runs one alone.
Any number may run: one at a time holds the subscription's lease and follows
the feed, and all of them deliver. PostgreSQL holds everything, Redis
nothing, so flushing Redis changes nothing here.

Three threads: a listener (LISTEN for new events and new deliveries, which
wake the other two), the subscription, and the delivery loop. Each also wakes
every second on its own, so a lost NOTIFY only costs that second.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
import time

import psycopg

from api.service import push
from api.service.settings import env_number, settings

from .delivery import Deliverer
from .subscription import WAKE_CHANNEL, LeaseLost, Subscription

log = logging.getLogger("boardlog.notify")

EVENTS_CHANNEL = "boardlog_events"
IDLE_SECONDS = 1.0
DIGEST_EVERY = 60.0


class Notifier:
    def __init__(self, database_url: str, batch_size: int = 1000, concurrency: int = 4):
        self.database_url = database_url
        self.stop = threading.Event()
        self.new_events = threading.Event()
        self.new_deliveries = threading.Event()
        self.subscription = Subscription(database_url, batch_size=batch_size,
                                         email_enabled=bool(settings().smtp_url))
        self.deliverer = Deliverer(database_url, concurrency=concurrency)
        self.threads: list[threading.Thread] = []
        self.processed = 0

    def start(self) -> "Notifier":
        for target, name in ((self._listen, "notify-listen"), (self._follow, "notify-follow"),
                             (self._deliver, "notify-deliver")):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self.threads.append(thread)
        return self

    def close(self, timeout: float = 30) -> None:
        self.stop.set()
        self.new_events.set()
        self.new_deliveries.set()
        for thread in self.threads:
            thread.join(timeout)
        self.subscription.close()
        self.deliverer.close()

    def _guarded(self, what: str, step) -> None:
        """Run ``step`` until stopped; PostgreSQL away (restarting) is waited out."""
        pause = 0.5
        while not self.stop.is_set():
            try:
                step()
                pause = 0.5
            except psycopg.OperationalError as error:
                log.warning("%s: PostgreSQL unavailable (%s); trying again in %.1fs", what, error, pause)
                self.subscription.close() if what == "subscription" else None
                self.stop.wait(pause)
                pause = min(pause * 2, 10)
            except Exception:
                log.exception("%s failed; trying again in %.1fs", what, pause)
                self.stop.wait(pause)
                pause = min(pause * 2, 10)

    def _listen(self) -> None:
        def step():
            with psycopg.connect(self.database_url, autocommit=True, connect_timeout=10) as conn:
                conn.execute(f"listen {EVENTS_CHANNEL}")
                conn.execute(f"listen {WAKE_CHANNEL}")
                self.new_events.set()  # whatever was missed while not listening
                self.new_deliveries.set()
                while not self.stop.is_set():
                    for note in conn.notifies(timeout=IDLE_SECONDS):
                        (self.new_events if note.channel == EVENTS_CHANNEL else self.new_deliveries).set()

        self._guarded("listener", step)

    def _follow(self) -> None:
        # An event announced may not be in the feed yet (the feed waits for
        # every older transaction on the server to end): look again soon,
        # then less and less often, rather than a whole idle second later.
        soon = [0.0]

        def step():
            if not self.subscription.acquire():
                self.stop.wait(IDLE_SECONDS)  # a standby: another notifier holds the lease
                return
            self.new_events.clear()
            try:
                done = self.subscription.step()
            except LeaseLost as error:
                log.warning("%s; letting the lease go", error)
                self.subscription.close()
                return
            self.processed += done
            if done:
                soon[0] = 0.0
                self.new_deliveries.set()
            elif soon[0]:
                self.stop.wait(soon[0])
                soon[0] = soon[0] * 2 if soon[0] < IDLE_SECONDS / 2 else 0.0
            elif self.new_events.wait(IDLE_SECONDS):
                soon[0] = 0.01

        self._guarded("subscription", step)

    def _deliver(self) -> None:
        last_digest = [0.0]

        def step():
            self.new_deliveries.clear()
            sent = self.deliverer.step()
            if time.monotonic() - last_digest[0] > DIGEST_EVERY:
                last_digest[0] = time.monotonic()
                self.deliverer.digests()
            if not sent:
                self.new_deliveries.wait(IDLE_SECONDS)

        self._guarded("delivery", step)


def run() -> int:
    """Until SIGTERM or SIGINT."""
    from api.service.logs import configure_logging

    configure_logging()
    database_url = os.environ.get("DATABASE_URL")
    if not database_url:
        raise SystemExit("DATABASE_URL is not set: the notifier follows the games in PostgreSQL")
    stopped = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stopped.set())
    # A worker starts its notifier with these blocked (see workers/runner.py); the mask is inherited.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    if not migrated(database_url, stopped):
        log.info("notifier stopped before PostgreSQL answered")
        return 0
    config = settings()
    push.check_settings(config.public_url, config.mail_from)
    notifier = Notifier(database_url, batch_size=env_number("BOARDLOG_NOTIFY_BATCH", 1000, minimum=1)).start()
    log.info("notifier (pid %d) started; mail %s", os.getpid(),
             "through " + config.smtp_url.split("@")[-1] if config.smtp_url else "off (BOARDLOG_SMTP_URL unset)")
    try:
        stopped.wait()
    finally:
        notifier.close()
    log.info("notifier stopped")
    return 0


RECONNECT_FIRST_SECONDS = 0.5
RECONNECT_MAX_SECONDS = 10.0


def migrated(database_url: str, stopped: threading.Event) -> bool:
    """The migrations applied (True), or a stop asked for first (False).
    A notifier started while PostgreSQL is down or restarting waits for it,
    trying again with backoff (0.5 s doubling to 10 s, as the worker waits
    for Redis), rather than exiting: started alone, nothing would start it
    again but its supervisor."""
    from eventstore import migrate

    delay = RECONNECT_FIRST_SECONDS
    while not stopped.is_set():
        try:
            migrate(database_url)
            return True
        except psycopg.OperationalError as error:
            log.warning("PostgreSQL unavailable (%s); next try in %.1fs", str(error).strip(), delay)
        stopped.wait(delay)
        delay = min(delay * 2, RECONNECT_MAX_SECONDS)
    return False


def dead_letters(redeliver: list[int] | None = None) -> int:
    """``boardlog notifier --dead-letters [--redeliver ID ...]``: list the
    deliveries that gave up (webhooks and mail), or queue some again."""
    database_url = os.environ.get("DATABASE_URL")
    if not database_url:
        raise SystemExit("DATABASE_URL is not set")
    with psycopg.connect(database_url, autocommit=True) as conn:
        if redeliver:
            moved = conn.execute(
                "update deliveries set status = 'pending', attempts = 0, next_attempt_at = now(), reason = null"
                " where id = any(%s) and status = 'dead' returning id", (redeliver,)).fetchall()
            conn.execute(f"select pg_notify('{WAKE_CHANNEL}', '')")
            print(f"queued again: {', '.join(str(row[0]) for row in moved) or 'none (not dead letters)'}")
            return 0 if len(moved) == len(set(redeliver)) else 1
        rows = conn.execute(
            "select d.id, d.target, d.player_id, d.notification_id, d.attempts, coalesce(d.reason, d.last_error)"
            " from deliveries d where d.status = 'dead' order by d.id desc limit 1000").fetchall()
    for row in rows:
        print("\t".join(str(value) for value in row))
    print(f"{len(rows)} dead letter(s){' (the newest 1000)' if len(rows) == 1000 else ''}", file=sys.stderr)
    return 0
