"""Sends the NOTIFY of autocommit appends from one background connection, in batches.

A NOTIFY holds a database-wide lock from pre-commit to the end of its commit,
WAL flush included, so NOTIFY inside each appending transaction would make
appends commit one at a time. Instead, an autocommit append commits without
it, and this thread sends ``stream_id:version`` a few milliseconds later, in
one statement with the others that came meanwhile, in a transaction with an
asynchronous commit (it carries nothing durable). Appends inside a caller's transaction still NOTIFY in that
transaction. If the process dies between an append and its notification, the
notification is lost: waiters then see the change when their timeout makes
them re-read, so nothing is lost for correctness.
"""

from __future__ import annotations

import logging
import threading
from typing import Callable

import psycopg

from eventstore.listener import CHANNEL

_log = logging.getLogger(__name__)
BATCH_WINDOW = 0.005  # seconds a notification may wait for others to share its transaction


class Notifier:
    def __init__(self, connect: Callable[[], psycopg.Connection]):
        self._connect = connect
        self._condition = threading.Condition()
        self._pending: list[str] = []
        self._in_flight = 0
        self._stopping = False
        self._thread: threading.Thread | None = None

    def notify(self, stream_id: str, version: int) -> None:
        with self._condition:
            if self._stopping:
                return
            self._pending.append(f"{stream_id}:{version}")
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="eventstore-notify",
                                                daemon=True)
                self._thread.start()
            if len(self._pending) == 1:  # later ones join the batch being gathered
                self._condition.notify_all()

    def flush(self, timeout: float = 5.0) -> None:
        """Wait until every notification queued so far has been sent."""
        with self._condition:
            self._condition.wait_for(lambda: not self._pending and not self._in_flight,
                                     timeout)

    def _run(self) -> None:
        conn = None
        while True:
            with self._condition:
                self._condition.wait_for(lambda: self._pending or self._stopping)
                if not self._pending and self._stopping:
                    break
                if not self._stopping:
                    # let the notifications of a few more appends join this batch
                    self._condition.wait_for(lambda: self._stopping, timeout=BATCH_WINDOW)
                batch, self._pending = self._pending, []
                self._in_flight = len(batch)
            try:
                conn = self._send(conn, batch)
            finally:
                with self._condition:
                    self._in_flight = 0
                    self._condition.notify_all()
        if conn is not None:
            conn.close()

    def _send(self, conn, batch: list[str]):
        """Send a batch; on a broken connection retry once on a new one (a connection
        cut while idle is only found out when used). Returns the connection to keep."""
        for attempt in (1, 2):
            try:
                if conn is None or conn.closed:
                    conn = self._connect()
                    conn.execute("set synchronous_commit = off")
                conn.execute(
                    "select pg_notify(%s, payload) from unnest(%s::text[]) as payload",
                    (CHANNEL, batch),
                )
                return conn
            except psycopg.Error as error:
                if conn is not None:
                    conn.close()
                conn = None
                if attempt == 2 or not isinstance(error, psycopg.OperationalError):
                    _log.warning("eventstore could not send %d notification(s): %s",
                                 len(batch), error)
        return None

    def stop(self) -> None:
        with self._condition:
            self._stopping = True
            self._condition.notify_all()
            thread = self._thread
        if thread is not None:
            thread.join(timeout=5)
