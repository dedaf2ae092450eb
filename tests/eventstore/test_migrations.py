"""Migrations: applied once, in order, safely when processes start together."""

from __future__ import annotations

import threading

import psycopg
import pytest

from eventstore import migrate
from eventstore.migrations import migration_files
from eventstore.servers import temporary_database, with_database


@pytest.fixture
def empty_database(database_url):
    with temporary_database(with_database(database_url, "postgres"), "boardlog_migrate") as url:
        yield url


def test_migrations_are_applied_in_name_order_and_never_twice(empty_database):
    names = [path.name for path in migration_files()]
    assert names == sorted(names) and names[:3] == [
        "0001_events.sql", "0002_snapshots.sql", "0003_append_function.sql"]
    assert migrate(empty_database) == names
    assert migrate(empty_database) == []
    with psycopg.connect(empty_database) as conn:
        recorded = [row[0] for row in conn.execute(
            "select name from schema_migrations order by name")]
    assert recorded == names


def test_processes_starting_at_once_apply_each_migration_exactly_once(empty_database):
    results, errors = [], []

    def start_up():
        try:
            results.append(migrate(empty_database))
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=start_up) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    applied = [name for result in results for name in result]
    assert sorted(applied) == [path.name for path in migration_files()]


def test_migrate_accepts_an_open_connection(empty_database):
    with psycopg.connect(empty_database) as conn:
        assert migrate(conn)[:1] == ["0001_events.sql"]
        assert migrate(conn) == []
        assert conn.execute("select count(*) from events").fetchone() == (0,)


def test_a_migration_changed_after_it_was_applied_is_not_run_again_but_reported(
        empty_database, tmp_path, caplog):
    (tmp_path / "0001_first.sql").write_text("create table first_table (id int);")
    assert migrate(empty_database, tmp_path) == ["0001_first.sql"]
    (tmp_path / "0001_first.sql").write_text("create table first_table (id bigint);")
    (tmp_path / "0002_second.sql").write_text("create table second_table (id int);")
    (tmp_path / "notes.txt").write_text("not a migration")
    assert migrate(empty_database, tmp_path) == ["0002_second.sql"]
    assert "0001_first.sql changed after it was applied" in caplog.text


def test_a_failing_migration_leaves_nothing_half_applied(empty_database, tmp_path):
    (tmp_path / "0001_broken.sql").write_text(
        "create table half (id int); insert into nowhere values (1);")
    with pytest.raises(psycopg.errors.UndefinedTable):
        migrate(empty_database, tmp_path)
    with psycopg.connect(empty_database) as conn:
        assert conn.execute("select to_regclass('half')").fetchone() == (None,)
        assert conn.execute("select count(*) from schema_migrations").fetchone() == (0,)
    (tmp_path / "0001_broken.sql").write_text("create table half (id int);")
    assert migrate(empty_database, tmp_path) == ["0001_broken.sql"]
