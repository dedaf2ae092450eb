"""One LISTEN connection per store, shared by everything waiting for a stream to move.

A waiter registers a ``Watch`` on the streams it cares about; the listener
keeps, per stream, the set of watches, so each notification wakes only the
waiters of that stream (never all of them: with thousands waiting on
hundreds of games, waking everyone on every move would be a thundering
herd). A watch is registered before the waiter reads the current version,
so a notification can't slip between the check and the wait. When the
LISTEN connection drops, the thread reconnects and wakes every watch, and
waiters re-read their versions.

Under gevent (``boardlog serve``, gunicorn's gevent worker) the thread and
the events are greenlets and green events, so a waiter holds no OS thread
and no database connection; with plain threads it works the same, a thread
per waiter.
"""

from __future__ import annotations

import logging
import threading
import time
import weakref
from typing import Callable, Iterable

import psycopg

CHANNEL = "boardlog_events"
ALIVE_SECONDS = 2.0  # a round takes at most the 0.5 s wait for notifies and a sweep
_log = logging.getLogger(__name__)


def parse_payload(payload: str) -> tuple[str, int] | None:
    stream_id, _, version = payload.rpartition(":")
    try:
        return stream_id, int(version)
    except ValueError:
        return None


class Watch:
    """Streams a waiter follows; ``wait`` returns once any moved (or on a
    reconnection, or when woken), giving the versions heard since."""

    __slots__ = ("streams", "heard", "woken", "_event", "_listener")

    def __init__(self, listener: "VersionListener", streams: Iterable[str]):
        self._listener = listener
        self.streams = frozenset(streams)
        self.heard: dict[str, int] = {}
        self.woken = False  # by a reconnection or a wake_all: versions must be re-read
        self._event = threading.Event()

    def _hear(self, stream_id: str, version: int) -> None:
        if version > self.heard.get(stream_id, 0):
            self.heard[stream_id] = version
        self._event.set()

    def _wake(self) -> None:
        self.woken = True
        self._event.set()

    def wake(self) -> None:
        """End the current (or next) wait now though nothing moved: the waiter
        has another reason to look (its stream's token was revoked)."""
        self._event.set()

    def wait(self, timeout: float) -> bool:
        """True if something happened since the last call (then cleared)."""
        happened = self._event.wait(max(0.0, timeout))
        self._event.clear()
        return happened

    def take(self) -> tuple[dict[str, int], bool]:
        """The versions heard and whether a reconnection or wake happened, then forget both."""
        heard, woken = self.heard, self.woken
        self.heard, self.woken = {}, False
        return heard, woken

    def follow(self, stream_id: str) -> None:
        self._listener._add(self, (stream_id,))
        self.streams = self.streams | {stream_id}

    def close(self) -> None:
        self._listener._remove(self)

    def __enter__(self) -> "Watch":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class VersionListener:
    def __init__(self, connect: Callable[[], psycopg.Connection],
                 current_version: Callable[[str], int], recent=None, sweeper=None):
        """``current_version``: the stream's version, which may come from
        what this process heard or read within the last second (the store's
        ``recent_version``): every notification is recorded there before any
        watch is told, so it never misses one that came before a watch."""
        self._connect = connect
        self._current_version = current_version
        self._recent = recent  # a RecentVersions told of every notification, or None
        # ``sweeper(conn, cursor) -> (moved, cursor)``: the streams that moved in
        # the commit-ordered feed after ``cursor`` (None: start from now), so
        # that a lost notification is made good within a sweep (versions.py).
        self._sweeper = sweeper
        # Reentrant: a waiter's generator that nobody closed is finalized by the
        # garbage collector, which may run inside any allocation, also one made
        # while this very thread holds the lock (in _add): its ``finally``
        # closes its watch, which takes the lock again. With a plain Lock that
        # thread waited for itself for ever (seen once in the suite: a test
        # stuck until its timeout). The guarded operations are each whole
        # under reentry: a removal inside an addition touches other entries only.
        self._lock = threading.RLock()
        self._watches: dict[str, set[Watch]] = {}
        self._all: set[Watch] = set()
        self._ready = threading.Event()
        self._stopping = threading.Event()
        self._draining = False  # the server is shutting down: waits end at once
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self._notices: dict[str, list[weakref.WeakMethod]] = {}  # another channel -> who hears its payloads
        self._listened: dict[str, float] = {}  # those LISTENed to on the connection now -> since when (wall-clock)
        self._epoch = 0  # bumped with each connection: what was heard before may have been missed since
        self._alive_at = 0.0  # when the connection last finished a round (a wait for notifies and a sweep)

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
                    self._listened = {}
                    self._epoch += 1
                    if self._recent is not None:
                        self._recent.forget_all()
                    epoch = self._recent.epoch() if self._recent is not None else 0
                    cursor = self._sweep(conn, None, epoch)
                    self.wake_all()  # versions heard before may be stale now
                    self._ready.set()
                    while not self._stopping.is_set():
                        self._listen_to_notices(conn)
                        for notify in conn.notifies(timeout=0.5):
                            if notify.channel != CHANNEL:
                                self._notice(notify.channel, notify.payload)
                                continue
                            parsed = parse_payload(notify.payload)
                            if parsed is not None:
                                self._dispatch(*parsed)
                        cursor = self._sweep(conn, cursor, epoch)
                        self._alive_at = time.monotonic()
            except psycopg.Error as error:
                if self._stopping.is_set():
                    break
                _log.warning("eventstore LISTEN connection lost (%s); reconnecting", error)
                self._ready.clear()
                time.sleep(0.5)

    def on_notice(self, channel: str, hear: Callable[[str], None]) -> None:
        """``hear(payload)`` (a bound method, held weakly) for each NOTIFY on
        ``channel`` (a plain identifier), from when ``listening_to(channel)`` says so."""
        with self._lock:
            hearers = [h for h in self._notices.get(channel, ()) if h() is not None]
            self._notices[channel] = hearers + [weakref.WeakMethod(hear)]
        self.start()

    def listening_to(self, channel: str) -> int | None:
        """An epoch while ``channel`` has been listened to without a break
        since it began (every NOTIFY committed since then is heard), else
        None; also None while the connection has not finished a round within
        ALIVE_SECONDS (a connection that went silent may be dead, not idle)."""
        return self._epoch if self.listening_since(channel) is not None else None

    def listening_since(self, channel: str) -> float | None:
        """Since when (``time.time()``) ``channel`` has been listened to
        without a break, or None (as ``listening_to``)."""
        since = self._listened.get(channel)
        if since is None or not self._ready.is_set() or time.monotonic() - self._alive_at > ALIVE_SECONDS:
            return None
        return since

    def _listen_to_notices(self, conn) -> None:
        with self._lock:
            new = set(self._notices) - set(self._listened)
        for channel in sorted(new):
            conn.execute(f"listen {channel}")
        if new:
            since = time.time()
            self._listened = {**self._listened, **{channel: since for channel in new}}

    def _notice(self, channel: str, payload: str) -> None:
        with self._lock:
            hearers = [h() for h in self._notices.get(channel, ())]
        for hear in hearers:
            if hear is None:
                continue
            try:
                hear(payload)
            except Exception:  # one hearer's fault must not stop the connection everyone waits on
                _log.exception("a notice on %s could not be heard", channel)

    def _sweep(self, conn, cursor, epoch: int):
        if self._sweeper is None or self._recent is None:
            return cursor
        moved, cursor = self._sweeper(conn, cursor)
        for stream_id, version in moved.items():
            self._dispatch(stream_id, version)  # a waiter whose notification was lost is woken too
        self._recent.swept(moved, epoch)
        return cursor

    def _dispatch(self, stream_id: str, version: int) -> None:
        if self._recent is not None:
            self._recent.heard(stream_id, version)
        with self._lock:
            watches = list(self._watches.get(stream_id, ()))
        for watch in watches:
            watch._hear(stream_id, version)

    def _add(self, watch: Watch, streams: Iterable[str]) -> None:
        with self._lock:
            self._all.add(watch)
            for stream_id in streams:
                self._watches.setdefault(stream_id, set()).add(watch)

    def _remove(self, watch: Watch) -> None:
        with self._lock:
            self._all.discard(watch)
            for stream_id in watch.streams:
                watchers = self._watches.get(stream_id)
                if watchers is not None:
                    watchers.discard(watch)
                    if not watchers:
                        del self._watches[stream_id]

    def watch(self, streams: Iterable[str], timeout: float = 5.0) -> Watch:
        """A registered watch; read the versions you compare against AFTER this."""
        self._ensure_started(timeout)
        watch = Watch(self, streams)
        self._add(watch, watch.streams)
        return watch

    def drain(self) -> None:
        """The server is shutting down: every wait returns now, and new ones at once."""
        self._draining = True
        self.wake_all()

    def wake_all(self) -> None:
        """Wake every waiter (a reconnection, or the server shutting down)."""
        with self._lock:
            watches = list(self._all)
        for watch in watches:
            watch._wake()

    @property
    def listening(self) -> bool:
        return self._ready.is_set()

    def waiters(self) -> int:
        with self._lock:
            return len(self._all)

    def wait(self, stream_id: str, version: int, timeout: float, until: Callable[[], bool] | None = None,
             watching: Callable[[Watch], None] | None = None) -> int:
        """The stream's version once past ``version``, or when ``timeout`` ran
        out, or once ``until()`` is true when the watch (given to
        ``watching``) is woken: the waiter has another reason to stop (its
        token was revoked)."""
        deadline = time.monotonic() + max(0.0, timeout)
        with self.watch((stream_id,), timeout) as watch:
            if watching is not None:
                watching(watch)
            current = self._current_version(stream_id)
            while current <= version and not self._stopping.is_set() and not self._draining:
                if until is not None and until():
                    break
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                watch.wait(remaining)
                heard, woken = watch.take()
                current = max(current, heard.get(stream_id, 0))
                if woken:
                    current = self._current_version(stream_id)
            if current <= version:
                current = self._current_version(stream_id)  # a notification may have been lost
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
        self.wake_all()
