"""A boardlog worker: an RQ worker on the "boardlog" queue, with RQ's
scheduler (which moves due deadlines onto the queue) and the sweeper (at
start, then every ``sweep_every`` seconds). Any number may run against one
PostgreSQL and one Redis: RQ lets one scheduler at a time hold the lock, and
a job that runs twice changes nothing the second time.
"""

from __future__ import annotations

import logging
import os
import signal
import sys

from redis import Redis
from rq import SimpleWorker, Worker
from rq.exceptions import StopRequested

from .jobs import forget_services
from .scheduling import QUEUE_NAME, RQScheduler
from .sweeper import sweep

log = logging.getLogger("boardlog.workers")

DEFAULT_SWEEP_SECONDS = 30
LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class _Sweeping:
    """RQ's maintenance step, run at start and every ``maintenance_interval``
    seconds, also sweeps. The worker's blocking wait for a job is cut to the
    same interval, so an idle worker still sweeps on time."""

    database_url: str = ""
    notifier = None  # the `boardlog notifier` child process, when the worker runs one

    def run_maintenance_tasks(self):
        super().run_maintenance_tasks()  # type: ignore[misc]
        self.sweep()
        self.keep_notifier()

    def keep_notifier(self):
        """A notifier that died (it should not) is started again at the next sweep."""
        if self.notifier is None or self.notifier.poll() is None:
            return
        # SIGTERM's StopRequested held back until the new process is known,
        # so that the worker always stops the notifier it started.
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT})
        try:
            log.error("the notifier exited with status %s; starting another", self.notifier.returncode)
            self.notifier = _start_notifier()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)

    def sweep(self):
        # RQ stops its loop by raising StopRequested from the SIGTERM handler,
        # wherever it lands; held back during the sweep, it lands after it.
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT})
        try:
            return sweep(self.database_url, RQScheduler(self.connection))  # type: ignore[attr-defined]
        except StopRequested:
            raise
        except Exception:  # PostgreSQL away for a moment: the next sweep tries again
            log.exception("sweep failed; will try again in %ss", self.maintenance_interval)  # type: ignore
            return None
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)


class BoardlogWorker(_Sweeping, Worker):
    """Forks a work horse per job (production)."""

    def perform_job(self, job, queue, execution):
        try:
            return super().perform_job(job, queue, execution)
        finally:
            if self.is_horse:  # the horse exits next: let go of its database connections politely
                forget_services()


class InProcessWorker(_Sweeping, SimpleWorker):
    """Runs jobs in its own process (tests, and machines without fork)."""


def make_worker(
    redis: Redis,
    database_url: str | None = None,
    sweep_every: int = DEFAULT_SWEEP_SECONDS,
    in_process: bool = False,
    name: str | None = None,
):
    database_url = database_url or os.environ.get("DATABASE_URL")
    if not database_url:
        raise RuntimeError("DATABASE_URL is not set: a worker needs the PostgreSQL that holds the games")
    cls = InProcessWorker if in_process else BoardlogWorker
    worker = cls(
        [QUEUE_NAME],
        connection=redis,
        name=name,
        maintenance_interval=sweep_every,
        worker_ttl=sweep_every + 15,  # RQ waits worker_ttl - 15 s for a job before looking up
    )
    worker.database_url = database_url
    return worker


def configure_logging(level: int = logging.INFO) -> None:
    root = logging.getLogger()
    if not root.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter(LOG_FORMAT))
        root.addHandler(handler)
    root.setLevel(level)


def run(burst: bool = False, sweep_every: int | None = None, in_process: bool = False,
        notifier: bool = False) -> int:
    """``boardlog worker``: work until SIGTERM/SIGINT (warm shutdown), or
    until the queue is empty with ``burst``. With ``notifier``, a
    ``boardlog notifier`` runs beside it as a child process for as long."""
    configure_logging()
    redis_url = os.environ.get("REDIS_URL")
    if not redis_url:
        raise SystemExit("REDIS_URL is not set: a worker takes its jobs from Redis")
    sweep_every = sweep_every or int(os.environ.get("BOARDLOG_SWEEP_SECONDS", DEFAULT_SWEEP_SECONDS))
    worker = make_worker(Redis.from_url(redis_url), sweep_every=sweep_every, in_process=in_process)
    log.info("worker %s (pid %d) on queue %r with the scheduler; sweeping every %ss%s",
             worker.name, os.getpid(), QUEUE_NAME, sweep_every, " until the queue is empty" if burst else "")
    worker.notifier = _start_notifier() if notifier else None
    try:
        # RQ's own lines at WARNING and up: the job functions log one line per job.
        worker.work(burst=burst, with_scheduler=True, logging_level="WARNING")
    finally:
        _stop_notifier(worker.notifier)
    log.info("worker %s stopped", worker.name)
    return 0


def _start_notifier():
    """A process of its own: RQ forks a work horse per job, which a process
    with the notifier's threads must not do."""
    import subprocess

    return subprocess.Popen([sys.executable, "-m", "api.cli", "notifier"])


def _stop_notifier(child) -> None:
    import subprocess

    if child is None or child.poll() is not None:
        return
    child.send_signal(signal.SIGTERM)
    try:
        child.wait(30)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
