"""A job whose worker was killed under it is made again within about
ALIVE_SECONDS plus one sweep interval, not after the job's whole timeout
(a deadline once fired 70 s late that way)."""

from __future__ import annotations

import datetime as dt

from api.service.scheduling import ALIVE_SECONDS, KEPT, REPLACED, RQScheduler, alive_key, deadline_job_id

from .conftest import game_row_held, wait_past, wait_until


def _started_by(scheduler, job_id: str, worker_name: str):
    """The job as RQ leaves it once a worker has taken it."""
    job = scheduler.queue.fetch_job(job_id)
    with scheduler.redis.pipeline() as pipe:
        job.prepare_for_execution(worker_name, pipe)
        pipe.execute()
    return scheduler.queue.fetch_job(job_id)


def test_a_started_job_whose_worker_stopped_living_is_made_again_long_before_its_timeout(table, redis):
    scheduler = RQScheduler(redis, job_timeout=600)
    table.service.scheduler = scheduler
    game_id = table.game(turn_seconds=3600)
    version, deadline = table.deadline(game_id)
    job_id = deadline_job_id(game_id, version)
    scheduler.ensure_deadline(game_id, version, deadline, now=deadline + dt.timedelta(seconds=1))  # due: queued
    job = _started_by(scheduler, job_id, "worker-that-was-killed")
    started = job.started_at.replace(tzinfo=dt.timezone.utc)

    redis.set(alive_key("worker-that-was-killed"), 1)
    assert scheduler.ensure_deadline(game_id, version, deadline, now=started + dt.timedelta(seconds=ALIVE_SECONDS + 1)) == KEPT
    redis.delete(alive_key("worker-that-was-killed"))
    just_started = started + dt.timedelta(seconds=ALIVE_SECONDS - 1)  # its worker may not have had a heartbeat yet
    assert scheduler.ensure_deadline(game_id, version, deadline, now=just_started) == KEPT
    a_while_later = started + dt.timedelta(seconds=ALIVE_SECONDS + 1)  # and 10 minutes before its timeout
    assert scheduler.ensure_deadline(game_id, version, deadline, now=a_while_later) == REPLACED
    assert job_id in scheduler.queue.job_ids + scheduler.scheduled_job_ids()  # on its way again


def test_a_deadline_whose_worker_was_killed_under_it_fires_once_without_waiting_for_the_job_timeout(
    table, redis, database_url, worker_processes
):
    table.service.scheduler = RQScheduler(redis, job_timeout=600)  # the old rule waited this long
    game_id = table.game(turn_seconds=1)
    version, deadline = table.deadline(game_id)
    wait_past(deadline)
    with game_row_held(database_url, game_id) as job_waiting:
        first = worker_processes()
        job_waiting()  # the deadline job, inside its transaction
        first.kill()
    assert table.timeouts(game_id) == []
    second = worker_processes()
    # Without the liveness key, RQ gave the job up only once its execution's
    # heartbeat expired (90 s); with it, ALIVE_SECONDS and one sweep (1 s here).
    wait_until(lambda: table.timeouts(game_id), 60, "the next worker's sweep to make the deadline again")
    second.stop()
    assert [v for v, _ in table.timeouts(game_id)] == [version] * len(table.timeouts(game_id))
    assert len({seat for _, seat in table.timeouts(game_id)}) == len(table.timeouts(game_id)), "fired twice"


def test_a_deadline_job_run_while_postgresql_is_unreachable_is_made_again_by_the_first_sweep_after(
    table, redis, database_url, worker_env, monkeypatch
):
    from rq.job import JobStatus

    from workers import jobs
    from workers.runner import make_worker
    from api.service.scheduling import CREATED, MOVED, REPLACED
    from workers.sweeper import sweep

    scheduler = RQScheduler(redis)
    table.service.scheduler = scheduler
    game_id = table.game(turn_seconds=3600)
    version, deadline = table.deadline(game_id)
    job_id = deadline_job_id(game_id, version)
    due = deadline + dt.timedelta(minutes=1)
    assert scheduler.ensure_deadline(game_id, version, deadline, now=due) == MOVED  # queued: it fell due

    # The job runs while PostgreSQL is away (nothing listens on port 9).
    monkeypatch.setenv("DATABASE_URL", "postgresql://postgres@127.0.0.1:9/nothing")
    monkeypatch.setenv("BOARDLOG_POOL_TIMEOUT", "0.5")
    jobs.forget_services()
    worker = make_worker(redis, database_url, in_process=True)
    worker.run_maintenance_tasks = lambda: None  # this test's sweeps are its own
    worker.work(burst=True, logging_level="WARNING")
    assert table.timeouts(game_id) == []
    assert job_id not in scheduler.failed_job_ids(), "an outage is not the game's fault: nothing for a person"
    assert scheduler.queue.fetch_job(job_id).get_status() != JobStatus.SCHEDULED, \
        "left to RQ's retries (5 s, 60 s, 600 s, then failed for good), not to the next sweep"

    # PostgreSQL is back: the first sweep makes the deadline again, and it fires.
    monkeypatch.setenv("DATABASE_URL", database_url)
    jobs.forget_services()
    report = sweep(database_url, scheduler, now=due)
    assert report.deadlines[REPLACED] + report.deadlines[CREATED] >= 1
    worker = make_worker(redis, database_url, in_process=True)
    worker.work(burst=True, logging_level="WARNING")
    assert [v for v, _ in table.timeouts(game_id)] == [version] * len(table.timeouts(game_id)) != []
