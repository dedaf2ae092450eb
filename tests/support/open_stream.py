"""An SSE stream held open through Flask's test client, read by a thread of
its own, so that a test can act while it runs and see when it ends."""

from __future__ import annotations

import threading
import time

from tests.support.sse import parse
from tests.support.waiting import wait_until


class HeldStream:
    def __init__(self, client, path: str, headers: dict | None = None):
        self.response = client.get(path, headers=headers or {}, buffered=False)
        self.status = self.response.status_code
        self.chunks: list[tuple[float, str]] = []  # (when, text), as the server wrote them
        self.ended = threading.Event()
        if self.status == 200:
            threading.Thread(target=self._read, daemon=True).start()
        else:
            self.ended.set()

    def _read(self) -> None:
        try:
            for chunk in self.response.response:
                self.chunks.append((time.monotonic(), chunk.decode()))
        finally:
            self.ended.set()

    @property
    def text(self) -> str:
        return "".join(text for _, text in self.chunks)

    def messages(self):
        return parse(self.text)[0]

    def started(self, timeout: float = 10) -> "HeldStream":
        """Once the stream wrote its first message (its retry hint, its id)."""
        wait_until(lambda: self.chunks, timeout, "the stream's first message")
        return self

    def until(self, predicate, timeout: float = 10, what: str = "a message"):
        return wait_until(lambda: predicate(self.messages()), timeout, what)

    def ends_within(self, seconds: float) -> bool:
        return self.ended.wait(seconds)

    def close(self, timeout: float = 30) -> None:
        """Once the stream ended by itself (a generator cannot be closed while
        the reading thread runs it): give the app a short stream lifetime."""
        self.ended.wait(timeout)
        if self.ended.is_set():
            self.response.close()
