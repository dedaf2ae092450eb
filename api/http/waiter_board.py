"""The waiters of one server, counted together: the workers of one gunicorn
master share their counts, so that BOARDLOG_MAX_WAITERS is the server's
total and not each worker's.

Why: the kernel does not spread connections evenly between the workers of
one listening socket (one accepts a burst while the other is busy), so a
limit per worker refused newcomers on the fuller worker while the other had
room (221 of 10,000 in bench/waiting.py's overload run of 2026-12-02).

How: the master maps one page of shared memory before it forks
(``make``, from gunicorn's ``on_starting``); every worker it forks inherits
the mapping. The master gives each worker a slot of its own as it forks it
(``assign``, from ``pre_fork``, where the master alone runs, so two
workers never take one slot) and zeroes it when the worker exits
(``release``, from ``child_exit``), so a worker that died holding waiters
counts no more. A worker writes only its own slot, one aligned 8-byte store
per change (atomic on the machines CPython runs on); the server's total is
the sum of the slots, read without a lock. So two workers deciding at the
same instant may both take the last place: the server may pass its total
by at most one waiter per other worker, for as long as those waiters stay.
No lock means no worker can die holding one.

Outside gunicorn (``boardlog serve``, tests) there is no board: each
process counts only its own waiters.
"""

from __future__ import annotations

import mmap

SLOTS = 64  # workers of one master that share a board; more are counted on their own (a warning)

_board: "WaiterBoard | None" = None  # the master's, inherited by its workers
_slot: int | None = None  # the slot of this worker, once the master gave it one


class WaiterBoard:
    def __init__(self, slots: int = SLOTS):
        self._memory = mmap.mmap(-1, slots * 8)  # anonymous and MAP_SHARED: forked children see each write
        self.counts = memoryview(self._memory).cast("q")
        self.slots = slots

    def total(self) -> int:
        return sum(self.counts)

    def set(self, slot: int, count: int) -> None:
        self.counts[slot] = count


class WorkerCount:
    """This worker's slot on the server's board."""

    __slots__ = ("board", "slot")

    def __init__(self, board: WaiterBoard, slot: int):
        self.board, self.slot = board, slot

    def set(self, count: int) -> None:
        self.board.set(self.slot, count)

    def server_total(self) -> int:
        return self.board.total()


def make(slots: int = SLOTS) -> WaiterBoard:
    """In the master, before it forks: the board its workers will share."""
    global _board
    _board = WaiterBoard(slots)
    return _board


def assign(taken: set[int]) -> int | None:
    """In the master, as it forks a worker: a free slot (zeroed), or None when all are taken."""
    if _board is None:
        return None
    free = next((slot for slot in range(_board.slots) if slot not in taken), None)
    if free is not None:
        _board.set(free, 0)
    return free


def release(slot: int | None) -> None:
    """In the master, once a worker exited: its waiters are gone with it."""
    if _board is not None and slot is not None:
        _board.set(slot, 0)


def adopt(slot: int | None) -> None:
    """In the worker, right after the fork: the slot the master gave it."""
    global _slot
    _slot = slot


def this_worker() -> WorkerCount | None:
    """This process's slot on its server's board; None outside gunicorn or
    without a slot (each process then counts only its own waiters)."""
    if _board is None or _slot is None:
        return None
    return WorkerCount(_board, _slot)
