"""Stream versions this process knows, so that a conditional poll can be
answered without a query.

An entry is confirmed by a read from the database or by this process's
LISTEN connection hearing the stream move. A notification can be lost (a
process dying between its commit and its NOTIFY), so the LISTEN connection
also sweeps the commit-ordered feed every half second for every stream that
moved (eventstore/listener.py) and refreshes what is known here. An entry is
trusted while such a sweep completed within the last ``sweep_trust`` seconds
(a lost notification makes a poll stale for at most that long), and, without
sweeps, for ``max_age`` seconds after it was confirmed. While the LISTEN
connection is down nothing is trusted.
"""

from __future__ import annotations

import threading
import time


class RecentVersions:
    def __init__(self, max_age: float = 1.0, capacity: int = 100_000, clock=time.monotonic,
                 sweep_trust: float = 2.0):
        self.max_age = max_age
        self.sweep_trust = sweep_trust
        self._swept_at: float | None = None
        self.clock = clock
        self.capacity = capacity
        self._lock = threading.Lock()
        self._versions: dict[str, tuple[int, float]] = {}
        self._epoch = 0  # bumped whenever the LISTEN connection is (re)made

    def get(self, stream_id: str, max_age: float | None = None) -> int | None:
        entry = self._versions.get(stream_id)
        if entry is None:
            return None
        now = self.clock()
        if self._sweeps_fresh(now):
            return entry[0]
        if now - entry[1] > (self.max_age if max_age is None else max_age):
            return None
        return entry[0]

    def get_while_swept(self, stream_id: str) -> int | None:
        """The version known, only while sweeps keep coming: no confirmation's age stands in for them."""
        entry = self._versions.get(stream_id)
        return entry[0] if entry is not None and self._sweeps_fresh(self.clock()) else None

    def _sweeps_fresh(self, now: float) -> bool:
        return self._swept_at is not None and now - self._swept_at <= self.sweep_trust

    def epoch(self) -> int:
        return self._epoch

    def confirmed(self, stream_id: str, version: int, epoch: int) -> None:
        """A version read from the database while listening in ``epoch``."""
        with self._lock:
            if epoch == self._epoch:
                self._put(stream_id, version)

    def heard(self, stream_id: str, version: int) -> None:
        with self._lock:
            self._put(stream_id, version)

    def swept(self, moved: dict[str, int], epoch: int) -> None:
        """A sweep of the feed in ``epoch`` found these streams at these
        versions; every commit before the sweep began is now known here."""
        with self._lock:
            if epoch != self._epoch:
                return
            for stream_id, version in moved.items():
                known = self._versions.get(stream_id)
                if known is not None and known[0] < version:
                    self._versions[stream_id] = (version, known[1])
            self._swept_at = self.clock()

    def forget_all(self) -> None:
        with self._lock:
            self._versions.clear()
            self._epoch += 1
            self._swept_at = None

    def _put(self, stream_id: str, version: int) -> None:
        if len(self._versions) >= self.capacity:
            self._versions.clear()
        known = self._versions.get(stream_id)
        self._versions[stream_id] = (max(version, known[0]) if known else version, self.clock())
