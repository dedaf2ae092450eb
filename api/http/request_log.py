"""The request log: a line per answered request, and each request's id."""

from __future__ import annotations

import itertools
import logging
import os
import time

log = logging.getLogger("boardlog.requests")

_process = None  # (pid, random prefix, counter): made anew in each forked process


def request_id(sent: str | None) -> str:
    """The client's X-Request-Id when it sent one, else 32 hex digits unique
    to this request: a random prefix per process and a counter (a uuid4 per
    request asks the kernel for randomness on every poll)."""
    if sent:
        return sent
    global _process
    if _process is None or _process[0] != os.getpid():
        _process = (os.getpid(), os.urandom(8).hex(), itertools.count())
    return f"{_process[1]}{next(_process[2]):016x}"


def line(method: str, path: str, status: int, started: float | None, player: str | None) -> None:
    if log.isEnabledFor(logging.INFO):
        elapsed = (time.perf_counter() - (started or time.perf_counter())) * 1000
        log.info("%s %s %s %.1fms player=%s", method, path, status, elapsed, player)
