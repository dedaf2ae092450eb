"""Getting a PostgreSQL to talk to: a database per test run or benchmark, or an embedded server.

Used by the test fixtures and the benchmark; ``boardlog serve`` may use
``embedded_server`` for its no-DATABASE_URL default.
"""

from __future__ import annotations

import shutil
import tempfile
import uuid
import warnings
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


def embedded_server(pgdata: Path, cleanup_mode: str | None = "stop"):
    """A pgserver PostgreSQL in ``pgdata`` (created if new); ``.get_uri()`` gives its URL."""
    with warnings.catch_warnings():  # platformdirs warns when XDG_RUNTIME_DIR is unset
        warnings.simplefilter("ignore")
        import pgserver
    pgdata = Path(pgdata)
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    return pgserver.get_server(pgdata, cleanup_mode=cleanup_mode)


@contextmanager
def temporary_server(server_url: str | None = None) -> Iterator[str]:
    """``server_url`` as is, or a throwaway embedded server that is deleted afterwards."""
    if server_url:
        yield server_url
        return
    folder = Path(tempfile.mkdtemp(prefix="boardlog-pg-"))
    # As root, pgserver runs postgres as a system user it creates: it must reach the folder.
    folder.chmod(0o755)
    server = embedded_server(folder / "pgdata", cleanup_mode="delete")
    try:
        yield server.get_uri()
    finally:
        try:
            server.cleanup()
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
