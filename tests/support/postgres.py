"""PostgreSQL for tests: the server at DATABASE_URL (CI), or an embedded pgserver.

Each test session gets its own fresh database ``boardlog_test_<random>``,
migrated, and dropped at the end; the embedded server (if any) is stopped and
its folder removed, so a run leaves nothing behind.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
import warnings
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from psycopg import sql

from eventstore import PostgresEventStore, migrate


def with_database(url: str, dbname: str) -> str:
    """The same server URL with another database name."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + dbname, parts.query, parts.fragment))


def _start_embedded_server():
    with warnings.catch_warnings():  # platformdirs warns when XDG_RUNTIME_DIR is unset
        warnings.simplefilter("ignore")
        import pgserver

    folder = Path(tempfile.mkdtemp(prefix="boardlog-pg-"))
    # As root, pgserver runs postgres as a system user it creates: it must reach the folder.
    folder.chmod(0o755)
    server = pgserver.get_server(folder / "pgdata", cleanup_mode="delete")
    return server, folder


def _stop_embedded_server(server, folder: Path) -> None:
    try:
        server.cleanup()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def database_url():
    server_url = os.environ.get("DATABASE_URL")
    server = folder = None
    if not server_url:
        server, folder = _start_embedded_server()
        server_url = server.get_uri()
    dbname = f"boardlog_test_{uuid.uuid4().hex[:12]}"
    try:
        with psycopg.connect(server_url, autocommit=True) as admin:
            admin.execute(sql.SQL("create database {}").format(sql.Identifier(dbname)))
        url = with_database(server_url, dbname)
        try:
            migrate(url)
            yield url
        finally:
            with psycopg.connect(server_url, autocommit=True) as admin:
                admin.execute(
                    "select pg_terminate_backend(pid) from pg_stat_activity"
                    " where datname = %s and pid <> pg_backend_pid()", (dbname,))
                admin.execute(sql.SQL("drop database if exists {} with (force)").format(
                    sql.Identifier(dbname)))
    finally:
        if server is not None:
            _stop_embedded_server(server, folder)


@pytest.fixture(scope="session")
def event_store(database_url):
    store = PostgresEventStore.connect(database_url, min_size=1, max_size=20)
    try:
        yield store
    finally:
        store.close()
