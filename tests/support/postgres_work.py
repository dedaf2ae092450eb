"""What a piece of code asks of PostgreSQL through a pool: the connections it
takes, the transactions it makes and the statements it sends.

    with postgres_work(service.pool) as work:
        client.get(...)
    assert work.checkouts == 0

A statement sent outside a transaction block on an autocommit connection is
a transaction of its own; a transaction block is one, whatever it sends.
Only connections taken from that pool while recording count: the LISTEN
connection, the notifier's and other tests' pools are not looked at.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field

import psycopg


@dataclass
class PostgresWork:
    checkouts: int = 0
    statements: list[str] = field(default_factory=list)
    blocks: int = 0  # transaction blocks (conn.transaction()), outermost only
    alone: int = 0  # statements sent outside any block: a transaction each
    _depth: dict = field(default_factory=dict)

    @property
    def transactions(self) -> int:
        return self.blocks + self.alone


@contextlib.contextmanager
def postgres_work(pool, monkeypatch):
    work = PostgresWork()
    taken: set[int] = set()
    real_getconn, real_execute, real_transaction = pool.getconn, psycopg.Cursor.execute, psycopg.Connection.transaction

    def getconn(*args, **kwargs):
        conn = real_getconn(*args, **kwargs)
        work.checkouts += 1
        taken.add(id(conn))
        return conn

    def execute(cursor, query, *args, **kwargs):
        conn = cursor.connection
        if id(conn) in taken:
            work.statements.append(query.as_string(conn) if hasattr(query, "as_string") else str(query))
            if not work._depth.get(id(conn)):
                work.alone += 1
        return real_execute(cursor, query, *args, **kwargs)

    @contextlib.contextmanager
    def transaction(conn, *args, **kwargs):
        counted = id(conn) in taken
        if counted:
            if not work._depth.get(id(conn)):
                work.blocks += 1
            work._depth[id(conn)] = work._depth.get(id(conn), 0) + 1
        try:
            with real_transaction(conn, *args, **kwargs) as tx:
                yield tx
        finally:
            if counted:
                work._depth[id(conn)] -= 1

    monkeypatch.setattr(pool, "getconn", getconn)
    monkeypatch.setattr(psycopg.Cursor, "execute", execute)
    monkeypatch.setattr(psycopg.Connection, "transaction", transaction)
    try:
        yield work
    finally:
        monkeypatch.setattr(pool, "getconn", real_getconn)
        monkeypatch.setattr(psycopg.Cursor, "execute", real_execute)
        monkeypatch.setattr(psycopg.Connection, "transaction", real_transaction)
