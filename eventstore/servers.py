"""Getting a PostgreSQL to talk to: a database per test run or benchmark, or an embedded server.

Used by the test fixtures and the benchmarks; the embedded server itself is
eventstore/embedded.py, which ``boardlog serve`` uses too.
"""

from __future__ import annotations

import shutil
import tempfile
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg import sql


def with_database(url: str, dbname: str) -> str:
    """The same server URL with another database name."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + dbname, parts.query, parts.fragment))


@contextmanager
def temporary_server(server_url: str | None = None) -> Iterator[str]:
    """``server_url`` as is, or a throwaway embedded server (fsync off) that is deleted afterwards."""
    if server_url:
        yield server_url
        return
    from eventstore.embedded import THROWAWAY, EmbeddedPostgres

    folder = Path(tempfile.mkdtemp(prefix="boardlog-pg-"))
    # As root, PostgreSQL runs as a system user of its own: it must reach the folder.
    folder.chmod(0o755)
    server = EmbeddedPostgres(folder / "pgdata", settings=THROWAWAY)
    try:
        yield server.start()
    finally:
        try:
            server.stop()
        finally:
            shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def temporary_database(server_url: str, prefix: str = "boardlog_test") -> Iterator[str]:
    """A fresh database on the server, dropped (connections terminated) afterwards."""
    dbname = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(sql.SQL("create database {}").format(sql.Identifier(dbname)))
    try:
        yield with_database(server_url, dbname)
    finally:
        with psycopg.connect(server_url, autocommit=True) as admin:
            admin.execute(sql.SQL("drop database if exists {} with (force)").format(
                sql.Identifier(dbname)))
