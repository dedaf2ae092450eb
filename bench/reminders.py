"""Reminders at scale: 10,000 active games whose reminders (the default 12 h
and 1 h, on the three channels) all fall due in the same minute. Measures
what the sweeper pays to find them (``reminders.pending``) and what sending
them costs, one game after another as one worker's jobs would
(``Reminders.fire``: p50, p99, per second), on a temporary database.

    DATABASE_URL=postgresql://... .venv/bin/python bench/reminders.py [--games 10000]

The games are rows written straight into the read models (no game log), so
what the deadline does is taken as the timeout move rather than read from
each game's history: a real reminder also reads its game's log for the
missed-turn streak, which this leaves out.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, not bench/api.py

import psycopg  # noqa: E402

from api.service import reminders  # noqa: E402
from api.service.games import GameService  # noqa: E402
from eventstore import PostgresEventStore, migrate  # noqa: E402
from eventstore.servers import temporary_database  # noqa: E402


def _rows(url: str, count: int, now: dt.datetime) -> list[uuid.UUID]:
    with psycopg.connect(url) as conn:
        player = uuid.uuid4()
        conn.execute("insert into players (id, name) values (%s, 'bench')", (player,))
        games = [uuid.uuid4() for _ in range(count)]
        with conn.cursor().copy("copy games (id, game, status, host, options, version) from stdin") as copy:
            for game in games:
                copy.write_row((game, "cronberg", "active", player, '{"turn_seconds": 172800}', 5))
        with conn.cursor().copy("copy seat_deadlines (game_id, seat, player_id, turn_version, turn_began_at,"
                                " deadline, clock, version) from stdin") as copy:
            for n, game in enumerate(games):  # every deadline in the same minute, an hour from now
                copy.write_row((game, "p1", player, 5, now - dt.timedelta(days=1),
                                now + dt.timedelta(hours=1, seconds=-(n % 60)), "turn", 5))
        conn.commit()
        conn.execute("analyze")
    return games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    count = parser.parse_args().games
    with temporary_database(os.environ["DATABASE_URL"], prefix="boardlog_bench_reminders") as url:
        migrate(url)
        now = dt.datetime.now(dt.timezone.utc)
        games = _rows(url, count, now)
        fire_at = now + dt.timedelta(seconds=1)
        with psycopg.connect(url) as conn:
            started = time.perf_counter()
            due = reminders.pending(conn, fire_at)
            print(f"sweeper: pending() finds {len(due)} of {count} games due in "
                  f"{(time.perf_counter() - started) * 1000:.0f} ms")
        store = PostgresEventStore.connect(url, min_size=1, max_size=4)
        try:
            service = GameService(store)
            service.reminders._at_deadline = lambda *_: "timeout"  # no game log to read (see above)
            took = []
            started = time.perf_counter()
            for game in games:
                one = time.perf_counter()
                service.reminders.fire(game, now=fire_at)
                took.append(time.perf_counter() - one)
            total = time.perf_counter() - started
        finally:
            store.close()
        took.sort()
        print(f"fire(): {count} games in {total:.1f} s, {count / total:.0f} games/s on one connection; "
              f"p50 {took[count // 2] * 1000:.1f} ms, p99 {took[int(count * 0.99)] * 1000:.1f} ms")
        print(f"the last of them is sent {total:.0f} s after its due time by one worker "
              f"({total / 2:.0f} s with two, and so on)")


if __name__ == "__main__":
    main()
