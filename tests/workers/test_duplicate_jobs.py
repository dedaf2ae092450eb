"""A job is not made twice while it is on its way or done. With two
workers behind a long queue, a run of the reminder bench saw jobs run twice:
a sweep (which reads PostgreSQL first, then looks at each job) made again a
job that had finished since its read, and an overdue job could be moved onto
the queue by RQ's scheduler and a sweep both, or by two workers' sweeps. A
job run twice changes nothing the second time (the service re-checks the
game, a reminder is sent once per offset and turn), but it is a job's time
spent again while others wait."""

from __future__ import annotations

import datetime as dt

from rq.job import JobStatus

from api.service.scheduling import (KEPT, MOVED, OVERDUE_GRACE_SECONDS, REPLACED, RQSchedulerLoop, deadline_job_id,
                                    reminder_job_id, utcnow)
from workers import jobs

from .conftest import run_worker


def _count_in_queue(scheduler, job_id: str) -> int:
    return scheduler.queue.get_job_ids().count(job_id)


def test_a_sweep_that_read_postgresql_before_a_job_finished_does_not_make_the_job_again(
    table, scheduler, redis, database_url, worker_env
):
    game_id = table.game(turn_seconds=3600)
    version, deadline = table.deadline(game_id)
    job_id = deadline_job_id(game_id, version)
    swept_at = utcnow()  # a sweep reads the game's deadline here...
    scheduler.ensure_deadline(game_id, version, deadline, now=deadline + dt.timedelta(minutes=1))  # overdue: queued
    run_worker(redis, database_url)  # ...and the deadline job runs before the sweep reaches the game
    assert scheduler.queue.fetch_job(job_id).get_status() == JobStatus.FINISHED

    assert scheduler.ensure_deadline(game_id, version, deadline, now=swept_at) == KEPT
    assert job_id not in scheduler.queue.get_job_ids() + scheduler.scheduled_job_ids()
    # A sweep that read PostgreSQL after the job ended, and still found it wanted, makes it again.
    assert scheduler.ensure_deadline(game_id, version, deadline, now=utcnow()) == REPLACED


def test_an_overdue_job_is_left_to_rq_s_scheduler_while_one_holds_its_lock(table, scheduler, redis):
    game_id = table.game(turn_seconds=60)
    version, deadline = table.deadline(game_id)
    job_id = deadline_job_id(game_id, version)
    late = deadline + dt.timedelta(seconds=OVERDUE_GRACE_SECONDS + 5)
    redis.set(RQSchedulerLoop.get_locking_key(scheduler.queue.name), "a-live-scheduler", ex=60)
    assert scheduler.ensure_deadline(game_id, version, deadline, now=late) == KEPT
    assert job_id in scheduler.scheduled_job_ids() and _count_in_queue(scheduler, job_id) == 0

    redis.delete(RQSchedulerLoop.get_locking_key(scheduler.queue.name))  # its holder died, the lock expired
    assert scheduler.ensure_deadline(game_id, version, deadline, now=late) == MOVED
    assert _count_in_queue(scheduler, job_id) == 1


def test_of_two_sweeps_moving_the_same_overdue_job_only_one_enqueues_it(table, scheduler):
    game_id = table.game(turn_seconds=60)
    version, _ = table.deadline(game_id)
    job_id = deadline_job_id(game_id, version)
    seen_by_both = scheduler.queue.fetch_job(job_id)  # each sweep fetched it, scheduled, before either moved it
    assert scheduler._enqueue_now(seen_by_both)
    assert not scheduler._enqueue_now(seen_by_both)
    assert _count_in_queue(scheduler, job_id) == 1


def test_a_job_a_worker_popped_and_has_not_yet_marked_started_is_not_made_again_until_it_stays_so(
    table, scheduler, redis
):
    game_id = table.game(turn_seconds=3600)
    version, deadline = table.deadline(game_id)
    job_id = deadline_job_id(game_id, version)
    scheduler.ensure_deadline(game_id, version, deadline, now=deadline + dt.timedelta(minutes=1))  # queued
    # A worker's pop, as RQ does it: into the intermediate queue, then (not yet) marked started.
    assert redis.lmove(scheduler.queue.key, scheduler.queue.intermediate_queue_key).decode() == job_id
    later = utcnow() + dt.timedelta(seconds=OVERDUE_GRACE_SECONDS + 1)
    assert scheduler.ensure_deadline(game_id, version, deadline, now=later) == KEPT
    assert _count_in_queue(scheduler, job_id) == 0

    # Still so a sweep later: the worker's mark was lost (a failover); made again, taken out of RQ's
    # intermediate queue (whose cleanup would otherwise fail the new job).
    much_later = later + dt.timedelta(seconds=OVERDUE_GRACE_SECONDS + 1)
    assert scheduler.ensure_deadline(game_id, version, deadline, now=much_later) == REPLACED
    assert _count_in_queue(scheduler, job_id) + scheduler.scheduled_job_ids().count(job_id) == 1
    assert job_id.encode() not in redis.lrange(scheduler.queue.intermediate_queue_key, 0, -1)


def test_a_reminder_job_run_twice_sends_each_reminder_once(table, scheduler, redis, database_url, worker_env):
    from api.service import reminders

    game_id = table.game(turn_seconds=3600)
    with table.service.pool.connection() as conn:
        for player in table.players:
            reminders.update_settings(conn, player, {"stream": [3600], "mail": [], "webhook": [], "push": []})
        conn.execute("update seat_deadlines set turn_began_at = turn_began_at - interval '1 hour'"
                     " where game_id = %s", (game_id,))  # the reminder's time falls in the turn
    assert jobs.send_reminders(str(game_id))
    assert not jobs.send_reminders(str(game_id)), "run again: nothing more to send"
    sent = table.store.read_stream(reminders.stream_of(game_id))
    assert len(sent) == 1
