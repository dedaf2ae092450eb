"""What the pool's checkout check costs (eventstore/pool.py), beside a plain
pool and psycopg_pool's own ``check=ConnectionPool.check_connection``.

    python bench/pool_check.py [--rounds 5] [--polls 300] [--checkouts 2000]

Uses the server at DATABASE_URL, or an embedded PostgreSQL when it is unset,
and a throwaway database on it. Per pool, in interleaved rounds (so that a
machine's load falls on all three alike): ``GET /v1/players/me/inbox``
through the app in-process, and bare checkouts; prints the medians.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import psycopg_pool  # noqa: E402

from api.http.app import create_app  # noqa: E402
from api.service.games import GameService  # noqa: E402
from eventstore import PostgresEventStore, migrate  # noqa: E402
from eventstore.pool import CheckedPool  # noqa: E402
from eventstore.servers import temporary_database, temporary_server  # noqa: E402

KWARGS = {"autocommit": True, "connect_timeout": 5}
POOLS = {
    "plain": lambda url: psycopg_pool.ConnectionPool(url, min_size=1, max_size=4, kwargs=KWARGS, open=True),
    "check_connection": lambda url: psycopg_pool.ConnectionPool(
        url, min_size=1, max_size=4, kwargs=KWARGS, open=True, check=psycopg_pool.ConnectionPool.check_connection),
    "CheckedPool": lambda url: CheckedPool(url, min_size=1, max_size=4, kwargs=KWARGS, open=True),
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--polls", type=int, default=300)
    parser.add_argument("--checkouts", type=int, default=2000)
    args = parser.parse_args()
    with temporary_server(os.environ.get("DATABASE_URL")) as server, \
            temporary_database(server, "boardlog_bench") as url:
        migrate(url)
        setups = {}
        for name, make in POOLS.items():
            store = PostgresEventStore(make(url))
            client = create_app({"RATE_LIMIT_PER_MINUTE": 0, "REDIS_URL": None},
                                service=GameService(store)).test_client()
            token = client.post("/v1/players", json={"name": f"bench-{uuid.uuid4().hex[:6]}"}).json["token"]
            setups[name] = (client, {"Authorization": f"Bearer {token}"}, store)
        polls = {name: [] for name in POOLS}
        checkouts = {name: [] for name in POOLS}
        for _ in range(args.rounds):
            for name, (client, auth, store) in setups.items():
                started = time.perf_counter()
                for _ in range(args.polls):
                    assert client.get("/v1/players/me/inbox", headers=auth).status_code == 200
                polls[name].append((time.perf_counter() - started) / args.polls * 1e6)
                started = time.perf_counter()
                for _ in range(args.checkouts):
                    with store.pool.connection():
                        pass
                checkouts[name].append((time.perf_counter() - started) / args.checkouts * 1e6)
        plain = statistics.median(polls["plain"])
        for name in POOLS:
            poll = statistics.median(polls[name])
            print(f"{name:17} inbox poll {poll:7.0f} µs ({poll / plain:4.2f} x plain)   "
                  f"bare checkout {statistics.median(checkouts[name]):6.1f} µs")
        for _, _, store in setups.values():
            store.pool.close()


if __name__ == "__main__":
    main()
