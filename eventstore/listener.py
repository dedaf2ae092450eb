"""One LISTEN connection per store, shared by every thread waiting for a stream to move.

The listener thread keeps the newest version it has heard of per stream and
wakes all waiters (a threading.Condition) on each notification. A waiter first
makes sure the listener is listening, then asks the database for the current
version, so a notification can't slip between the check and the wait. When the
LISTEN connection drops, the thread reconnects and wakes everyone, and waiters
re-read the version from the database.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Callable

import psycopg

CHANNEL = "boardlog_events"
_log = logging.getLogger(__name__)


def parse_payload(payload: str) -> tuple[str, int] | None:
    stream_id, _, version = payload.rpartition(":")
    try:
        return stream_id, int(version)
    except ValueError:
        return None


class VersionListener:
    def __init__(self, connect: Callable[[], psycopg.Connection],
                 current_version: Callable[[str], int], recent=None):
        self._connect = connect
        self._current_version = current_version
        self._recent = recent  # a RecentVersions told of every notification, or None
        self._condition = threading.Condition()
        self._heard: dict[str, int] = {}  # only streams someone waits on
        self._waiting: dict[str, int] = {}  # stream -> number of waiters
        self._generation = 0  # bumped on each (re)connection
        self._ready = threading.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()

    def _ensure_started(self, timeout: float) -> None:
        with self._start_lock:
            if self._stopping.is_set():
                raise RuntimeError("the event store is closed")
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="eventstore-listen",
                                                daemon=True)
                self._thread.start()
        self._ready.wait(timeout)

    def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                with self._connect() as conn:
                    conn.execute(f"listen {CHANNEL}")
                    with self._condition:
                        self._generation += 1
                        self._heard.clear()  # versions heard before may be stale now
                        self._condition.notify_all()
                    if self._recent is not None:
                        self._recent.forget_all()
                    self._ready.set()
                    while not self._stopping.is_set():
                        for notify in conn.notifies(timeout=0.5):
                            parsed = parse_payload(notify.payload)
                            if parsed is None:
                                continue
                            if self._recent is not None:
                                self._recent.heard(*parsed)
                            with self._condition:
                                stream_id, version = parsed
                                if stream_id not in self._waiting:
                                    continue
                                if version > self._heard.get(stream_id, 0):
                                    self._heard[stream_id] = version
                                self._condition.notify_all()
            except psycopg.Error as error:
                if self._stopping.is_set():
                    break
                _log.warning("eventstore LISTEN connection lost (%s); reconnecting", error)
                self._ready.clear()
                time.sleep(0.5)

    def wait(self, stream_id: str, version: int, timeout: float) -> int:
        deadline = time.monotonic() + max(0.0, timeout)
        self._ensure_started(timeout)
        with self._condition:
            self._waiting[stream_id] = self._waiting.get(stream_id, 0) + 1
            generation = self._generation
        try:
            return self._wait(stream_id, version, deadline, generation)
        finally:
            with self._condition:
                self._waiting[stream_id] -= 1
                if not self._waiting[stream_id]:
                    del self._waiting[stream_id]
                    self._heard.pop(stream_id, None)

    def _wait(self, stream_id: str, version: int, deadline: float, generation: int) -> int:
        current = self._current_version(stream_id)
        while current <= version:
            with self._condition:
                while True:
                    if self._generation != generation:
                        generation = self._generation
                        break  # reconnected: ask the database again
                    heard = self._heard.get(stream_id, 0)
                    if heard > version:
                        return heard
                    remaining = deadline - time.monotonic()
                    if remaining <= 0 or self._stopping.is_set():
                        break
                    self._condition.wait(remaining)
            if time.monotonic() >= deadline or self._stopping.is_set():
                return self._current_version(stream_id)
            current = self._current_version(stream_id)
        return current

    def start(self) -> bool:
        """Start listening without waiting; True once the LISTEN is in place."""
        self._ensure_started(0)
        return self._ready.is_set()

    def stop(self) -> None:
        self._stopping.set()
        thread = self._thread
        if thread is not None:
            thread.join(timeout=5)
        with self._condition:
            self._condition.notify_all()
