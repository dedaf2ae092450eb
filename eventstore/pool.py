"""A connection pool that does not hand out connections PostgreSQL has
already closed.

When PostgreSQL restarts (or terminates a backend), every idle pooled
connection is dead, but the pool cannot know until it is used: each would
fail the one request it was handed to (a 503), one after the other, for as
long as the pool held dead ones. The server's goodbye reaches the client
before the connection is ever used again: the socket of an idle connection is
then readable (an ErrorResponse, then end of file), while that of a healthy
idle connection is not (pooled connections LISTEN to nothing). So, on
checkout, a connection whose socket has something to read gets a real check
(one empty query); one that fails it is closed and the next one taken at
once, with no pause. A healthy connection costs one poll(2) and no round
trip (poll, not select: select cannot take the descriptors past 1,024 that a
process holding thousands of sockets has).

psycopg_pool's own ``check=ConnectionPool.check_connection`` would cost a
round trip on every checkout, and sleeps a growing backoff (1 s, 2 s, ...)
after each failed check: with three dead idle connections the first request
after a restart waits past the pool timeout and fails anyway. See docs/operators.md
("PostgreSQL restarts and outages") for the measurements.

A connection whose server vanished without a word (a host that lost power,
a cut network) is not readable and is still handed out; that request fails
with a 503 and the pool discards the connection.
"""

from __future__ import annotations

import select
import sys
import time

import psycopg
import psycopg_pool


def closed_by_server(conn: psycopg.Connection) -> bool:
    """Whether an idle connection was closed by the server: its socket has
    something to read, and an empty query on it fails."""
    if conn.closed:
        return True
    try:  # poll, not select: a process holding thousands of sockets has descriptors past select's 1,024
        poller = _poll_that_never_yields()
        poller.register(conn.fileno(), select.POLLIN | select.POLLERR | select.POLLHUP)
        readable = bool(poller.poll(0))
    except (OSError, ValueError):
        readable = True  # cannot tell: ask the server
    if not readable:
        return False
    try:  # an empty query reads whatever arrived: an error if it was a goodbye
        psycopg_pool.ConnectionPool.check_connection(conn)
    except psycopg.Error:
        return True
    return False


def _poll_that_never_yields():
    """select.poll as the kernel gives it. A poll of timeout 0 never blocks,
    but gevent's patched one still switches to its hub on every call (some 20
    us, and the greenlets that run meanwhile): twice a move, on every
    checkout of a connection, in a server's workers."""
    monkey = sys.modules.get("gevent.monkey")
    if monkey is not None and monkey.is_module_patched("select"):
        return monkey.get_original("select", "poll")()
    return select.poll()


# Seconds the pool goes on retrying (1 s, 2 s, 4 s... apart) a connection it
# could not open before it gives up on that attempt; the next caller that
# needs one starts a new attempt at once. psycopg_pool's default (300 s) lets
# the pause between attempts grow past two minutes while PostgreSQL is down,
# and callers would go on failing that long after it is back. Never longer
# than the pool's timeout: a caller that comes once PostgreSQL is back would
# otherwise wait for an attempt scheduled after its own deadline, and fail.
RECONNECT_TIMEOUT = 5.0


class CheckedPool(psycopg_pool.ConnectionPool):
    """psycopg_pool's ConnectionPool, whose checkout skips connections the
    server closed (see the module's docstring), and whose failed connection
    attempts give up after ``RECONNECT_TIMEOUT`` (or its timeout, if shorter)
    unless told otherwise."""

    def __init__(self, *args, timeout: float = 30.0, reconnect_timeout: float | None = None, **kwargs):
        if reconnect_timeout is None:
            reconnect_timeout = min(RECONNECT_TIMEOUT, timeout)
        super().__init__(*args, timeout=timeout, reconnect_timeout=reconnect_timeout, **kwargs)

    def getconn(self, timeout: float | None = None) -> psycopg.Connection:
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            conn = super().getconn(max(0.0, deadline - time.monotonic()))
            if not closed_by_server(conn):
                return conn
            conn.close()
            self.putconn(conn)  # a closed connection is discarded, and the pool opens another
