"""check-history benchmark: games per second, against a plain replay measured
in the same run.

    python bench/history.py [--copies 10] [--rounds 3]

Uses the server at DATABASE_URL, or an embedded PostgreSQL when it is unset, and
a throwaway database on it, filled with ``copies`` copies of every golden game
(all five games, stored as the release before rules versions stored them: old
event shapes that must be upcast, finished games with their read models).

- baseline, "plain replay": one sequential scan of every game stream, each
  event upcast, decoded and folded; nothing checked;
- ``check-history`` with one process: the same scan, plus the rules lookup
  and data-file check, the hash chain, every decision re-run from the seed,
  and the comparison with the read models;
- ``check-history`` with one process per CPU.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import psycopg  # noqa: E402

from api.audit.history_check import _streams, check_history  # noqa: E402
from api.service.games import GameService  # noqa: E402
from domain import games as registry  # noqa: E402
from domain import session as sessions  # noqa: E402
from eventstore import PostgresEventStore, migrate  # noqa: E402
from eventstore.servers import temporary_database, temporary_server  # noqa: E402
from tests.support.stored_games import golden_files, read_export, store_game  # noqa: E402


def plain_replay(url: str) -> tuple[int, int]:
    games = events = 0
    with psycopg.connect(url) as conn:
        for _, records in _streams(conn, 0, 1):
            first = records[0]
            rules = registry.VERSIONS[first.data["game"]][first.data.get("rules_version", 1)]
            session = None
            for record in records:
                event = sessions.decode_stored(rules, record.type, record.schema_version, record.data)
                session = sessions.evolve(rules, session, event)
            games += 1
            events += len(records)
    return games, events


def timed(function, rounds: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(rounds):
        started = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - started)
    return statistics.median(times), result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--copies", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    cpus = os.cpu_count() or 1
    with temporary_server(os.environ.get("DATABASE_URL")) as server, temporary_database(server) as url:
        migrate(url)
        store = PostgresEventStore.connect(url, min_size=1, max_size=4)
        service = GameService(store)
        exports = [read_export(path) for path in golden_files()]
        for _ in range(args.copies):
            for records in exports:
                store_game(service, records, copy=True)
        store.close()

        plain, (games, events) = timed(lambda: plain_replay(url), args.rounds)
        single, report = timed(lambda: check_history(url, jobs=1), args.rounds)
        assert not report.divergent, [g.divergences for g in report.divergent]
        parallel, report = timed(lambda: check_history(url, jobs=cpus), args.rounds)
        assert not report.divergent and len(report.checked) == games

    print(f"{games} games, {events} events ({len(exports)} golden games x {args.copies}); median of {args.rounds} runs")
    print(f"{'plain replay (baseline)':<36} {games / plain:8.1f} games/s  {events / plain:9.0f} events/s")
    for name, seconds in ((f"check-history, 1 process", single), (f"check-history, {cpus} processes", parallel)):
        print(f"{name:<36} {games / seconds:8.1f} games/s  {events / seconds:9.0f} events/s"
              f"  ratio to plain replay {plain / seconds:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
