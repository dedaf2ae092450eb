"""Waiting for what another process or thread does: poll, and give up with a
sentence that says what never came."""

from __future__ import annotations

import time


def wait_until(predicate, timeout: float = 60, what: str = "it", every: float = 0.05):
    """The predicate's first truthy value; AssertionError after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up after {timeout}s waiting for {what}")
        time.sleep(every)
