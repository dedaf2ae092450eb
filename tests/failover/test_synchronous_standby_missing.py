"""A primary whose commits wait for synchronous standbys that are not there
(a promoted standby that kept the `synchronous_standby_names` pg_basebackup
copied from the old primary) froze every write for 94 s in an audit's
failover, with nothing in boardlog's logs. /readyz says so, the log says so
at the first check and at start-up, and both clear once the setting is
reset. A PostgreSQL of the test's own (the embedded one): the setting
freezes a whole server's writes."""

from __future__ import annotations

import logging

import psycopg
import pytest

from eventstore import migrate
from eventstore.embedded import THROWAWAY
from eventstore.synchronous import required_standbys
from tests.support.private_postgres import private_postgres as private_postgres_of_its_own
from tests.support.waiting import wait_until


@pytest.mark.parametrize(("names", "needed"), [
    ("", 0), ("standby1", 1), ("a, b", 1), ("*", 1), ("FIRST 2 (a, b, c)", 2), ("ANY 1 (a, b)", 1),
    ("2 (a, b)", 2), ("first 3 (a,b,c)", 3)])
def test_the_standbys_a_commit_waits_for_are_read_from_synchronous_standby_names(names, needed):
    assert required_standbys(names) == needed


@pytest.fixture
def private_postgres():
    # Commits that wait, as a production server's do (the throwaway servers' do not).
    with private_postgres_of_its_own({**THROWAWAY, "synchronous_commit": "on"}) as postgres:
        migrate(postgres.url)
        yield postgres.url


def configure(url: str, name: str, value: str | None) -> None:
    """ALTER SYSTEM (None: RESET), reloaded; once a new connection sees it
    (a reload reaches the server's processes by a signal, a moment later)."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"alter system set {name} = '{value}'" if value is not None else f"alter system reset {name}")
        conn.execute("select pg_reload_conf()")
    wanted = value if value is not None else ""

    def applied():
        with psycopg.connect(url) as conn:
            return conn.execute("select current_setting(%s)", (name,)).fetchone()[0] == wanted

    wait_until(applied, what=f"{name} reloaded")


def test_readyz_and_the_log_say_when_commits_wait_for_a_standby_that_is_not_connected(
        private_postgres, redis, caplog):
    from api.http.app import create_app
    from api.service.games import GameService
    from eventstore import PostgresEventStore

    store = PostgresEventStore.connect(private_postgres, min_size=1, max_size=2)
    try:
        app = create_app({"RATE_LIMIT_PER_MINUTE": 0}, service=GameService(store), redis=redis)
        client = app.test_client()
        assert client.get("/readyz").status_code == 200

        configure(private_postgres, "synchronous_standby_names", "FIRST 1 (standby1)")
        caplog.set_level(logging.INFO, logger="boardlog")
        # A reload reaches each server process by a signal: the pool's connection sees it a moment later.
        answer = wait_until(lambda: (a := client.get("/readyz")).status_code == 503 and a, what="a 503")
        assert answer.json["status"] == "not ready"
        said = answer.json["checks"]["postgres"]
        assert "1 synchronous standby(s) and 0 is connected" in said and "FIRST 1 (standby1)" in said
        assert "ALTER SYSTEM RESET synchronous_standby_names" in said
        assert [r.getMessage() for r in caplog.records if "synchronous" in r.getMessage()] == [
            f"not ready: PostgreSQL {said}"]
        assert client.get("/readyz").status_code == 503  # said once, not at every check
        assert sum("synchronous" in r.getMessage() for r in caplog.records) == 1

        configure(private_postgres, "synchronous_standby_names", None)
        wait_until(lambda: client.get("/readyz").status_code == 200, what="ready again")
        assert [r.getMessage() for r in caplog.records if r.name == "boardlog.health"][-1] == (
            "PostgreSQL commits no longer wait for a missing synchronous standby")
    finally:
        store.close()


def test_a_start_up_says_so_before_its_migrations(private_postgres, caplog):
    configure(private_postgres, "synchronous_standby_names", "standby1")
    caplog.set_level(logging.WARNING)
    migrate(private_postgres)  # everything applied already: nothing to write, nothing hangs
    assert any("every commit waits for 1 synchronous standby(s)" in r.getMessage() for r in caplog.records)


def test_commits_that_wait_on_nothing_are_not_reported(private_postgres, redis):
    """synchronous_commit off or local: the names are set, commits do not wait."""
    from eventstore.synchronous import missing_standbys

    configure(private_postgres, "synchronous_standby_names", "standby1")
    with psycopg.connect(private_postgres, autocommit=True) as conn:
        assert missing_standbys(conn) is not None
        for setting in ("local", "off"):
            conn.execute(f"set synchronous_commit = {setting}")
            assert missing_standbys(conn) is None
