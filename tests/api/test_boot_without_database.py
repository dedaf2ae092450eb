"""The production server (gunicorn, api/processes/gunicorn_conf.py) started while its
PostgreSQL is down: a private cluster of the test's own, migrated, then
stopped. The processes boot, answer /healthz, answer 503 problem documents
on what needs the database, survive a worker dying meanwhile, and serve as
soon as PostgreSQL is back, without a restart. Then PostgreSQL restarts
under the idle server, and no request fails."""

from __future__ import annotations

import signal
import time
import uuid

import psutil
import pytest
import requests

from eventstore import migrate
from tests.api.test_waiting_server import Gunicorn
from tests.support.private_postgres import private_postgres
from tests.support.waiting import wait_until


@pytest.fixture(scope="module")
def postgres():
    with private_postgres() as server:
        migrate(server.url)
        server.stop()
        yield server


@pytest.fixture(scope="module")
def server(postgres, tmp_path_factory):
    log = tmp_path_factory.mktemp("gunicorn") / "log"
    gunicorn = Gunicorn(postgres.url, "", log, workers=2, BOARDLOG_POOL_TIMEOUT="1")
    gunicorn.log_path = log
    yield gunicorn
    gunicorn.stop()


def workers_of(server) -> list[int]:
    """The master's gunicorn workers (not its ``boardlog migrate`` children)."""
    pids = []
    for child in psutil.Process(server.process.pid).children():
        try:
            if child.status() != psutil.STATUS_ZOMBIE and "api.processes.cli" not in child.cmdline():
                pids.append(child.pid)
        except psutil.NoSuchProcess:
            pass
    return sorted(pids)


def register(server) -> requests.Response:
    return requests.post(f"{server.base}/v1/players", json={"name": f"b-{uuid.uuid4().hex[:6]}"}, timeout=10)


def test_a_server_started_while_postgresql_is_down_answers_healthz_and_503_problems(server):
    assert requests.get(f"{server.base}/healthz", timeout=5).json() == {"status": "ok"}
    for answer in (register(server),
                   requests.get(f"{server.base}/v1/games/{uuid.uuid4()}", timeout=10),
                   requests.get(f"{server.base}/readyz", timeout=10)):
        assert answer.status_code == 503, answer.text
    game = requests.get(f"{server.base}/v1/games/{uuid.uuid4()}", timeout=10)
    assert game.headers["content-type"] == "application/problem+json"
    assert game.json()["type"].endswith("/database-unavailable")
    assert "Retry-After" in game.headers
    assert "PostgreSQL is unreachable" in server.log_path.read_text()
    started = time.monotonic()
    # Unreachable, or (once requests have timed out on the pool) saturated: not ready either way.
    postgres = requests.get(f"{server.base}/readyz", timeout=10).json()["checks"]["postgres"]
    assert postgres.startswith(("unreachable", "saturated")), postgres
    assert time.monotonic() - started < 3, "readyz waited twice for a connection"


def test_a_worker_that_dies_while_postgresql_is_down_is_replaced_and_the_master_survives(server):
    before = workers_of(server)
    assert len(before) == 2
    psutil.Process(before[0]).send_signal(signal.SIGKILL)
    wait_until(lambda: len(workers_of(server)) == 2 and before[0] not in workers_of(server), timeout=30,
               what="a replacement worker")
    time.sleep(2)  # the replacement has booted (or failed to): the master is still there
    assert server.process.poll() is None, server.log_path.read_text()[-3000:]
    assert len(workers_of(server)) == 2
    answers = {requests.get(f"{server.base}/healthz", timeout=5).status_code for _ in range(10)}
    assert answers == {200}


def test_requests_succeed_once_postgresql_is_up_without_a_restart(server, postgres):
    postgres.start()
    started = time.monotonic()
    wait_until(lambda: register(server).status_code == 201, timeout=20, what="a request that succeeds")
    recovered = time.monotonic() - started
    answers = [register(server).status_code for _ in range(20)]
    assert answers == [201] * 20
    assert recovered < 10, f"the first success came {recovered:.1f}s after PostgreSQL was up"
    assert requests.get(f"{server.base}/readyz", timeout=10).status_code == 200
    assert server.process.poll() is None
    wait_until(lambda: "PostgreSQL answers; migrations" in server.log_path.read_text(), timeout=20,
               what="the master's migration once PostgreSQL answered")


