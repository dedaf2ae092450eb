"""Recently confirmed stream versions, so that a conditional poll can be
answered without a query.

An entry is confirmed by a read from the database or by this process's
LISTEN connection hearing the stream move, and is trusted for ``max_age``
seconds only: if a notification is ever lost (a process dying between its
commit and its NOTIFY), a poll is stale for at most that long. While the
LISTEN connection is down nothing is trusted.
"""

from __future__ import annotations

import threading
import time


class RecentVersions:
    def __init__(self, max_age: float = 1.0, capacity: int = 100_000, clock=time.monotonic):
        self.max_age = max_age
        self.clock = clock
        self.capacity = capacity
        self._lock = threading.Lock()
        self._versions: dict[str, tuple[int, float]] = {}
        self._epoch = 0  # bumped whenever the LISTEN connection is (re)made

    def get(self, stream_id: str, max_age: float | None = None) -> int | None:
        entry = self._versions.get(stream_id)
        if entry is None or self.clock() - entry[1] > (self.max_age if max_age is None else max_age):
            return None
        return entry[0]

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

    def forget_all(self) -> None:
        with self._lock:
            self._versions.clear()
            self._epoch += 1

    def _put(self, stream_id: str, version: int) -> None:
        if len(self._versions) >= self.capacity:
            self._versions.clear()
        known = self._versions.get(stream_id)
        self._versions[stream_id] = (max(version, known[0]) if known else version, self.clock())
