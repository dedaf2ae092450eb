"""What ``boardlog serve`` does to keep its children in hand.

- One serve per data folder: ``claim_data_folder`` takes an exclusive lock
  on ``<data>/serve.lock`` (released by the kernel however serve ends, even
  by SIGKILL); a second serve on the same folder refuses, naming the first
  one's pid.
- Holding the lock, it stops whatever a serve that died unannounced left
  running (its worker, Redis, PostgreSQL: each remembered in a pid file
  under ``<data>/run/``) and removes pid files of processes that are gone.
  (The worker does not wait for that: on Linux the kernel sends it SIGTERM
  when serve dies.)
- SIGHUP (the terminal closed), SIGINT and SIGTERM all stop everything in
  order: the API, the worker, Redis, PostgreSQL. Each stop waits for the
  process to exit, escalates (to SIGKILL at last) and logs what it took.
"""

from __future__ import annotations

import fcntl
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from eventstore.embedded import POSTGRES_STOP, REDIS_STOP
from eventstore.processes import read_pid_file, stop_process, write_pid_file

log = logging.getLogger("boardlog.serve")

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
WORKER_STOP = ((signal.SIGTERM, 30.0), (signal.SIGKILL, 10.0))  # SIGTERM: RQ's warm shutdown
SERVE_PID = "BOARDLOG_SERVE_PID"  # set for the worker serve starts: the worker stops when serve dies
PR_SET_PDEATHSIG = 1
# Stopped in this order: what uses a server before the server.
CHILDREN = (("worker", WORKER_STOP), ("redis", REDIS_STOP), ("postgres", POSTGRES_STOP))


class FolderInUse(SystemExit):
    """Another serve holds the data folder; the message names its pid."""


class DataFolderLock:
    def __init__(self, data: Path):
        self.path = data / "serve.lock"
        self.file = None

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        file = open(self.path, "a+")
        try:
            fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            file.seek(0)
            holder = file.read().strip() or "unknown"
            file.close()
            raise FolderInUse(
                f"another boardlog serve (pid {holder}) is already running on the data folder "
                f"{self.path.parent}: stop it first (Ctrl-C in its terminal, or kill {holder}), "
                f"or give this one another folder with --data") from None
        file.seek(0)
        file.truncate()
        file.write(f"{os.getpid()}\n")
        file.flush()
        self.file = file

    def release(self) -> None:
        file, self.file = self.file, None
        if file is not None:
            file.truncate(0)
            file.close()  # closing releases the lock; the file stays, so nobody races on creating it


def claim_data_folder(data: Path) -> DataFolderLock:
    """Lock the folder for this serve, then clear what a dead one left."""
    lock = DataFolderLock(Path(data).resolve())
    lock.acquire()
    try:
        clean_up_after_dead_serve(lock.path.parent)
    except BaseException:
        lock.release()
        raise
    return lock


def clean_up_after_dead_serve(data: Path) -> None:
    """Stop the children a serve left running when it died without
    stopping them (SIGKILL, a crash), and remove stale pid files."""
    run = data / "run"
    for name, steps in CHILDREN:
        pid_file = run / f"{name}.pid"
        if not pid_file.exists():
            continue
        recorded = read_pid_file(pid_file)
        process = recorded.process() if recorded else None
        if process is None:
            log.info("removed the stale pid file %s (its process is gone)", pid_file)
        else:
            log.warning("the %s (pid %s) of a boardlog serve that did not stop cleanly still runs; stopping it",
                        name, recorded.pid)
            if not stop_process(recorded.pid, f"orphaned {name}", steps, group=True):
                raise SystemExit(f"the {name} (pid {recorded.pid}) left running on {data} by an earlier "
                                 f"boardlog serve will not stop, even on SIGKILL: stop it by hand, then start again")
        pid_file.unlink(missing_ok=True)


def stop_on_signals(stop: threading.Event) -> None:
    for signum in STOP_SIGNALS:
        signal.signal(signum, lambda signum, frame: _stopping(stop, signum))


def _stopping(stop: threading.Event, signum: int) -> None:
    if not stop.is_set():
        log.info("%s received: stopping", signal.Signals(signum).name)
    stop.set()


def start_worker(database_url: str, redis_url: str, pid_file: Path | None = None) -> subprocess.Popen:
    """A separate process: RQ forks a work horse per job, which a threaded
    web server must not do."""
    env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis_url, SERVE_PID: str(os.getpid())}
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    # Its own process group: Ctrl-C and a closing terminal reach serve
    # alone, which stops the worker in order.
    worker = subprocess.Popen([sys.executable, "-m", "api.processes.cli", "worker"], env=env, process_group=0,
                              stdin=subprocess.DEVNULL)
    if pid_file is not None:
        write_pid_file(pid_file, "worker", worker.pid)
    return worker


def stop_with_parent(parent_pid: int) -> None:
    """In the worker: have the kernel send it SIGTERM (a warm shutdown) when
    serve dies, even by SIGKILL, so that no worker outlives serve for long
    (Linux only; elsewhere the next serve stops it)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0) != 0:
            return
    except (OSError, AttributeError):
        return
    if os.getppid() != parent_pid:  # serve died before the kernel was told
        os.kill(os.getpid(), signal.SIGTERM)


def stop_worker(worker: subprocess.Popen | None, pid_file: Path | None = None) -> None:
    """SIGTERM (RQ's warm shutdown: finish the job at hand, stop the
    scheduler), SIGKILL if it lingers, then whatever of its process group
    is left (a scheduler process forked just as it was told to stop)."""
    gone = worker is None or stop_process(worker.pid, "worker", WORKER_STOP, group=True)
    if worker is not None:
        worker.poll()
    if pid_file is not None and gone:  # else kept, for the next start to deal with
        pid_file.unlink(missing_ok=True)


def kill_group(worker: subprocess.Popen) -> None:
    """What is left of an exited worker's process group (its scheduler)."""
    try:
        os.killpg(worker.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


RESTART_CALM_SECONDS = 60  # a worker that ran this long before it exited starts the backoff again
RESTART_MAX_DELAY = 60


class SupervisedWorker:
    """The worker serve runs: started, started again whenever it exits, and
    stopped at the end (whichever process it is by then)."""

    def __init__(self, database_url: str, redis_url: str, pid_file: Path | None = None):
        self.database_url, self.redis_url, self.pid_file = database_url, redis_url, pid_file
        self.process: subprocess.Popen | None = None

    def start(self) -> subprocess.Popen:
        self.process = start_worker(self.database_url, self.redis_url, self.pid_file)
        return self.process

    def keep_running(self, stop: threading.Event) -> None:
        """Until ``stop``: a worker that exits is started again, after a delay
        that doubles from 2 s to RESTART_MAX_DELAY while it keeps exiting
        within RESTART_CALM_SECONDS of its start."""
        failures, started = 0, time.monotonic()
        while not stop.wait(1.0):
            if self.process.poll() is None:
                continue
            kill_group(self.process)  # its scheduler process, orphaned
            failures = 1 if time.monotonic() - started > RESTART_CALM_SECONDS else failures + 1
            delay = min(RESTART_MAX_DELAY, 2 ** failures)
            log.error("the worker exited with status %s; starting another in %ss", self.process.returncode, delay)
            if stop.wait(delay):
                break
            self.start()
            started = time.monotonic()

    def stop(self) -> None:
        stop_worker(self.process, self.pid_file)
