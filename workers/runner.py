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
import threading
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
from api.service.scheduling import ALIVE_SECONDS, QUEUE_NAME, RQScheduler, alive_key, utcnow
from .sweeper import sweep

log = logging.getLogger("boardlog.workers")

DEFAULT_SWEEP_SECONDS = 30
# How often the scheduler looks for due deadlines (RQ's own is every second):
# with deadlines rounded up to the whole second, a deadline is moved onto the
# queue at most this long after that second.
DEFAULT_SCHEDULER_SECONDS = 0.25
# A heartbeat asked for less than this after the last is skipped (see _Sweeping.heartbeat).
HEARTBEAT_MIN_SECONDS = 1.0


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

    def heartbeat(self, timeout=None, pipeline=None):
        """RQ's heartbeat, with the liveness key ``alive_key(name)`` in the
        same round trip. RQ's loop asks for one before and after each
        dequeue; one less than HEARTBEAT_MIN_SECONDS after the last (a busy
        worker's, job after job) is skipped: it would only push back expiries
        set a moment ago by tens of seconds. One with its own ``timeout``
        (RQ's before a job, in the job's pipeline) is always sent."""
        last = getattr(self, "_beat_at", None)
        if (timeout is None and pipeline is None and last is not None
                and time.monotonic() - last < HEARTBEAT_MIN_SECONDS and not self._redis_lost):
            return None
        try:
            if pipeline is not None:
                result = super().heartbeat(timeout, pipeline=pipeline)  # type: ignore[misc]
                pipeline.set(alive_key(self.name), os.getpid(), ex=self.alive_seconds)
            else:
                with self.connection.pipeline(transaction=False) as own:  # type: ignore[attr-defined]
                    result = super().heartbeat(timeout, pipeline=own)  # type: ignore[misc]
                    own.set(alive_key(self.name), os.getpid(), ex=self.alive_seconds)
                    own.execute()
            self._beat_at = time.monotonic()
        except (RedisConnectionError, RedisTimeoutError):
            self._redis_lost = True
            raise
        if self._redis_lost:
            self._redis_lost = False
            log.warning("Redis answers again; sweeping now to re-create the jobs it may have lost")
            # A maintenance long due: it runs next, restarting a scheduler that died too.
            self.last_cleaned_at = utcnow() - dt.timedelta(days=1)
        return result

    def set_state(self, state, pipeline=None):
        """RQ's, without writing a state Redis already holds: an in-process
        worker is set idle after each job and again before its next dequeue."""
        if pipeline is None and state == getattr(self, "_written_state", None):
            self._state = state
            return
        super().set_state(state, pipeline=pipeline)  # type: ignore[misc]
        self._written_state = state if pipeline is None else None

    def check_for_suspension(self, burst):
        """RQ's look for `rq suspend`, asked before every job: here at most
        once a HEARTBEAT_MIN_SECONDS (a suspension starts that much later)."""
        now = time.monotonic()
        if now - getattr(self, "_suspension_checked_at", -HEARTBEAT_MIN_SECONDS) < HEARTBEAT_MIN_SECONDS:
            return None
        self._suspension_checked_at = now
        return super().check_for_suspension(burst)  # type: ignore[misc]

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
    """Forks a work horse per job (``boardlog worker --fork``): a job that
    crashes the interpreter or leaks memory takes its horse with it, not the
    worker, at the price of a fork and new database connections per job."""

    def perform_job(self, job, queue, execution):
        try:
            return super().perform_job(job, queue, execution)
        finally:
            if self.is_horse:  # the horse exits next: let go of its database connections politely
                forget_services()


class InProcessWorker(_Sweeping, SimpleWorker):
    """Runs jobs in its own process, one after the other in its main thread
    (the default): no fork, and the job functions' service (its PostgreSQL
    pool and Redis client, workers/jobs.py) is built once and kept.

    RQ's job timeout still holds: SimpleWorker runs each job under RQ's
    death penalty (SIGALRM in this main thread), which raises
    JobTimeoutException into a job past its timeout. A daemon thread keeps
    the liveness key fresh (every ALIVE_SECONDS / 3) while a job holds the
    main thread, so a worker killed under a job is still found out within
    ALIVE_SECONDS, not the job's timeout."""

    _keeper: threading.Thread | None = None
    _keeper_stop: threading.Event | None = None

    def execute_job(self, job, queue):
        self._keep_alive()
        return super().execute_job(job, queue)

    def _keep_alive(self) -> None:
        if self._keeper is not None and self._keeper.is_alive():
            return
        stop = self._keeper_stop = threading.Event()
        key, pid, every = alive_key(self.name), os.getpid(), self.alive_seconds / 3

        def keep():
            while not stop.wait(every):
                try:
                    self.connection.set(key, pid, ex=self.alive_seconds)  # type: ignore[attr-defined]
                except Exception as error:  # Redis away: the main loop says so and rides it out
                    log.debug("could not refresh %s: %s", key, error)

        self._keeper = threading.Thread(target=keep, name=f"keep-alive {self.name}", daemon=True)
        self._keeper.start()

    def teardown(self):
        if self._keeper_stop is not None:
            self._keeper_stop.set()
        return super().teardown()  # type: ignore[misc]


def make_worker(
    redis: Redis,
    database_url: str | None = None,
    sweep_every: int = DEFAULT_SWEEP_SECONDS,
    in_process: bool | None = None,
    name: str | None = None,
    fork: bool | None = None,
):
    """A worker that runs its jobs in its own process, or with ``fork`` (or
    ``in_process=False``) one that forks a work horse per job."""
    database_url = database_url or os.environ.get("DATABASE_URL")
    if not database_url:
        raise RuntimeError("DATABASE_URL is not set: a worker needs the PostgreSQL that holds the games")
    if fork is None:
        fork = in_process is False
    cls = BoardlogWorker if fork else InProcessWorker
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


def forking_by_default() -> bool:
    """BOARDLOG_WORKER_FORK=1: ``boardlog worker`` forks a work horse per job, as ``--fork``."""
    return os.environ.get("BOARDLOG_WORKER_FORK", "").strip().lower() in ("1", "true", "yes", "on")


def run(burst: bool = False, sweep_every: int | None = None, fork: bool | None = None,
        notifier: bool = False) -> int:
    """``boardlog worker``: work until SIGTERM/SIGINT (warm shutdown), or
    until the queue is empty with ``burst``. Jobs run in the worker's own
    process unless ``fork`` (default: BOARDLOG_WORKER_FORK).

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
    if fork is None:
        fork = forking_by_default()
    child = _start_notifier() if notifier else None
    try:
        while True:
            try:
                worker = make_worker(redis_client(redis_url), sweep_every=sweep_every, fork=fork)
            except (RedisConnectionError, RedisTimeoutError) as error:
                # RQ's worker names itself in Redis as it is made: started (or
                # started again) while Redis is away, wait for it as for any outage.
                log.warning("Redis unreachable as the worker starts (%s); waiting for it", why_unreachable(error))
                if not wait_for_redis(redis_url):
                    return 0
                continue
            worker.notifier = child
            log.info("worker %s (pid %d) on queue %r with the scheduler; jobs %s; sweeping every %ss%s",
                     worker.name, os.getpid(), QUEUE_NAME, "in forked work horses" if fork else "in this process",
                     sweep_every, " until the queue is empty" if burst else "")
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
