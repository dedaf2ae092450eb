"""Web Push against webhooks: deliveries per second through the notifier's
outbox, the same notifications sent once to webhooks and once to push
subscriptions, in the same run.

    DATABASE_URL=postgresql://... .venv/bin/python bench/push.py [--games 2000]

Games are made and started through the command service (two players each, a
"your turn" notice for whoever is to act first); every player has one webhook
and one push subscription, so the subscription writes, for each notice, one
webhook delivery and one push delivery to the outbox. Both halves are held
back (their ``next_attempt_at`` a day ahead) while a real ``boardlog
notifier`` process starts; then they are released a part at a time (a
quarter of the webhooks, timed until every one is delivered, then a quarter
of the pushes, and so on), so that a warm-up or a slower moment of the
shared machine does not fall on one kind only.

The receivers run in this process, on loopback: the webhook receiver reads
each body as JSON; the push service (tests/notify/pushservice.py) verifies
each VAPID signature and decrypts each body (aes128gcm) before answering 201,
so both sides of the encryption are paid for in the measure. A body that does
not verify, decrypt or read as the notice answers 400: any delivery not
delivered makes the bench exit 1.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402

from api.service import push as subscriptions  # noqa: E402
from api.service.games import GameService  # noqa: E402
from api.service.notifications import WAKE_CHANNEL  # noqa: E402
from eventstore import PostgresEventStore, migrate  # noqa: E402
from eventstore.servers import temporary_database, temporary_server  # noqa: E402
from tests.notify.pushservice import Browser, verify_vapid  # noqa: E402
from workers.notify.subscription import Subscription  # noqa: E402

HELD = "now() + interval '1 day'"


class Receivers:
    """The webhook receiver (path /hook) and the push service (paths /push/NAME)
    on one loopback server; each checks what it is sent and counts it."""

    def __init__(self):
        self.browsers: dict[str, Browser] = {}
        self.counts = {"hook": 0, "push": 0}
        self.refused: list[str] = []
        self.lock = threading.Lock()
        receivers = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                try:
                    kind = receivers.check(self.path, body, self.headers)
                    status = 201 if kind == "push" else 204
                except Exception as error:  # whatever fails to check is a refused delivery
                    kind, status = None, 400
                    with receivers.lock:
                        receivers.refused.append(f"{self.path}: {error!r}")
                with receivers.lock:
                    if kind:
                        receivers.counts[kind] += 1
                self.send_response(status)
                self.send_header("content-length", "0")
                self.end_headers()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.origin = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def check(self, path: str, body: bytes, headers) -> str:
        if path == "/hook":
            notice = json.loads(body)
            assert notice["type"] == "turn", notice
            return "hook"
        browser = self.browsers[path.rsplit("/", 1)[1]]
        verify_vapid(headers["authorization"], self.origin)
        shown = json.loads(browser.decrypt(body))
        assert shown["title"].startswith("Your turn in "), shown
        return "push"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def seed(url: str, receivers: Receivers, players: int, games: int) -> None:
    store = PostgresEventStore.connect(url, min_size=1, max_size=4)
    try:
        service = GameService(store)
        ids = [service.players.register(f"bench-{n}")[0] for n in range(players)]
        with psycopg.connect(url, autocommit=True) as conn:
            for player in ids:
                conn.execute("insert into webhooks (id, player_id, url, kinds, secret) values (%s, %s, %s, %s, %s)",
                             (uuid.uuid4(), player, f"{receivers.origin}/hook", ["turn"], "whsec_" + "A" * 32))
                name = uuid.uuid4().hex
                browser = receivers.browsers[name] = Browser(f"{receivers.origin}/push/{name}")
                subscriptions.subscribe(conn, player, browser.endpoint, browser.public, browser.auth,
                                        "bench", False)
        for n in range(games):
            host, guest = ids[n % players], ids[(n + 1) % players]
            game_id = service.create(host, "cronberg", {"players": 2}, None)
            service.join(game_id, guest, None)
            service.start(game_id, host)
    finally:
        store.close()


def outbox(url: str) -> dict[str, int]:
    """Every notice into the outbox (the subscription run here to its end),
    every delivery held back; how many of each kind."""
    subscription = Subscription(url)
    assert subscription.acquire()
    quiet = 0
    while quiet < 3:  # the feed shows an event only once older transactions end: look again before stopping
        if subscription.step():
            quiet = 0
        else:
            quiet += 1
            time.sleep(0.5)
    subscription.close()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"update deliveries set next_attempt_at = {HELD}")
        rows = conn.execute("select split_part(target, ':', 1), count(*) from deliveries group by 1").fetchall()
    return dict(rows)


def release(conn, prefix: str, part: int, parts: int, timeout: float, refused: list) -> tuple[int, float]:
    """Release one part of the held deliveries of one kind: how many, and the
    seconds from their release to the last of them finished."""
    where = "target like %s and id %% %s = %s"
    chosen = (prefix + ":%", parts, part)
    began = time.perf_counter()
    expected = conn.execute(f"update deliveries set next_attempt_at = now() where {where}", chosen).rowcount
    conn.execute("select pg_notify(%s, '')", (WAKE_CHANNEL,))
    while True:
        done = conn.execute(f"select count(*) from deliveries where {where} and status <> 'pending'",
                            chosen).fetchone()[0]
        if done >= expected:
            return expected, time.perf_counter() - began
        if refused:  # a failed delivery would be tried again later: the run has failed already
            raise SystemExit(f"{prefix}: the receivers refused {len(refused)} deliveries, first {refused[0]}")
        if time.perf_counter() - began > timeout:
            raise SystemExit(f"{prefix}: only {done} of {expected} deliveries finished in {timeout:.0f} s")
        time.sleep(0.02)


def started_notifier(url: str, log) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": url, "BOARDLOG_WEBHOOK_ALLOW_PRIVATE": "1"}
    env.pop("BOARDLOG_SMTP_URL", None)
    process = subprocess.Popen([sys.executable, "-m", "api.processes.cli", "notifier"], cwd=ROOT, env=env,
                               stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        if "started" in Path(log.name).read_text():  # its log line once migrated and its settings checked
            return process
        time.sleep(0.1)
    process.kill()
    raise SystemExit(f"the notifier did not start: {Path(log.name).read_text()[-2000:]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--parts", type=int, default=4,
                        help="released in turn, webhooks then pushes, so that neither always goes first")
    args = parser.parse_args()
    receivers = Receivers()
    with temporary_server(os.environ.get("DATABASE_URL")) as server_url, \
            temporary_database(server_url, prefix="boardlog_bench_push") as url:
        migrate(url)
        began = time.perf_counter()
        seed(url, receivers, args.players, args.games)
        held = outbox(url)
        print(f"{args.games} games made through the service, {args.players} players with a webhook and a push "
              f"subscription each: {held.get('webhook', 0)} webhook and {held.get('push', 0)} push deliveries "
              f"in the outbox in {time.perf_counter() - began:.0f} s")
        if not held.get("webhook") or held.get("webhook") != held.get("push"):
            raise SystemExit(f"expected as many webhook as push deliveries, found {held}")
        with tempfile.NamedTemporaryFile("w+", prefix="bench-push-notifier-", suffix=".log") as log:
            notifier = started_notifier(url, log)
            try:
                with psycopg.connect(url, autocommit=True) as conn:
                    took = {"webhook": 0.0, "push": 0.0}
                    for part in range(args.parts):
                        for kind in took:
                            _, seconds = release(conn, kind, part, args.parts, timeout=300,
                                                 refused=receivers.refused)
                            took[kind] += seconds
                    statuses = dict(conn.execute("select split_part(target, ':', 1) || ' ' || status, count(*)"
                                                 " from deliveries group by 1").fetchall())
            finally:
                notifier.terminate()
                notifier.wait(30)
    receivers.close()
    rates = {kind: held[kind] / took[kind] for kind in took}
    for kind, label in (("webhook", "webhooks"), ("push", "Web Push")):
        print(f"{label + ':':10} {held[kind]} deliveries in {took[kind]:.2f} s = {rates[kind]:.0f}/s")
    print(f"ratio push / webhook: {rates['push'] / rates['webhook']:.2f}")
    print(f"checked by the receivers: {receivers.counts['hook']} webhook bodies read, "
          f"{receivers.counts['push']} pushes VAPID-verified and decrypted")
    failed = {key: value for key, value in statuses.items() if not key.endswith(" delivered")}
    if failed or receivers.refused or receivers.counts["push"] != held["push"]:
        print(f"FAILED deliveries: {failed}; refused by the receivers: {receivers.refused[:5]}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
