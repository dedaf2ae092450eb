"""Table talk benchmark: a game whose table holds 10,000 messages against a
twin game without any, on the production command (gunicorn with boardlog's
settings, gevent workers), in the same run.

    python bench/talk.py [--messages 10000] [--samples 200]

PostgreSQL: DATABASE_URL's server, or an embedded one; a throwaway database.
Redis: REDIS_URL when set (as a deployment has it), else none.
The messages are written to the game's table stream as the command path
writes them (in batches, to skip the per-player rate limit, which is not
what is measured); then both games are read and played through HTTP by
their players. Prints the p50 of each request on the talkative game against
the quiet one: the view, a feed page, a command, the inbox (which counts
unread messages) and the newest page of the table; goal <= 1.2 for the view,
the feed and the command. Any request that fails fails the benchmark.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api import GEVENT, Client, gunicorn  # noqa: E402
from domain.lifecycle.talk import stream_of  # noqa: E402
from eventstore import PostgresEventStore, migrate  # noqa: E402
from eventstore.servers import temporary_database, temporary_server  # noqa: E402
from eventstore.types import ANY, NewEvent  # noqa: E402


def fill(url: str, game: str, players: dict, messages: int) -> None:
    store = PostgresEventStore.connect(url)
    stream = stream_of(game, "table")
    ids = sorted(players)
    with store.pool.connection() as conn:
        conn.execute("insert into talk_channels values (%s, %s, 'table') on conflict do nothing", (stream, game))
    for start in range(0, messages, 500):
        batch = []
        for n in range(start, min(messages, start + 500)):
            sender = ids[n % len(ids)]
            batch.append(NewEvent("MessageSent", {"channel": "table", "seat": players[sender], "player": sender,
                                                  "text": f"message {n}: " + "blah " * 8},
                                  {"readers": ids, "game_version": 4}))
        store.append(stream, batch, ANY)
    store.close()


def p50(samples) -> float:
    return statistics.median(samples) * 1000


def timed(call, *args, **kwargs) -> float:
    started = time.perf_counter()
    response = call(*args, **kwargs)
    elapsed = time.perf_counter() - started
    assert response.status_code in (200, 201), (response.status_code, response.text[:300])
    return elapsed


NAMES = ("view", "feed page", "command", "inbox", "table page")


def sample(game: str, seats: dict, n: int, out: dict) -> None:
    """One of each request on ``game``; a command every fourth time."""
    some = next(iter(seats.values()))
    out["view"].append(timed(some.call, "GET", f"/v1/games/{game}/view"))
    out["feed page"].append(timed(some.call, "GET", f"/v1/games/{game}/events", params={"after": 0}))
    out["inbox"].append(timed(some.call, "GET", "/v1/players/me/inbox"))
    out["table page"].append(timed(some.call, "GET", f"/v1/games/{game}/channels/table/messages",
                                   params={"after": n * 37 % 9_900, "limit": 100}))
    if n % 4 == 0:
        summary = some.call("GET", f"/v1/games/{game}").json()
        assert summary["status"] == "active", f"the game is {summary['status']}: fewer samples, or more rounds"
        player = seats[summary["to_act"][0]]
        command = player.call("GET", f"/v1/games/{game}/legal-commands").json()["commands"][0]
        out["command"].append(timed(player.call, "POST", f"/v1/games/{game}/commands", json=command))


def new_long_game(base: str, tag: str) -> tuple[str, dict]:
    """A 2-player Cronberg of 4 rounds (some 300 commands), so that neither game ends while measured."""
    a, b = Client(base, f"{tag}-a"), Client(base, f"{tag}-b")
    game = a.call("POST", "/v1/games", json={"game": "cronberg", "options": {"players": 2, "rounds": 4}}).json()["id"]
    for response in (b.call("POST", f"/v1/games/{game}/join", json={}), a.call("POST", f"/v1/games/{game}/start")):
        assert response.status_code == 200, response.text
    seats = {s["seat"]: c for s, c in zip(a.call("GET", f"/v1/games/{game}").json()["seats"], (a, b))}
    return game, seats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=200)
    args = parser.parse_args()
    with temporary_server(os.environ.get("DATABASE_URL")) as server, temporary_database(server, "boardlog_talk") as url:
        migrate(url)
        env = {"DATABASE_URL": url, "BOARDLOG_RATE_LIMIT": "0", "REDIS_URL": os.environ.get("REDIS_URL", "")}
        app, base = gunicorn("api.processes.wsgi:app", env, GEVENT)
        try:
            quiet, quiet_seats = new_long_game(base, "quiet")
            loud, loud_seats = new_long_game(base, "loud")
            ids = {}
            for seat, client in loud_seats.items():
                ids[client.call("GET", "/v1/players/me").json()["id"]] = seat
            started = time.perf_counter()
            fill(url, loud, ids, args.messages)
            print(f"{args.messages:,} messages written to one game's table in {time.perf_counter() - started:.1f} s")
            for client in quiet_seats.values():  # both games' tables in use
                client.call("POST", f"/v1/games/{quiet}/channels/table/messages", json={"text": "hello"})
            base_run, loud_run = {name: [] for name in NAMES}, {name: [] for name in NAMES}
            for n in range(args.samples + 20):  # interleaved, so that the machine's drift hits both; 20 to warm up
                sample(quiet, quiet_seats, n, base_run if n >= 20 else {name: [] for name in NAMES})
                sample(loud, loud_seats, n, loud_run if n >= 20 else {name: [] for name in NAMES})
            print(f"{'request':<12} {'quiet p50':>10} {'10k p50':>10}  ratio")
            failed = False
            for name in base_run:
                a, b = p50(base_run[name]), p50(loud_run[name])
                goal = name in ("view", "feed page", "command")
                ok = b / a <= 1.2
                failed |= goal and not ok
                print(f"{name:<12} {a:8.1f} ms {b:8.1f} ms  {b / a:5.2f}{'  (goal <= 1.2)' if goal else ''}")
            sys.exit(1 if failed else 0)
        finally:
            app.terminate()
            app.wait(timeout=20)


if __name__ == "__main__":
    main()
