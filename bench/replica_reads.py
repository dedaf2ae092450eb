"""Cold reads on a replica: the audit and the export of a finished game of
989 events (tests/golden/runebound/a-hero-wins.jsonl) and its past view
``?at=`` (the last version: the whole stream read and folded), each timed on
the primary alone and through DATABASE_REPLICA_URL (answered by the standby,
X-Read-From: replica), idle and under command load on the primary.

    python bench/replica_reads.py [--rounds 7] [--load 2]

A primary and a streaming hot standby of its own (initdb, pg_basebackup -R:
the fixture of tests/failover/test_replica_reads.py), both on this machine;
the command load is ``--load`` processes each playing Cronberg games through
the API on the primary as fast as they can. Prints, for each read, the median
milliseconds on the primary, on the replica, and replica / primary.

On one machine the standby shares the CPU with the primary, the load and the
reader, so what this shows is what routing costs (the standby's version
check: one more round trip) and that the standby answers as fast; the load a
replica takes off the primary's machine is only shown on two machines.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from api.http.app import create_app  # noqa: E402
from api.http.replica_reads import EXTENSION  # noqa: E402
from tests.failover.test_replica_reads import Pair, machine_postgres  # noqa: E402
from tests.support.stored_games import golden_files, read_export, store_game  # noqa: E402

APP = {"REDIS_URL": None, "RATE_LIMIT_PER_MINUTE": 0}


def command_load(url: str, stop, commands) -> None:
    """Play Cronberg games on the primary until told to stop, counting commands."""
    from tests.api.conftest import Player, started_game

    app = create_app({**APP, "DATABASE_URL": url})
    client = app.test_client()
    while not stop.is_set():
        tag = uuid.uuid4().hex[:6]
        players = [Player(client, f"load-{tag}-{n}") for n in (1, 2)]
        game_id = started_game(players)
        while not stop.is_set():
            view = players[0].view(game_id).json
            if view["status"] != "active":
                break
            mover = next(p for p in players if p.view(game_id).json["seat"] in view["to_act"])
            assert mover.act(game_id, mover.legal(game_id)[0]).status_code == 200
            with commands.get_lock():
                commands.value += 1


def timed(client, path: str, rounds: int, source: str | None) -> float:
    """The median milliseconds of ``rounds`` GETs of ``path``, each checked to be answered by ``source``."""
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        response = client.get(path)
        times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, response.get_data(as_text=True)[:200]
        assert response.headers.get("X-Read-From") == source, (path, response.headers.get("X-Read-From"))
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--load", type=int, default=2, help="processes sending commands to the primary")
    args = parser.parse_args()
    binaries = machine_postgres()
    if binaries is None:
        print("no PostgreSQL with pg_basebackup under /usr/lib/postgresql/*/bin or on PATH", file=sys.stderr)
        return 2
    folder = Path(tempfile.mkdtemp(prefix="boardlog-replica-bench-"))
    folder.chmod(0o755)
    pair = Pair(folder, binaries)
    try:
        pair.start()
        plain = create_app({**APP, "DATABASE_URL": pair.primary_url})
        replicated = create_app({**APP, "DATABASE_URL": pair.primary_url, "DATABASE_REPLICA_URL": pair.replica_url})
        records = read_export(golden_files("runebound")[0])
        game_id = store_game(plain.extensions["boardlog"].service, records, copy=True)
        pair.wait_caught_up()
        reads = {"audit": f"/v1/games/{game_id}/audit", "export": f"/v1/games/{game_id}/export",
                 "view ?at=": f"/v1/games/{game_id}/view?at={len(records)}"}
        print(f"{len(records)}-event finished game; {args.rounds} rounds each; load average "
              f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs at the start")
        print(f"{'read':<10} {'phase':<22} {'primary ms':>10} {'replica ms':>10} {'replica/primary':>16}")
        spawn = multiprocessing.get_context("spawn")
        for phase, loaders in (("idle", 0), (f"{args.load} command processes", args.load)):
            stop, commands = spawn.Event(), spawn.Value("i", 0)
            workers = [spawn.Process(target=command_load, args=(pair.primary_url, stop, commands))
                       for _ in range(loaders)]
            for worker in workers:
                worker.start()
            if workers:
                while commands.value < 20:  # the load is on before anything is timed
                    time.sleep(0.1)
            started, before = time.perf_counter(), commands.value
            for name, path in reads.items():
                on_primary = timed(plain.test_client(), path, args.rounds, None)
                on_replica = timed(replicated.test_client(), path, args.rounds, "replica")
                ratio = on_replica / on_primary
                print(f"{name:<10} {phase:<22} {on_primary:>10.1f} {on_replica:>10.1f} {ratio:>16.2f}")
            stop.set()
            for worker in workers:
                worker.join(timeout=60)
            if workers:
                print(f"{'':<10} {phase:<22} commands/s meanwhile: "
                      f"{(commands.value - before) / (time.perf_counter() - started):.0f}; load average "
                      f"{os.getloadavg()[0]:.1f}")
        replicated.extensions[EXTENSION].close()
        for app in (plain, replicated):
            app.extensions["boardlog"].service.store.close()
    finally:
        try:
            pair.stop()
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
