"""PostgreSQL failover under load: a primary and a synchronous streaming
standby of the experiment's own (tests/support/replication.py), a
deployment as production runs it (gunicorn, the worker and its notifier,
a Redis of its own; bench/fault_stack.py) whose DATABASE_URL names both
hosts with target_session_attrs=read-write; games played, streams and
long-polls open (bench/fault_streams.py), a writer creating games
without pause; then the primary stopped hard (pg_ctl stop -m immediate)
and the standby promoted at once. Prints how long until the first
accepted write after the primary died and after the promotion, the
requests refused meanwhile, and what was lost: stream versions and
notices, accepted moves not stored, 5xx other than 503, the notifier's
notifications lost or repeated by id, deadlines fired twice.

    python bench/failover.py [--games 6] [--before 8] [--after 15] [--async] 2>/dev/null

``--async``: the standby is not synchronous (what can be lost without it).
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import psycopg
import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.fault_stack import Player, Stack, new_games  # noqa: E402
from tests.support.replication import ReplicatedPostgres  # noqa: E402

DEADLINE_SECONDS = 3  # the deadline games' turn_seconds: several fire across the failover


class _PairAsPostgres:
    """What Stack asks of its PostgreSQL, from a pair already running."""

    def __init__(self, pair: ReplicatedPostgres):
        self.pair = pair

    @property
    def url(self) -> str:
        return self.pair.url

    def init(self) -> None:
        pass  # started, with its standby, by whoever made the pair

    def stop(self) -> None:
        pass  # stopped by whoever made the pair


class FailoverStack(Stack):
    """bench/fault_stack.py's deployment, on a primary and its standby."""

    def __init__(self, pair: ReplicatedPostgres, **kwargs):
        super().__init__(**kwargs)
        self.pair = pair
        self.postgres = _PairAsPostgres(pair)


def primary_dies(pair: ReplicatedPostgres, timings: dict):
    """The fault: the primary stopped as its machine dying would, then its standby promoted."""
    def fault(stack) -> str:
        standby = pair.standbys[0]
        pair.primary.stop("immediate")
        timings["died"] = time.monotonic()
        pair.promote(standby)
        timings["promoted"] = time.monotonic()
        return (f"primary stopped (immediate), standby promoted "
                f"{timings['promoted'] - timings['died']:.2f} s later")
    return fault


class Writer:
    """Creates a game after another, without pause: each answer timed, so
    that the first one accepted after the fault says when writes came back."""

    def __init__(self, base: str):
        self.player = Player(base, "failover-writer")
        self.answers: list[tuple[float, int]] = []  # (when answered, status; 0: no answer)
        self.created: list[str] = []  # the ids of the games answered 201
        self.stop_flag = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> "Writer":
        self.thread.start()
        return self

    def _run(self) -> None:
        while not self.stop_flag.is_set():
            try:
                response = self.player.call("POST", "/v1/games", json={"game": "cronberg", "options": {"players": 2}},
                                            timeout=30)
                code = response.status_code
                if code == 201:
                    self.created.append(response.json()["id"])
            except requests.RequestException:
                code = 0
            self.answers.append((time.monotonic(), code))
            if code != 201:
                time.sleep(0.05)

    def stop(self) -> None:
        self.stop_flag.set()
        self.thread.join()

    def not_stored(self, url: str) -> int:
        """Games answered 201 that PostgreSQL does not have."""
        with psycopg.connect(url) as conn:
            stored = {row[0] for row in conn.execute("select id::text from games where id = any(%s::uuid[])",
                                                     (self.created,))}
        return len(set(self.created) - stored)

    def after(self, moment: float) -> tuple[float | None, Counter]:
        """Seconds from ``moment`` to the first write accepted after it, and the answers before that one."""
        refused: Counter = Counter()
        for when, code in self.answers:
            if when < moment:
                continue
            if code == 201:
                return when - moment, refused
            refused[code] += 1
        return None, refused