def test_no_request_fails_after_postgresql_restarts_under_the_idle_server(server, postgres):
    with requests.Session() as session:  # several connections to both workers: their pools fill
        for _ in range(20):
            assert session.post(f"{server.base}/v1/players", json={"name": "warm"}, timeout=10).status_code == 201
    postgres.restart()
    answers = [register(server).status_code for _ in range(30)]
    assert answers == [201] * 30
    readiness = [requests.get(f"{server.base}/readyz", timeout=10).status_code for _ in range(10)]
    assert readiness == [200] * 10


def test_boardlog_migrate_says_postgresql_is_unreachable_with_a_status_of_its_own(tmp_path):
    import os
    import subprocess
    import sys

    from api.processes.cli import UNREACHABLE
    from tests.api.test_waiting_server import ROOT, free_port

    env = {**os.environ, "DATABASE_URL": f"postgresql://postgres@127.0.0.1:{free_port()}/none"}
    result = subprocess.run([sys.executable, "-m", "api.processes.cli", "migrate"], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == UNREACHABLE == 75
    assert "PostgreSQL is unreachable, nothing migrated" in result.stderr and result.stdout == ""


def schema_migrations(url) -> int | None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        if conn.execute("select to_regclass('schema_migrations')").fetchone()[0] is None:
            return None
        return conn.execute("select count(*) from schema_migrations").fetchone()[0]


def test_the_master_migrates_a_fresh_database_once_before_it_forks_and_workers_never_do(database_url,
                                                                                        tmp_path):
    from eventstore.migrations import migration_files
    from eventstore.servers import temporary_database

    with temporary_database(database_url, prefix="boardlog_boot") as fresh:
        gunicorn = Gunicorn(fresh, "", tmp_path / "log", workers=2)
        try:
            assert schema_migrations(fresh) == len(migration_files())
            assert register(gunicorn).status_code == 201
        finally:
            gunicorn.stop()
        log = (tmp_path / "log").read_text()
        assert log.count("migrations: applied") == 1, log[-3000:]
    with temporary_database(database_url, prefix="boardlog_boot") as fresh:
        gunicorn = Gunicorn(fresh, "", tmp_path / "log2", workers=2, BOARDLOG_MIGRATE="0")
        try:
            assert requests.get(f"{gunicorn.base}/healthz", timeout=5).status_code == 200
            time.sleep(1)
            assert schema_migrations(fresh) is None  # neither the master nor a worker migrated
        finally:
            gunicorn.stop()


class Log:
    def __init__(self):
        self.lines = []

    def info(self, *args):
        self.lines.append(("info", args[0] % args[1:]))

    warning = error = info


def fake_migrate(monkeypatch, code: str):
    import sys

    from api.processes import migrations_at_start

    monkeypatch.setattr(migrations_at_start, "MIGRATE", (sys.executable, "-c", code))
    return migrations_at_start


def test_a_migration_that_fails_stops_the_start_and_says_why(monkeypatch):
    migrations = fake_migrate(monkeypatch, "import sys; print('relation x does not exist', file=sys.stderr); sys.exit(1)")
    with pytest.raises(migrations.MigrationFailed, match="relation x does not exist"):
        migrations.run_in_master(Log())


def test_an_unreachable_database_is_retried_in_the_background_until_it_answers(monkeypatch, tmp_path):
    import threading

    marker = tmp_path / "attempts"
    code = (f"import sys, pathlib; p = pathlib.Path({str(marker)!r}); n = len(p.read_text()) if p.exists() else 0; "
            "p.write_text('x' * (n + 1)); "
            "(print('applied 1 migration(s): 0001', flush=True) if n >= 2 else "
            "(print('PostgreSQL is unreachable, nothing migrated', file=sys.stderr), sys.exit(75)))")
    migrations = fake_migrate(monkeypatch, code)
    monkeypatch.setattr(migrations, "RETRY_SECONDS", 0.05)
    log = Log()
    thread = migrations.run_in_master(log, threading.Event())
    assert thread is not None
    thread.join(10)
    assert not thread.is_alive() and len(marker.read_text()) == 3
    assert log.lines[-1] == ("info", "PostgreSQL answers; migrations: applied 1 migration(s): 0001")


def test_a_migration_reaped_by_gunicorn_is_not_taken_for_a_success(monkeypatch):
    # gunicorn's master reaps every child on SIGCHLD; subprocess then reports 0 whatever happened.
    migrations = fake_migrate(monkeypatch, "pass")  # status 0, and not a word: not "applied ..."
    assert migrations._migrate_once()[0] == "failed"
