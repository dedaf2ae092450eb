"""Reminder lateness beside deadline lateness: N active games whose reminder
and deadline all fall due in the same minute, fired by real ``boardlog
worker`` processes (each with RQ's scheduler and a notifier) through RQ and
Redis. Prints p50/p99 lateness of each and their ratio, measured in the same
run, the reminders sent and those dropped (their deadline came first: each
is one WARNING in a worker's log, counted too), and the jobs the workers
ran: per second over the busy span (from the minute's first due second to
the last event written) and per second of job time. Exits 1 if a deadline
did not fire or any job failed.

    DATABASE_URL=postgresql://... REDIS_URL=redis://127.0.0.1:PORT/0 \\
        .venv/bin/python bench/reminder_lateness.py [--games 2000] [--workers 1] [--worker=--fork]

The games are made and started through the service (two players, two days a
turn, no absences), each started with a clock of the bench's own set two days before the
minute chosen (as tests/workers/test_missed_turns.py lets an hour pass at
once), so that however long making them takes, every deadline falls in that
minute of the real clock: at second 30 to 59 of it. Every player chose a
reminder 30 s before the deadline on every channel, so each reminder falls at
second 0 to 29 of the same minute. The worker starts once every game is made
and runs on the real clock: lateness is when the event was written (the
``TurnTimedOut`` in the game's stream, the ``ReminderDue`` in its reminder
stream) minus when it was due. Redis is flushed first (use a Redis of your own).
"""

from __future__ import annotations

import argparse
import re
import datetime as dt
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402
from redis import Redis  # noqa: E402
from rq import Queue, Worker  # noqa: E402

from api.service import reminders  # noqa: E402
from api.service.games import GameService  # noqa: E402
from api.service.scheduling import QUEUE_NAME, RQScheduler  # noqa: E402
from eventstore import PostgresEventStore, migrate  # noqa: E402
from eventstore.servers import temporary_database, temporary_server  # noqa: E402

TURN = 2 * 86400
OFFSET = 30  # seconds before the deadline
QUEUE = f"rq:queue:{QUEUE_NAME}"  # the worker's queue, as RQ names it in Redis
# No absences: a deadline then plays the timeout move (TurnTimedOut) rather than spending a day away.
OPTIONS = {"players": 2, "turn_seconds": TURN, "absences": "forbidden"}


class Clock:
    """The moment each game is started at, set by the bench."""

    def __init__(self):
        self.now = dt.datetime.now(dt.timezone.utc)

    def __call__(self) -> dt.datetime:
        return self.now


def make_games(store, redis, count: int, minute: dt.datetime, players: int = 50) -> float:
    """``count`` games with their deadlines in ``minute``; seconds it took."""
    clock = Clock()
    service = GameService(store, RQScheduler(redis), clock=clock)
    ids = [service.players.register(f"bench-{n}")[0] for n in range(players)]
    with store.pool.connection() as conn:
        for player in ids:
            reminders.update_settings(conn, player, {channel: [OFFSET] for channel in reminders.CHANNELS})
    began = time.perf_counter()
    for n in range(count):
        clock.now = minute + dt.timedelta(seconds=30 + n % 30) - dt.timedelta(seconds=TURN)
        host, guest = ids[n % players], ids[(n + 1) % players]
        game_id = service.create(host, "cronberg", OPTIONS, None)
        service.join(game_id, guest, None)
        service.start(game_id, host)
        if n == 49:  # the pace of the first 50 says whether the rest are made before the minute
            ends = dt.datetime.now(dt.timezone.utc) + dt.timedelta(seconds=(time.perf_counter() - began) / 50 * count)
            if ends > minute:
                raise SystemExit(f"making {count} games would end after {minute:%H:%M}; ask for fewer or a longer --lead")
    return time.perf_counter() - began


def lateness(url: str, due: dict[str, dt.datetime]) -> tuple[list[float], list[float]]:
    """Seconds late, sorted: (reminders, deadlines). ``due``: each game's
    first deadline (the table holds the next one once it fired)."""
    with psycopg.connect(url) as conn:
        timed_out = conn.execute("select stream_id, min(recorded_at) from events where type = 'TurnTimedOut'"
                                 " group by stream_id").fetchall()
        reminded = conn.execute("select (data->>'deadline')::timestamptz - make_interval(secs =>"
                                " (data->>'offset_seconds')::int), recorded_at from events"
                                " where type = 'ReminderDue'").fetchall()
    return (sorted((at - due_at).total_seconds() for due_at, at in reminded),
            sorted((at - due[stream]).total_seconds() for stream, at in timed_out))


