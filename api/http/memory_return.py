"""Memory given back after a spike of waiters.

Each waiter costs a greenlet, a socket and some tens of kilobytes, most of it
through C's malloc (greenlet stacks saved to the heap, psycopg and gevent
buffers) besides CPython's own arenas. When thousands leave, glibc keeps the
freed pages for reuse and the process's resident memory stays at its peak.
``malloc_trim(0)`` hands every free page back to the kernel.

It is called when the waiters held fell to half of their peak since the
last trim (and that peak was at least ``MIN_SPIKE`` waiters), at most once
per ``INTERVAL`` seconds, from the stream watchdog's round (once a second
under gevent), and run in gevent's thread pool so the event loop does not
stop while it walks the heap. Without glibc (musl, macOS) it does nothing:
the bound is then the peak.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os
import time

log = logging.getLogger("boardlog.streams")
MIN_SPIKE = 200
INTERVAL = 10.0


def resident_mib() -> float:
    """The process's resident memory in MiB (0 where /proc is missing)."""
    try:
        with open("/proc/self/statm") as statm:
            pages = int(statm.read().split()[1])
    except (OSError, ValueError, IndexError):
        return 0.0
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def _malloc_trim():
    try:
        trim = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim


class MemoryReturn:
    def __init__(self, clock=time.monotonic):
        self.clock = clock
        self.peak = 0  # waiters held at most since the last trim
        self.now = 0
        self._trimmed_at = float("-inf")
        self._trim = _malloc_trim()
        self.trims = 0

    def held(self, count: int) -> None:
        """The waiters held now (called under the registry's lock: no work here)."""
        self.now = count
        if count > self.peak:
            self.peak = count

    def due(self) -> bool:
        return (self._trim is not None and self.peak >= MIN_SPIKE and self.now <= self.peak // 2
                and self.clock() - self._trimmed_at >= INTERVAL)

    def tick(self) -> None:
        """Once in a while (the watchdog's round): give memory back if due."""
        if not self.due():
            return
        self._trimmed_at = self.clock()
        self.peak = self.now
        before = resident_mib()
        _in_thread_pool(self._trim, 0)
        self.trims += 1
        log.info("waiters fell to %s: gave back %.0f MiB of freed memory (malloc_trim)",
                 self.now, before - resident_mib())


def _in_thread_pool(function, *args):
    """Run it off the event loop under gevent (it blocks while glibc walks the heap), else here."""
    import sys

    monkey = sys.modules.get("gevent.monkey")
    if monkey is not None and monkey.is_module_patched("socket"):
        import gevent

        return gevent.get_hub().threadpool.apply(function, args)
    return function(*args)
