"""PostgreSQL restarted under an idle API: a private cluster of the test's
own is stopped (a fast shutdown closes every connection) and started again.
The pool then holds only dead connections; the first request must not be
handed one."""

from __future__ import annotations

import subprocess
import sys
import time
import uuid
from pathlib import Path

import psycopg
import psycopg_pool
import pytest

from api.http.app import create_app
from eventstore import migrate
from eventstore.pool import CheckedPool, closed_by_server
from tests.support.private_postgres import private_postgres

ROOT = Path(__file__).resolve().parents[2]

IDLE_CONNECTIONS = 5


@pytest.fixture(scope="module")
def postgres():
    with private_postgres() as server:
        migrate(server.url)
        yield server


@pytest.fixture
def api(postgres):
    app = create_app({"DATABASE_URL": postgres.url, "REDIS_URL": None, "RATE_LIMIT_PER_MINUTE": 0,
                      "POOL_SIZE": IDLE_CONNECTIONS + 2})
    yield app
    app.extensions["boardlog"].service.store.close()


def fill_with_idle_connections(pool, count=IDLE_CONNECTIONS):
    """As after a busy moment: several connections, all back in the pool, idle."""
    held = [pool.getconn() for _ in range(count)]
    for conn in held:
        pool.putconn(conn)
    assert pool.get_stats()["pool_available"] >= count


def test_the_first_request_after_postgresql_restarts_succeeds(postgres, api):
    client = api.test_client()
    player = client.post("/v1/players", json={"name": f"r-{uuid.uuid4().hex[:6]}"}).json
    auth = {"Authorization": f"Bearer {player['token']}"}
    fill_with_idle_connections(api.extensions["boardlog"].service.pool)
    postgres.restart()
    started = time.monotonic()
    first = client.get("/v1/players/me/inbox", headers=auth)
    took = time.monotonic() - started
    assert first.status_code == 200, first.json
    assert took < 1.0, f"the first request took {took:.2f}s"
    answers = [client.get("/v1/players/me/inbox", headers=auth).status_code for _ in range(2 * IDLE_CONNECTIONS)]
    assert answers == [200] * len(answers)
    assert client.post("/v1/players", json={"name": f"s-{uuid.uuid4().hex[:6]}"}).status_code == 201


def test_readyz_does_not_flap_after_postgresql_restarts(postgres, api):
    client = api.test_client()
    fill_with_idle_connections(api.extensions["boardlog"].service.pool)
    postgres.restart()
    answers = [client.get("/readyz") for _ in range(2 * IDLE_CONNECTIONS)]
    assert [a.status_code for a in answers] == [200] * len(answers), [a.json for a in answers]


def test_a_healthy_idle_connection_is_handed_out_without_a_round_trip_and_a_terminated_one_is_not(
        postgres, monkeypatch):
    checked = []
    real_check = psycopg_pool.ConnectionPool.check_connection
    monkeypatch.setattr(psycopg_pool.ConnectionPool, "check_connection",
                        staticmethod(lambda conn: checked.append(conn) or real_check(conn)))
    # One connection, already open: a checkout racing the pool's first connect would grow it to two.
    with CheckedPool(postgres.url, min_size=1, max_size=1, kwargs={"autocommit": True}, open=True) as pool:
        pool.wait()
        with pool.connection() as conn:
            backend = conn.info.backend_pid
        with pool.connection() as conn:
            assert conn.info.backend_pid == backend and checked == []
        with psycopg.connect(postgres.url, autocommit=True) as admin:
            admin.execute("select pg_terminate_backend(%s)", (backend,))
        time.sleep(0.2)  # the goodbye reaches the idle connection's socket
        with pool.connection() as conn:
            assert conn.info.backend_pid != backend and len(checked) == 1
            conn.execute("select 1")


def test_psycopg_pools_own_check_would_sleep_past_the_pool_timeout_on_dead_connections(postgres):
    """Why the pool is not psycopg_pool's with check=check_connection: after a
    restart it pauses 1 s, 2 s, ... between dead connections."""
    pool = psycopg_pool.ConnectionPool(postgres.url, min_size=1, max_size=IDLE_CONNECTIONS + 1, timeout=3,
                                       kwargs={"autocommit": True}, check=psycopg_pool.ConnectionPool.check_connection,
                                       open=True)
    try:
        pool.wait()
        fill_with_idle_connections(pool, 3)
        postgres.restart()
        started = time.monotonic()
        try:
            with pool.connection() as conn:
                conn.execute("select 1")
        except psycopg_pool.PoolTimeout:
            pass
        assert time.monotonic() - started > 2.5
    finally:
        pool.close()


def test_a_connection_past_descriptor_1024_is_judged_like_any_other(postgres, monkeypatch):
    """A process holding thousands of waiting sockets has descriptors that
    select() cannot take; the check must not take them for dead ones."""
    import os

    from api.processes.serving import raise_fd_limit

    if raise_fd_limit(4096) < 2048:
        pytest.skip("the open-file limit cannot be raised past 2,048 here")
    checked = []
    real_check = psycopg_pool.ConnectionPool.check_connection
    monkeypatch.setattr(psycopg_pool.ConnectionPool, "check_connection",
                        staticmethod(lambda conn: checked.append(conn) or real_check(conn)))
    padding = []
    try:
        while not padding or padding[-1] < 1100:
            padding.append(os.open(os.devnull, os.O_RDONLY))
        with psycopg.connect(postgres.url, autocommit=True) as conn:
            assert conn.fileno() > 1024
            assert not closed_by_server(conn) and checked == []
    finally:
        for fd in padding:
            os.close(fd)


def test_the_check_of_a_healthy_connection_does_not_hand_the_greenlet_over_under_gevent(postgres):
    """A checkout's look at its connection's socket is a poll that cannot
    block: under gevent (the server's workers) it must not switch to the hub,
    which costs a switch and lets other requests run in the middle of a
    checkout, twice a move."""
    script = (
        "from gevent import monkey; monkey.patch_all()\n"
        "import sys, gevent, psycopg\n"
        "from eventstore.pool import closed_by_server\n"
        "ran = []\n"
        "with psycopg.connect(sys.argv[1], autocommit=True) as conn:\n"
        "    gevent.spawn(ran.append, 'another greenlet')\n"
        "    healthy = not closed_by_server(conn)\n"
        "    print(healthy, ran)\n"
    )
    assert _under_gevent(script, postgres.url) == "True []"


def test_a_connection_the_server_closed_is_still_found_under_gevent(postgres):
    script = (
        "from gevent import monkey; monkey.patch_all()\n"
        "import sys, time, psycopg\n"
        "from eventstore.pool import closed_by_server\n"
        "conn = psycopg.connect(sys.argv[1], autocommit=True)\n"
        "with psycopg.connect(sys.argv[1], autocommit=True) as other:\n"
        "    other.execute('select pg_terminate_backend(%s)', (conn.info.backend_pid,))\n"
        "time.sleep(0.5)\n"
        "print(closed_by_server(conn))\n"
    )
    assert _under_gevent(script, postgres.url) == "True"


def _under_gevent(script: str, url: str) -> str:
    """What ``script`` prints, run in a process of its own (gevent patches the whole process)."""
    done = subprocess.run([sys.executable, "-c", script, url], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()