def percentile(values: list[float], fraction: float) -> float:
    return values[min(len(values) - 1, int(len(values) * fraction))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--lead", type=int, default=150,
                        help="seconds from now to the minute everything falls due in (must cover making the games)")
    parser.add_argument("--worker", nargs="*", default=[], metavar="ARG",
                        help="arguments for boardlog worker, e.g. --worker=--fork")
    parser.add_argument("--workers", type=int, default=1, help="how many boardlog worker processes (default 1)")
    args = parser.parse_args()
    redis = Redis.from_url(os.environ["REDIS_URL"])
    redis.flushdb()
    with temporary_server(os.environ.get("DATABASE_URL")) as server_url, \
            temporary_database(server_url, prefix="boardlog_bench_lateness") as url:
        migrate(url)
        now = dt.datetime.now(dt.timezone.utc).replace(second=0, microsecond=0)
        minute = now + dt.timedelta(seconds=60 * (1 + args.lead // 60))
        store = PostgresEventStore.connect(url, min_size=1, max_size=4)
        try:
            took = make_games(store, redis, args.games, minute)
        finally:
            store.close()
        with psycopg.connect(url) as conn:
            due = dict(conn.execute("select 'game-' || game_id, min(deadline) from seat_deadlines"
                                    " group by game_id").fetchall())
            seats = conn.execute("select count(*) from seat_deadlines").fetchone()[0]
        left = (minute - dt.datetime.now(dt.timezone.utc)).total_seconds()
        if left < 5:  # the worker would start with everything overdue: lateness would measure the making
            raise SystemExit(f"making {args.games} games took {took:.0f} s, past the minute chosen: "
                             "ask for a longer --lead")
        print(f"{args.games} games made through the service in {took:.0f} s; reminders due at "
              f"{minute:%H:%M}:00-29 and deadlines at {minute:%H:%M}:30-59, {left:.0f} s from now")
        env = {**os.environ, "DATABASE_URL": url}
        logs = [tempfile.NamedTemporaryFile("w+", prefix=f"bench-lateness-worker{n}-", suffix=".log")
                for n in range(args.workers)]
        workers = [subprocess.Popen([sys.executable, "-m", "api.processes.cli", "worker", *args.worker], cwd=ROOT,
                                    env=env, stdout=log, stderr=subprocess.STDOUT) for log in logs]
        counts: dict[str, tuple[int, int, float]] = {}  # each worker's (done, failed, seconds in jobs)
        try:
            deadline = time.monotonic() + left + 1800
            while time.monotonic() < deadline:
                late_r, late_d = lateness(url, due)
                counts.update(job_counts(redis))
                # A reminder the worker reaches only after its deadline is not sent (its turn is
                # over): once every deadline fired and the queue is empty, no more will come.
                if len(late_d) >= len(due) and (len(late_r) >= seats or not redis.llen(QUEUE)):
                    break
                for worker, log in zip(workers, logs):
                    if worker.poll() is not None:
                        raise SystemExit(f"a worker stopped: {Path(log.name).read_text()[-2000:]}")
                time.sleep(2)
            else:
                raise SystemExit(f"{len(late_d)} of {len(due)} deadlines fired within {left + 1800:.0f} s")
            time.sleep(1)  # the last job's bookkeeping, after its event
            counts.update(job_counts(redis))
            failed = Queue(QUEUE_NAME, connection=redis).failed_job_registry.get_job_ids()
        finally:
            for worker in workers:
                worker.terminate()
            for worker in workers:
                worker.wait(60)
        texts = [Path(log.name).read_text(errors="replace") for log in logs]
        warned = sum(text.count("reminder not sent:") for text in texts)
        twice = ran_twice(texts)
        for log in logs:
            log.close()
        with psycopg.connect(url) as conn:
            last = conn.execute("select max(recorded_at) from events where type in ('ReminderDue', 'TurnTimedOut')"
                                ).fetchone()[0]
    done = sum(c[0] for c in counts.values())
    busy = max((last - minute).total_seconds(), 1e-3)
    in_jobs = sum(c[2] for c in counts.values())
    print(f"fired: {len(late_d)} of {len(due)} deadlines; {len(late_r)} of {seats} reminders sent (one a seat "
          f"to act), {seats - len(late_r)} dropped: their deadline had passed when a worker reached them "
          f"({warned} said so at WARNING)")
    print(f"jobs: {done} done by {args.workers} worker(s) {' '.join(args.worker) or '(in-process)'}, "
          f"{len(failed)} failed; {done / busy:.1f} jobs/s over {busy:.0f} s from the first due second to the "
          f"last event; {in_jobs / max(done, 1) * 1000:.1f} ms in each job (RQ's time from start to end)")
    print(f"jobs run more than once: {sum(twice.values())} ({', '.join(sorted(twice)) or 'none'};"
          " a second run changes nothing, but it is a job's time spent again)")
    for job_id in failed[:5]:
        print(f"failed: {job_id}")
    if not late_r or not late_d:
        return 1
    rows = [("reminders", late_r), ("deadlines", late_d)]
    for name, values in rows:
        print(f"{name + ':':11} lateness p50 {percentile(values, 0.5):6.2f} s, p99 {percentile(values, 0.99):6.2f} s,"
              f" max {values[-1]:6.2f} s")
    print(f"ratio reminders / deadlines: p50 {percentile(late_r, 0.5) / max(percentile(late_d, 0.5), 1e-3):.2f},"
          f" p99 {percentile(late_r, 0.99) / max(percentile(late_d, 0.99), 1e-3):.2f}")
    return 0 if len(late_d) == len(due) == args.games and not failed else 1


JOB_LINE = re.compile(r"\b(deadline|reminder|absence|scoring) game=(\S+)( version=\d+)? ")


def ran_twice(texts: list[str]) -> Counter:
    """How many runs of each kind of job repeated a job already run: two
    lines of the workers' logs (one a job) for the same job (the bench's
    games have one reminder job and one deadline job at each version)."""
    seen = Counter(match.group(1, 2, 3) for text in texts for match in JOB_LINE.finditer(text))
    return Counter({kind: n for kind, n in Counter(
        key[0] for key, count in seen.items() for _ in range(count - 1)).items()})


def job_counts(redis) -> dict[str, tuple[int, int, float]]:
    """Each live worker's (jobs done, jobs failed, seconds spent in jobs), from its RQ statistics."""
    return {w.name: (w.successful_job_count, w.failed_job_count, w.total_working_time)
            for w in Worker.all(connection=redis)}


if __name__ == "__main__":
    sys.exit(main())
