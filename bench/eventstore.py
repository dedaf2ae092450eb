"""Event store benchmark: prints figures and ratios against baselines measured in the same run.

    python bench/eventstore.py [--seconds 2] [--rounds 3]

Uses the server at DATABASE_URL, or an embedded PostgreSQL when it is unset, and
a throwaway database on it. Measures:

- appends/s through ``append`` (1 event per call; each call a new stream, and
  each writer its own stream) at 1 and 8 concurrent writers, against a bare
  single-row INSERT into a plain table (autocommit) at the same concurrency;
  the goal is a ratio of 0.7+ at 8;
- ``read_stream`` and ``read_all`` events/s (goal 20,000+ for read_all), against
  a bare binary SELECT of the same rows;
- the time to load a 10,000-event stream with and without a snapshot.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from eventstore import ANY, NewEvent, PostgresEventStore, migrate  # noqa: E402
from eventstore.servers import temporary_database, temporary_server  # noqa: E402

EVENT_DATA = {"seat": "p1", "command": "move", "to": [3, 4], "note": "a typical small event"}
LONG_STREAM = 10_000


def run_writers(store, writers: int, seconds: float, one_write) -> float:
    """Operations per second with ``writers`` threads, each on its own pooled connection."""
    counts = [0] * writers
    start = threading.Barrier(writers + 1)
    stop = threading.Event()

    errors: list[BaseException] = []

    def writer(index: int) -> None:
        with store.pool.connection() as conn:
            start.wait()
            try:
                while not stop.is_set():
                    one_write(conn, index, counts[index])
                    counts[index] += 1
            except BaseException as error:  # stop the run and report it below
                errors.append(error)
                stop.set()

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(writers)]
    for thread in threads:
        thread.start()
    start.wait()
    began = time.perf_counter()
    stop.wait(seconds)
    stop.set()
    for thread in threads:
        thread.join()
    if errors:
        raise RuntimeError(f"a writer failed: {errors[0]!r}") from errors[0]
    return sum(counts) / (time.perf_counter() - began)


def bench_appends(store, seconds: float, rounds: int) -> None:
    run = uuid.uuid4().hex[:8]
    with store.pool.connection() as conn:
        conn.execute("create table bench_plain (id bigint generated always as identity"
                     " primary key, stream_id text not null, data jsonb not null)")

    def via_append(conn, writer, n):  # every call creates its own stream
        store.append(f"bench-{run}-{writer}-{n}", [NewEvent("Moved", EVENT_DATA)], ANY,
                     conn=conn)

    def via_append_own_stream(conn, writer, n):  # each writer appends to its own stream
        store.append(f"bench-{run}-writer-{writer}", [NewEvent("Moved", EVENT_DATA)], ANY,
                     conn=conn)

    def bare_insert(conn, writer, n):
        conn.execute("insert into bench_plain (stream_id, data) values (%s, %s::jsonb)",
                     (f"plain-{run}-{writer}-{n}", '{"seat": "p1"}'))

    for writers in (1, 8):
        # Alternate the sides and keep the medians: the machine's load and the
        # disk's fsync time drift during a run, and all sides should share it.
        rates: dict[str, list[float]] = {"bare": [], "new": [], "own": []}
        for _ in range(rounds):
            rates["bare"].append(run_writers(store, writers, seconds, bare_insert))
            rates["new"].append(run_writers(store, writers, seconds, via_append))
            rates["own"].append(run_writers(store, writers, seconds, via_append_own_stream))
        bare, new, own = (statistics.median(rates[key]) for key in ("bare", "new", "own"))
        goal = "   (goal >= 0.70)" if writers == 8 else ""
        print(f"appends, {writers} writer(s): bare INSERT {bare:6.0f}/s   append to a new stream"
              f" {new:6.0f}/s ratio {new / bare:.2f}   append to the writer's stream"
              f" {own:6.0f}/s ratio {own / bare:.2f}{goal}")


def timed(action, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        began = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - began)
    return best


def bench_reads(store) -> None:
    stream = f"bench-long-{uuid.uuid4().hex[:8]}"
    batch = 100
    for version in range(0, LONG_STREAM, batch):
        store.append(stream, [NewEvent("Moved", dict(EVENT_DATA, i=version + i))
                              for i in range(batch)], version)
    snapshot_at = LONG_STREAM - 50
    store.save_snapshot(stream, snapshot_at, 1, b"x" * 2000)

    def bare_select():  # the baseline: the same rows, fetched as plain tuples
        with store.pool.connection() as conn:
            return conn.cursor(binary=True).execute(
                "select * from events order by global_position").fetchall()

    total = len(bare_select())
    bare_rate = total / timed(bare_select)
    print(f"bare SELECT: {bare_rate:8.0f} events/s over {total} events (the baseline)")

    rate = LONG_STREAM / timed(lambda: store.read_stream(stream))
    print(f"read_stream: {rate:8.0f} events/s   ratio {rate / bare_rate:.2f}")

    def read_everything():
        after, count = 0, 0
        while page := store.read_all(after=after, limit=1000):
            count += len(page)
            after = page[-1].global_position
        return count

    assert read_everything() == total
    rate = total / timed(read_everything)
    print(f"read_all:    {rate:8.0f} events/s   ratio {rate / bare_rate:.2f}   (goal >= 20000/s)")

    without = timed(lambda: store.read_stream(stream))

    def with_snapshot():
        snapshot = store.load_snapshot(stream, 1)
        return store.read_stream(stream, snapshot.version + 1)

    assert len(with_snapshot()) == LONG_STREAM - snapshot_at
    with_ = timed(with_snapshot)
    print(f"load {LONG_STREAM}-event stream: {without * 1000:7.1f} ms without a snapshot, "
          f"{with_ * 1000:6.1f} ms with one ({LONG_STREAM - snapshot_at} events after it); "
          f"ratio {without / with_:.0f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per append measurement")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds per side")
    args = parser.parse_args()
    server_url = os.environ.get("DATABASE_URL")
    print(f"server: {'DATABASE_URL' if server_url else 'embedded PostgreSQL (fsync off)'}")
    with temporary_server(server_url) as server, \
            temporary_database(server, "boardlog_bench") as url:
        migrate(url)
        store = PostgresEventStore.connect(url, min_size=8, max_size=10)
        try:
            with store.pool.connection() as conn:
                version = conn.execute("show server_version").fetchone()[0]
                fsync = conn.execute("show fsync").fetchone()[0]
            print(f"PostgreSQL {version}, fsync {fsync}")
            bench_appends(store, args.seconds, args.rounds)
            bench_reads(store)
        finally:
            store.close()


if __name__ == "__main__":
    main()
