"""Child processes that ``boardlog serve`` starts and must be able to stop
for sure: a pid file per child, and a stop that escalates.

A pid file holds the pid and the process's start time, so that a pid the
system has since given to an unrelated process is never taken for ours.
"""

from __future__ import annotations

import logging
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path

import psutil

log = logging.getLogger("boardlog.serve")

# The default stop: ask politely, then kill.
POLITE = ((signal.SIGTERM, 30.0), (signal.SIGKILL, 10.0))


@dataclass(frozen=True)
class Recorded:
    """A process as its pid file remembers it."""

    name: str
    pid: int
    started: float

    def process(self) -> psutil.Process | None:
        """The live process, if it is still the one recorded (not a zombie,
        not a newer process that got the same pid)."""
        try:
            process = psutil.Process(self.pid)
            if abs(process.create_time() - self.started) > 1.0:
                return None
            if process.status() == psutil.STATUS_ZOMBIE:
                return None
            return process
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            return None


def write_pid_file(path: Path, name: str, pid: int) -> None:
    try:
        started = psutil.Process(pid).create_time()
    except psutil.NoSuchProcess:
        return
    tmp = path.with_suffix(".tmp")
    tmp.write_text(f"{pid} {started!r} {name}\n")
    tmp.replace(path)


def read_pid_file(path: Path) -> Recorded | None:
    try:
        pid, started, name = path.read_text().split(maxsplit=2)
        return Recorded(name.strip(), int(pid), float(started))
    except (OSError, ValueError):
        return None


def alive(pid: int) -> bool:
    """Running, and not a zombie that nobody has reaped yet."""
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def stop_process(pid: int, name: str, steps=POLITE, group: bool = False) -> bool:
    """Send each signal of ``steps`` in turn, waiting its time for the
    process to exit, and log what it took. With ``group``, whatever is left
    of the process group afterwards (children it forked) is killed too.
    Answers whether the process is gone."""
    gone = _stop(pid, name, steps)
    if group:
        _kill_leftovers_of_group(pid, name)
    return gone


def _stop(pid: int, name: str, steps) -> bool:
    if not alive(pid):
        _reap(pid)
        return True
    for number, (signum, patience) in enumerate(steps):
        signame = signal.Signals(signum).name
        started = time.monotonic()
        try:
            os.kill(pid, signum)
        except ProcessLookupError:
            return True
        except PermissionError:
            log.error("cannot signal %s (pid %s): permission denied", name, pid)
            return False
        if _wait_gone(pid, patience):
            took = time.monotonic() - started
            if number == 0:
                log.info("%s (pid %s) stopped on %s in %.1fs", name, pid, signame, took)
            else:
                log.warning("%s (pid %s) stopped on %s in %.1fs", name, pid, signame, took)
            return True
        if number + 1 < len(steps):
            log.warning("%s (pid %s) still runs %gs after %s; sending %s", name, pid, patience,
                        signame, signal.Signals(steps[number + 1][0]).name)
    log.error("%s (pid %s) still runs after %s; giving up", name, pid,
              ", ".join(signal.Signals(s).name for s, _ in steps))
    return False


def _wait_gone(pid: int, patience: float) -> bool:
    deadline = time.monotonic() + patience
    while True:
        _reap(pid)
        if not alive(pid):
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.05)


def _reap(pid: int) -> None:
    """Collect the exit status of a child of ours, so it is no zombie (not
    a child of ours: nothing to do, init reaps it)."""
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass


def _kill_leftovers_of_group(pgid: int, name: str) -> None:
    """Processes still in the group whose leader was ``pgid``."""
    leftovers = []
    for process in psutil.process_iter(["pid"]):
        try:
            if process.pid != pgid and os.getpgid(process.pid) == pgid and process.status() != psutil.STATUS_ZOMBIE:
                leftovers.append(process.pid)
        except (ProcessLookupError, psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    if not leftovers:
        return
    log.warning("%s left %d process(es) behind (pids %s); killing them", name, len(leftovers),
                ", ".join(map(str, leftovers)))
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    for pid in leftovers:
        _wait_gone(pid, 5.0)
