"""Notifications benchmark: prints figures and ratios against a baseline
measured in the same run.

    python bench/notify.py [--events 100000] [--commands 200]

Uses the server at DATABASE_URL, or an embedded PostgreSQL when it is unset, and
throwaway databases on it. Measures:

- the subscription's rate over a backlog of ``--events`` events (games played
  through the command service, then copied stream by stream so that the
  backlog is built in seconds), every player with a webhook, so each
  notification also writes its delivery to the outbox; against ``read_all``
  reading the same backlog in the same run (goal: a ratio of 0.5 or more);
- the time from a command's answer to the webhook it causes arriving at a
  receiver on loopback, through a running notifier (p50, p99).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import psycopg  # noqa: E402

from api.service.games import GameService  # noqa: E402
from domain import playout  # noqa: E402
from domain.engine import rng_for  # noqa: E402
from eventstore import NewEvent, PostgresEventStore, migrate  # noqa: E402
from eventstore.servers import temporary_database, temporary_server  # noqa: E402
from workers.notify.subscription import Subscription  # noqa: E402

PLAYERS = 3


def seed_games(service: GameService, players: list[str], games: int, moves: int) -> list[uuid.UUID]:
    made = []
    rng = random.Random(1)
    for _ in range(games):
        game_id = service.create(players[0], "cronberg", {"players": PLAYERS}, None)
        for player in players[1:]:
            service.join(game_id, player, None)
        service.start(game_id, players[0])
        for _ in range(moves):
            rules, session = service.load(game_id)
            if session.status != "active":
                break
            seat = sorted(rules.to_act(session.state))[0]
            command = playout.random_command(rules, session.state, seat, rng_for(str(rng.random()).encode(), 0))
            service.act(game_id, session.players[seat], command.to_json())
        made.append(game_id)
    return made


def backlog(store: PostgresEventStore, url: str, templates: list[uuid.UUID], events: int) -> int:
    """Copies of the template games' streams (new game ids, same players and
    metadata) until the feed holds ``events`` events."""
    streams = [store.read_stream(f"game-{g}") for g in templates]
    total = sum(len(s) for s in streams)
    with psycopg.connect(url, autocommit=True) as conn:
        host = conn.execute("select host from games limit 1").fetchone()[0]
        while total < events:
            for records in streams:
                if total >= events:
                    break
                game_id = uuid.uuid4()
                conn.execute("insert into games (id, game, status, host, options, version) values"
                             " (%s, 'cronberg', 'active', %s, '{}', %s)", (game_id, host, len(records)))
                copies = [NewEvent(r.type, r.data, r.metadata) for r in records][: events - total]
                store.append(f"game-{game_id}", copies, 0)
                total += len(copies)
    return total


def read_all_rate(store: PostgresEventStore, batch: int) -> tuple[int, float]:
    after, count = 0, 0
    began = time.perf_counter()
    while records := store.read_all(after, batch):
        count += len(records)
        after = records[-1].global_position
    return count, time.perf_counter() - began


def subscription_rate(url: str, batch: int) -> tuple[int, float]:
    subscription = Subscription(url, batch_size=batch)
    assert subscription.acquire()
    count = 0
    began = time.perf_counter()
    while done := subscription.step():
        count += done
    elapsed = time.perf_counter() - began
    subscription.close()
    return count, elapsed


class Receiver:
    def __init__(self):
        self.arrived: dict[str, float] = {}
        self.event = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["content-length"])))
                self.send_response(204)
                self.end_headers()
                with receiver.event:
                    receiver.arrived[f"{body['data']['game_id']}:{body['data']['version']}"] = time.perf_counter()
                    receiver.event.notify_all()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


def latency(server_url: str, commands: int) -> list[float]:
    from workers.notify.runner import Notifier

    os.environ["BOARDLOG_WEBHOOK_ALLOW_PRIVATE"] = "1"
    receiver = Receiver()
    with temporary_database(server_url, prefix="boardlog_bench_notify") as url:
        migrate(url)
        store = PostgresEventStore.connect(url, max_size=4)
        service = GameService(store)
        players = [service.players.register(f"bench-{n}")[0] for n in range(2)]
        with psycopg.connect(url, autocommit=True) as conn:
            for player in players:
                conn.execute("insert into webhooks (id, player_id, url, kinds, secret) values (%s, %s, %s, %s, %s)",
                             (uuid.uuid4(), player, receiver.url, ["turn"], "whsec_" + "A" * 32))
        notifier = Notifier(url).start()
        samples = []
        rng = random.Random(2)
        try:
            game_id = None
            while len(samples) < commands:
                if game_id is None:
                    game_id = service.create(players[0], "cronberg", {"players": 2}, None)
                    service.join(game_id, players[1], None)
                    service.start(game_id, players[0])
                rules, session = service.load(game_id)
                if session.status != "active":
                    game_id = None
                    continue
                seat = sorted(rules.to_act(session.state))[0]
                command = playout.random_command(rules, session.state, seat, rng_for(str(rng.random()).encode(), 0))
                service.act(game_id, session.players[seat], command.to_json())
                answered = time.perf_counter()
                after, after_session = service.load(game_id)
                if not (set(after.to_act(after_session.state)) - {seat}) or after_session.status != "active":
                    continue  # no new turn came with this command: nothing is sent
                key = f"{game_id}:{after_session.version}"
                with receiver.event:
                    if not receiver.event.wait_for(lambda: key in receiver.arrived, timeout=10):
                        raise SystemExit(f"no webhook for {key} within 10 s")
                samples.append(receiver.arrived[key] - answered)
        finally:
            notifier.close()
            store.close()
            receiver.server.shutdown()
    return samples


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--commands", type=int, default=200)
    parser.add_argument("--batch", type=int, default=1000)
    args = parser.parse_args()
    with temporary_server(os.environ.get("DATABASE_URL")) as server_url:
        with temporary_database(server_url, prefix="boardlog_bench_notify") as url:
            migrate(url)
            store = PostgresEventStore.connect(url, max_size=4)
            service = GameService(store)
            players = [service.players.register(f"bench-{n}")[0] for n in range(PLAYERS)]
            with psycopg.connect(url, autocommit=True) as conn:
                for player in players:
                    conn.execute("insert into webhooks (id, player_id, url, kinds, secret) values (%s, %s, %s, %s, %s)",
                                 (uuid.uuid4(), player, "http://127.0.0.1:9/", ["turn", "started", "joined", "scored"],
                                  "whsec_" + "A" * 32))
            began = time.perf_counter()
            templates = seed_games(service, players, games=4, moves=40)
            total = backlog(store, url, templates, args.events)
            print(f"backlog: {total:,} events in {time.perf_counter() - began:.1f}s")
            read_count, read_seconds = read_all_rate(store, args.batch)
            sub_count, sub_seconds = subscription_rate(url, args.batch)
            with psycopg.connect(url) as conn:
                notifications = conn.execute("select count(*) from notifications").fetchone()[0]
                deliveries = conn.execute("select count(*) from deliveries").fetchone()[0]
            store.close()
        read_rate = read_count / read_seconds
        sub_rate = sub_count / sub_seconds
        print(f"read_all (baseline):   {read_count:,} events in {read_seconds:.2f}s = {read_rate:,.0f} events/s")
        print(f"subscription:          {sub_count:,} events in {sub_seconds:.2f}s = {sub_rate:,.0f} events/s,"
              f" {notifications:,} notifications ({notifications / sub_seconds:,.0f}/s) and {deliveries:,}"
              f" deliveries written")
        print(f"ratio subscription / read_all: {sub_rate / read_rate:.2f} (goal >= 0.5)")
        samples = latency(server_url, args.commands)
        samples.sort()
        p50 = statistics.median(samples) * 1000
        p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))] * 1000
        print(f"command answered -> webhook at a loopback receiver: p50 {p50:.1f} ms, p99 {p99:.1f} ms"
              f" ({len(samples)} commands)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
