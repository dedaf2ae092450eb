"""`boardlog worker` runs its jobs in its own process (no work horse per
job, `--fork` for one): the job functions' PostgreSQL pool is kept from job to
job, the liveness key stays fresh while a long job holds the main thread, RQ's
job timeout still stops a stuck job (SimpleWorker's death penalty, SIGALRM in
the main thread), and SIGTERM still stops the worker promptly.

The job functions below are enqueued by name, so that a worker in a
subprocess imports them from this module."""

from __future__ import annotations

import os
import signal
import time

import pytest
from redis import Redis
from rq import Queue, Worker
from rq.job import JobStatus

from api.service.scheduling import QUEUE_NAME, alive_key
from tests.support.waiting import wait_until
from workers import jobs
from workers.runner import InProcessWorker, make_worker

HERE = __name__


def where() -> tuple[int, int]:
    """The job's process, and the PostgreSQL backend its pooled connection talks to."""
    with jobs.service().pool.connection() as conn:
        return os.getpid(), conn.execute("select pg_backend_pid()").fetchone()[0]


def stuck_in_postgres() -> None:
    with jobs.service().pool.connection() as conn:
        conn.execute("select pg_sleep(60)")


def watch_liveness(worker_name: str, seconds: float) -> list[int]:
    """The liveness key's TTL once every half second for ``seconds``, from inside a job."""
    redis = Redis.from_url(os.environ["REDIS_URL"])
    seen, ends = [], time.monotonic() + seconds
    while time.monotonic() < ends:
        seen.append(redis.ttl(alive_key(worker_name)))
        time.sleep(0.5)
    return seen


def _queue(redis) -> Queue:
    return Queue(QUEUE_NAME, connection=redis)


def _finished(job, timeout: float = 60):
    wait_until(lambda: job.get_status(refresh=True) in (JobStatus.FINISHED, JobStatus.FAILED), timeout,
               f"job {job.id} to end")
    return job


def test_boardlog_worker_runs_its_jobs_in_its_own_process_on_the_same_pooled_connections(
    redis, worker_processes
):
    worker = worker_processes()
    queued = [_queue(redis).enqueue(f"{HERE}.where") for _ in range(10)]
    answers = [_finished(job).return_value() for job in queued]
    assert all(job.get_status() == JobStatus.FINISHED for job in queued), [job.exc_info for job in queued]
    assert {pid for pid, _ in answers} == {worker.process.pid}, "a job ran outside the worker's process"
    backends = {backend for _, backend in answers}
    # The job functions' pool holds at most 4 (workers/jobs.py); a forked horse per job opened one each.
    assert len(backends) <= 4, f"ten jobs one after the other used {len(backends)} PostgreSQL connections"


def test_boardlog_worker_with_fork_runs_each_job_in_a_work_horse_of_its_own(redis, worker_env, tmp_path):
    from .conftest import WorkerProcess

    env = {**worker_env, "BOARDLOG_WORKER_FORK": "1"}
    worker = WorkerProcess(env, log_path=tmp_path / "fork.log")
    try:
        queued = [_queue(redis).enqueue(f"{HERE}.where") for _ in range(3)]
        answers = [_finished(job).return_value() for job in queued]
    finally:
        worker.stop()
    pids = [pid for pid, _ in answers]
    assert worker.process.pid not in pids and len(set(pids)) == 3, pids
    assert "jobs in forked work horses" in worker.log()


def test_a_worker_keeps_its_liveness_key_fresh_and_short_while_a_long_job_runs(redis, database_url, worker_env):
    worker = make_worker(redis, database_url)
    assert isinstance(worker, InProcessWorker)
    worker.alive_seconds = 3  # refreshed every second; the job below lasts four times as long
    worker.run_maintenance_tasks = lambda: None
    job = _queue(redis).enqueue(f"{HERE}.watch_liveness", worker.name, 12, job_timeout=60)
    worker.work(burst=True, logging_level="WARNING")
    ttls = job.return_value()
    assert len(ttls) >= 20
    # Never gone (-2) while the job ran, and never longer than alive_seconds: a worker
    # killed under a job is found out within that, not within the job's timeout.
    assert all(0 < ttl <= 3 for ttl in ttls), ttls


def test_a_job_past_its_timeout_is_stopped_in_the_workers_process_and_the_next_job_runs(
    redis, database_url, worker_env
):
    queue = _queue(redis)
    sleeper = queue.enqueue("time.sleep", 60, job_timeout=2)
    in_postgres = queue.enqueue(f"{HERE}.stuck_in_postgres", job_timeout=2)
    after = queue.enqueue(f"{HERE}.where")
    worker = make_worker(redis, database_url)
    worker.run_maintenance_tasks = lambda: None
    started = time.monotonic()
    worker.work(burst=True, logging_level="CRITICAL")
    assert time.monotonic() - started < 30, "a stuck job held the worker past its timeout"
    for stuck in (sleeper, in_postgres):
        assert stuck.get_status(refresh=True) == JobStatus.FAILED
        assert "JobTimeoutException" in (stuck.latest_result().exc_string or "")
    assert after.get_status(refresh=True) == JobStatus.FINISHED
    assert after.return_value()[0] == os.getpid()  # on the pool the stuck query left, in this process


@pytest.mark.timeout(60)
def test_sigterm_stops_an_in_process_worker_promptly_idle_and_after_the_job_it_is_running(redis, worker_processes):
    idle = worker_processes()
    # Idle, waiting for a job: past RQ's start, whose signal handlers come after it registers.
    wait_until(lambda: any(w.pid == idle.process.pid and w.get_state() == "idle"
                           for w in Worker.all(connection=redis)), 30, "the worker to wait for a job")
    asked = time.monotonic()
    assert idle.stop(timeout=20) == 0
    assert time.monotonic() - asked < 10

    busy = worker_processes()
    job = _queue(redis).enqueue("time.sleep", 3)
    wait_until(lambda: job.get_status(refresh=True) == JobStatus.STARTED, 30, "the job to start")
    asked = time.monotonic()
    busy.process.send_signal(signal.SIGTERM)
    busy.process.wait(20)
    assert time.monotonic() - asked < 10
    assert job.get_status(refresh=True) == JobStatus.FINISHED, "a warm stop lets the running job end"
