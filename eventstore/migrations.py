"""Versioned SQL migrations: ``eventstore/migrations/NNNN_name.sql``, applied in name order.

Each file runs once, in its own transaction, and is recorded in
``schema_migrations``. A session advisory lock makes concurrent start-ups
(several API processes and workers at once) wait for each other instead of
applying a file twice.
"""

from __future__ import annotations

import hashlib
import logging
import re
from pathlib import Path

import psycopg

_log = logging.getLogger(__name__)
MIGRATIONS_DIR = Path(__file__).with_name("migrations")
MIGRATION_NAME = re.compile(r"^\d{4}_[A-Za-z0-9_\-]+\.sql$")
# An arbitrary constant, shared by every boardlog process: "bl" "migr".
ADVISORY_LOCK_KEY = 0x626C_6D69_6772


def _checksum(sql: str) -> str:
    return hashlib.sha256(sql.encode("utf-8")).hexdigest()


def migration_files(directory: Path = MIGRATIONS_DIR) -> list[Path]:
    return sorted(path for path in directory.iterdir() if MIGRATION_NAME.match(path.name))


def migrate(url_or_conn, directory: Path = MIGRATIONS_DIR) -> list[str]:
    """Apply every migration not applied yet; return the names applied now."""
    if isinstance(url_or_conn, str):
        from eventstore.primary import connect_primary

        from eventstore.synchronous import missing_standbys

        with connect_primary(url_or_conn, autocommit=True) as conn:  # NoPrimary: a URL of standbys only
            waiting = missing_standbys(conn)
            if waiting:  # said before the first write that would hang on it
                _log.warning("PostgreSQL: %s", waiting)
            return _migrate(conn, directory)
    return _migrate(url_or_conn, directory)


def _migrate(conn: psycopg.Connection, directory: Path) -> list[str]:
    if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
        raise RuntimeError("migrate needs a connection that is not inside a transaction")
    was_autocommit = conn.autocommit
    conn.autocommit = True
    conn.execute("select pg_advisory_lock(%s)", (ADVISORY_LOCK_KEY,))
    try:
        conn.execute(
            "create table if not exists schema_migrations ("
            " name text primary key,"
            " checksum text not null,"
            " applied_at timestamptz not null default now())"
        )
        applied = dict(conn.execute("select name, checksum from schema_migrations").fetchall())
        done = []
        for path in migration_files(directory):
            sql = path.read_text(encoding="utf-8")
            if path.name in applied:
                if applied[path.name] != _checksum(sql):
                    _log.warning("migration %s changed after it was applied; it is not run again"
                                 " (write a new migration instead)", path.name)
                continue
            with conn.transaction():
                conn.execute(sql)
                conn.execute(
                    "insert into schema_migrations (name, checksum) values (%s, %s)",
                    (path.name, _checksum(sql)),
                )
            done.append(path.name)
        return done
    finally:
        if not conn.closed:
            conn.execute("select pg_advisory_unlock(%s)", (ADVISORY_LOCK_KEY,))
            conn.autocommit = was_autocommit