def notifications_by_id(url: str) -> tuple[int, int, int]:
    """(notifications the feed calls for, lost, repeated): every event of the
    feed derived again as the notifier derives it, against what it stored."""
    from workers.notify.derive import derive
    from workers.notify.subscription import ENGINE_TYPES, METADATA_READ
    from eventstore.postgres import read_lean_feed

    wanted: Counter = Counter()
    with psycopg.connect(url, autocommit=True) as conn:
        names = dict(conn.execute("select id::text, game from games").fetchall())
        after = 0
        while True:
            records = read_lean_feed(conn, after, 1000, ENGINE_TYPES, METADATA_READ)
            wanted.update(n.id for n in derive(records, names))
            if len(records) < 1000:
                break
            after = records[-1].global_position
        stored = Counter(row[0] for row in conn.execute("select id from notifications"))
    lost = sum(1 for key in wanted if key not in stored)
    repeated = sum(n - 1 for n in stored.values() if n > 1) + sum(n - 1 for n in wanted.values() if n > 1)
    return sum(wanted.values()), lost, repeated


def notifier_caught_up(url: str, timeout: float = 60.0) -> bool:
    """Whether the notifier's checkpoint reached the end of the feed within ``timeout``."""
    from eventstore.postgres import subscription_lag
    from api.service.notifications import SUBSCRIPTION

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with psycopg.connect(url, autocommit=True, connect_timeout=5) as conn:
                if subscription_lag(conn, SUBSCRIPTION)["lag_events"] == 0:
                    return True
        except psycopg.OperationalError:
            pass
        time.sleep(0.25)
    return False


def deadlines_fired(url: str, games) -> tuple[int, int]:
    """(deadlines fired, fired twice) in those games: a TurnTimedOut per deadline, at most."""
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "select stream_id, data->>'deadline_version', data->>'seat', count(*) from events"
            " where type = 'TurnTimedOut' and stream_id = any(%s) and metadata->'timeout_step' is null"
            " group by 1, 2, 3", ([f"game-{game}" for game, _ in games],)).fetchall()
    return sum(row[3] for row in rows), sum(1 for row in rows if row[3] > 1)


def deadline_games(stack, count: int) -> list:
    """Games whose players never move: every turn ends at its deadline, on the worker's clock."""
    return new_games(stack.base, "deadline", count, {"turn_seconds": DEADLINE_SECONDS})


def run(games: int, before: float, after: float, synchronous: bool = True) -> dict:
    """One failover under load; the figures, by name."""
    import shutil
    import tempfile

    from bench.fault_streams import under_streams

    folder = Path(tempfile.mkdtemp(prefix="boardlog-failover-"))
    folder.chmod(0o755)
    pair = ReplicatedPostgres(folder)
    try:
        pair.start_primary()
        pair.add_standby(synchronous=synchronous)
        stack = FailoverStack(pair, env={"BOARDLOG_SWEEP_SECONDS": "1"}).start()
        try:
            timed = deadline_games(stack, 2)
            writer = Writer(stack.base).start()
            timings: dict = {}
            label, measured, bad = under_streams(stack, "failover", primary_dies(pair, timings), games,
                                                 before=before, after=after)
            writer.stop()
            caught_up = notifier_caught_up(stack.url)
            expected, lost, repeated = notifications_by_id(stack.url)
            fired, twice = deadlines_fired(stack.url, timed)
            since_death, refused = writer.after(timings["died"])
            since_promotion, _ = writer.after(timings["promoted"])
            return {"measured": measured, **bad,
                    "first write after the primary died (s)": since_death,
                    "first write after the promotion (s)": since_promotion,
                    "writes refused meanwhile": dict(refused),
                    "writes accepted": len(writer.created), "writes accepted not stored": writer.not_stored(stack.url),
                    "notifications": expected, "notifications lost": lost, "notifications repeated": repeated,
                    "notifier caught up": caught_up, "deadlines fired": fired, "deadlines fired twice": twice}
        finally:
            stack.close()
    finally:
        pair.close()
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--before", type=float, default=8)
    parser.add_argument("--after", type=float, default=15)
    parser.add_argument("--async", dest="synchronous", action="store_false",
                        help="an asynchronous standby (synchronous_standby_names unset)")
    args = parser.parse_args()
    import os

    load = os.getloadavg()
    print(f"{time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; "
          f"{'synchronous' if args.synchronous else 'asynchronous'} standby")
    figures = run(args.games, args.before, args.after, args.synchronous)
    for name, value in figures.items():
        print(f"{name}: {value:.2f}" if isinstance(value, float) else f"{name}: {value}")


if __name__ == "__main__":
    main()
