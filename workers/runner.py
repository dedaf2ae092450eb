"""A boardlog worker: an RQ worker on the "boardlog" queue, with RQ's
scheduler (which moves due deadlines onto the queue) and the sweeper (at
start, then every ``sweep_every`` seconds). Any number may run against one
PostgreSQL and one Redis: RQ lets one scheduler at a time hold the lock, and
a job that runs twice changes nothing the second time.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import signal
import sys
import time

from redis import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from rq import SimpleWorker, Worker
from rq.exceptions import StopRequested
from rq.scheduler import RQScheduler as RQSchedulerLoop

from api.service.redis_connection import check_redis, redis_client, why_unreachable
from api.service.settings import env_number
from api.service.logs import configure_logging

from .jobs import forget_services
from api.service.scheduling import ALIVE_SECONDS, QUEUE_NAME, RQScheduler, alive_key, default_job_timeout, utcnow
from .sweeper import sweep

log = logging.getLogger("boardlog.workers")

DEFAULT_SWEEP_SECONDS = 30
# How often the scheduler looks for due deadlines (RQ's own is every second):
# with deadlines rounded up to the whole second, a deadline is moved onto the
# queue at most this long after that second.
DEFAULT_SCHEDULER_SECONDS = 0.25


class FrequentScheduler(RQSchedulerLoop):
    """RQ's scheduler, passing over the due jobs every ``poll_seconds``.
    RQ's ``interval`` (whole seconds: it waits that long between passes) is
    also added to the 60 s its lock and its key live; run with interval 0
    (60 s), it waits ``poll_seconds`` itself after each pass instead."""

    poll_seconds = DEFAULT_SCHEDULER_SECONDS

    def enqueue_scheduled_jobs(self):
        super().enqueue_scheduled_jobs()
        if not self.interval:
            time.sleep(self.poll_seconds)


class _Sweeping:
    """RQ's maintenance step, run at start and every ``maintenance_interval``
    seconds, also sweeps. The worker's blocking wait for a job is cut to the
    same interval, so an idle worker still sweeps on time.

    While idle, RQ itself retries a lost Redis (with backoff, capped here at
    RECONNECT_MAX_SECONDS); once Redis answers again the worker sweeps at
    once, since a Redis that came back empty has lost every job."""

    database_url: str = ""
    notifier = None  # the `boardlog notifier` child process, when the worker runs one
    max_connection_wait_time = 10.0  # RQ's backoff cap while idle and Redis is away
    stopping = False  # SIGTERM or SIGINT received: a stop, not an outage
    scheduler_seconds = DEFAULT_SCHEDULER_SECONDS
    alive_seconds = ALIVE_SECONDS
    _redis_lost = False

    def _start_scheduler(self, burst=False, logging_level="INFO", *formats):
        """RQ's scheduler, looking for due jobs every ``scheduler_seconds``
        rather than every second (a burst worker's moves them once, as RQ's).
        Only the worker that takes the scheduler lock runs one; RQ's
        maintenance starts it again if it dies, with the same interval.
        RQ's worker calls this private method from ``work``; were a later RQ
        to rename it, RQ's one-second scheduler would run instead, and
        tests/workers/test_deadlines.py (four passes a second) says so."""
        if burst:
            return super()._start_scheduler(burst, logging_level, *formats)  # type: ignore[misc]
        names = ("date_format", "log_format")
        self.scheduler = FrequentScheduler(self.queues, connection=self.connection,  # type: ignore[attr-defined]
                                           interval=0, logging_level=logging_level,
                                           serializer=self.serializer,  # type: ignore[attr-defined]
                                           **dict(zip(names, formats)))
        self.scheduler.poll_seconds = self.scheduler_seconds
        self.scheduler.acquire_locks(auto_start=True)

    def unsubscribe(self):
        """RQ's, with the listening thread told first. That thread looks at
        its running flag only between reads, and since redis-py 8 stopping it
        waits for it: in RQ's order (unsubscribe, then stop), the answer to
        the unsubscribe could wake it into a wait of RQ's 60 s for a
        subscription before it looked again, and a SIGTERM took a minute."""
        running = getattr(self.pubsub_thread, "_running", None)  # type: ignore[attr-defined]
        if running is not None:
            running.clear()
        super().unsubscribe()  # type: ignore[misc]

    def request_stop(self, signum, frame):
        self.stopping = True
        return super().request_stop(signum, frame)  # type: ignore[misc]

    def heartbeat(self, *args, **kwargs):
        try:
            result = super().heartbeat(*args, **kwargs)  # type: ignore[misc]
            self.connection.set(alive_key(self.name), os.getpid(), ex=self.alive_seconds)  # type: ignore[attr-defined]
        except (RedisConnectionError, RedisTimeoutError):
            self._redis_lost = True
            raise
        if self._redis_lost:
            self._redis_lost = False
            log.warning("Redis answers again; sweeping now to re-create the jobs it may have lost")
            # A maintenance long due: it runs next, restarting a scheduler that died too.
            self.last_cleaned_at = utcnow() - dt.timedelta(days=1)
        return result

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

    def execute_job(self, job, queue):
        # No heartbeat while a job runs in this very thread: alive for the
        # job's whole timeout instead.
        self.alive_seconds = (job.timeout or default_job_timeout()) + ALIVE_SECONDS
        self.heartbeat()
        try:
            return super().execute_job(job, queue)
        finally:
            self.alive_seconds = ALIVE_SECONDS


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
        job_monitoring_interval=ALIVE_SECONDS // 3,  # a busy worker's heartbeat, which keeps alive_key alive
    )
    worker.database_url = database_url
    worker.scheduler_seconds = env_number("BOARDLOG_SCHEDULER_SECONDS", DEFAULT_SCHEDULER_SECONDS, minimum=0.05,
                                          kind=float)
    return worker


def run(burst: bool = False, sweep_every: int | None = None, in_process: bool = False,
        notifier: bool = False) -> int:
    """``boardlog worker``: work until SIGTERM/SIGINT (warm shutdown), or
    until the queue is empty with ``burst``.

    Rides out a Redis outage of any length. RQ's loop gives up when Redis
    fails under a job or during maintenance ("found an unhandled exception,
    quitting"); here a worker that stopped without being asked to waits for
    Redis (backoff from RECONNECT_FIRST_SECONDS up to RECONNECT_MAX_SECONDS
    between tries, for ever) and starts again, and a new worker sweeps first
    thing, so jobs an emptied Redis lost are made again from PostgreSQL. A
    worker started while Redis is away waits for it the same way.

    With ``notifier``, a ``boardlog notifier`` runs beside it as a child
    process for as long (across those restarts too)."""
    configure_logging()
    redis_url = os.environ.get("REDIS_URL")
    if not redis_url:
        raise SystemExit("REDIS_URL is not set: a worker takes its jobs from Redis")
    sweep_every = sweep_every or env_number("BOARDLOG_SWEEP_SECONDS", DEFAULT_SWEEP_SECONDS, minimum=1)
    if os.environ.get("DATABASE_URL"):
        from eventstore.primary import refuse_without_primary

        refuse_without_primary(os.environ["DATABASE_URL"])  # a URL of standbys only: its sentence, not a traceback
    unavailable = check_redis(redis_url)  # Sentinels watching no such master: stops here, in a sentence
    if unavailable:
        log.warning("%s; the worker waits for it", unavailable)
    child = _start_notifier() if notifier else None
    try:
        while True:
            try:
                worker = make_worker(redis_client(redis_url), sweep_every=sweep_every, in_process=in_process)
            except (RedisConnectionError, RedisTimeoutError) as error:
                # RQ's worker names itself in Redis as it is made: started (or
                # started again) while Redis is away, wait for it as for any outage.
                log.warning("Redis unreachable as the worker starts (%s); waiting for it", why_unreachable(error))
                if not wait_for_redis(redis_url):
                    return 0
                continue
            worker.notifier = child
            log.info("worker %s (pid %d) on queue %r with the scheduler; sweeping every %ss%s",
                     worker.name, os.getpid(), QUEUE_NAME, sweep_every, " until the queue is empty" if burst else "")
            try:
                # RQ's own lines at WARNING and up: the job functions log one line per job.
                worker.work(burst=burst, with_scheduler=True, logging_level="WARNING")
            except (RedisConnectionError, RedisTimeoutError) as error:  # raised by RQ's teardown, once it gave up
                log.warning("worker %s lost Redis: %s", worker.name, why_unreachable(error))
            finally:
                child = worker.notifier  # a sweep may have started a new one
            if burst or worker.stopping:
                break
            if not wait_for_redis(redis_url):
                break
            release_scheduler_locks(worker)
    finally:
        _stop_notifier(child)
    log.info("worker %s stopped", worker.name)
    return 0


def release_scheduler_locks(worker) -> None:
    """The scheduler lock a worker that lost Redis took: its scheduler died
    without letting go, and the next worker's scheduler (another name) would
    wait out the lock's 60 s. A Redis that came back empty has no lock; a
    replica that Sentinel promoted has it, replicated; a lock another
    worker's scheduler holds is left alone (RQ deletes only its owner's)."""
    scheduler = getattr(worker, "scheduler", None)
    if scheduler is None:
        return
    try:
        scheduler.release_locks()
    except (RedisConnectionError, RedisTimeoutError) as error:  # away again: its lock expires by itself
        log.warning("could not release the scheduler lock of worker %s: %s", worker.name, error)


RECONNECT_FIRST_SECONDS = 0.5
RECONNECT_MAX_SECONDS = 10.0


def wait_for_redis(redis_url: str, sleep=time.sleep) -> bool:
    """Until Redis answers (True), or SIGTERM/SIGINT (False)."""
    stop = []
    previous = {sig: signal.signal(sig, lambda signum, frame: stop.append(signum))
                for sig in (signal.SIGTERM, signal.SIGINT)}
    delay = RECONNECT_FIRST_SECONDS
    try:
        while not stop:
            try:
                with redis_client(redis_url, socket_connect_timeout=5, socket_timeout=5) as probe:
                    probe.ping()
                log.warning("Redis answers again; starting a new worker, which sweeps first")
                return True
            except (RedisConnectionError, RedisTimeoutError) as error:
                log.warning("Redis unreachable (%s); next try in %.1fs", why_unreachable(error), delay)
            for _ in range(int(delay * 10)):  # in slices, so that a stop is not kept waiting
                if stop:
                    break
                sleep(0.1)
            delay = min(delay * 2, RECONNECT_MAX_SECONDS)
        return False
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _start_notifier():
    """A process of its own: RQ forks a work horse per job, which a process
    with the notifier's threads must not do."""
    import subprocess

    return subprocess.Popen([sys.executable, "-m", "api.processes.cli", "notifier"])


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
