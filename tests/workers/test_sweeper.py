"""The sweeper re-creates what Redis lost, from the read models, and leaves
alone what is already on its way."""

from __future__ import annotations

import datetime as dt

from api.service.scheduling import CREATED, KEPT, MOVED, deadline_job_id, scoring_job_id
from workers.sweeper import sweep


def test_a_sweep_over_jobs_already_on_their_way_changes_nothing(table, scheduler, database_url, odd_games):
    waiting = table.game(turn_seconds=3600)
    ended = table.game("quickberg")
    table.play(ended, moves=1)
    sweep(database_url, scheduler)  # other tests' games in this database, whose jobs were flushed
    scheduled, queued = scheduler.scheduled_job_ids(), scheduler.queue.job_ids

    report = sweep(database_url, scheduler)

    assert report.repaired == 0 and report.deadlines[KEPT] >= 1 and report.scoring[KEPT] >= 1
    assert deadline_job_id(waiting, table.deadline(waiting)[0]) in scheduled
    assert scoring_job_id(ended) in queued
    assert (scheduler.scheduled_job_ids(), scheduler.queue.job_ids) == (scheduled, queued)


def test_a_flushed_future_deadline_is_scheduled_again_for_its_time_and_a_past_one_is_queued_to_run_now(
    table, scheduler, redis, database_url
):
    game_id = table.game(turn_seconds=60)
    version, deadline = table.deadline(game_id)
    job_id = deadline_job_id(game_id, version)
    redis.flushdb()

    assert sweep(database_url, scheduler).deadlines[CREATED] >= 1
    assert job_id in scheduler.scheduled_job_ids()
    assert scheduler.queue.scheduled_job_registry.get_scheduled_time(job_id) >= deadline

    redis.flushdb()
    later = deadline + dt.timedelta(seconds=1)
    assert scheduler.ensure_deadline(game_id, version, deadline, now=later) == CREATED
    assert job_id in scheduler.queue.job_ids and job_id not in scheduler.scheduled_job_ids()


def test_a_deadline_overdue_in_the_schedule_with_no_scheduler_to_move_it_is_queued_by_the_sweeper(
    table, scheduler
):
    game_id = table.game(turn_seconds=60)
    version, deadline = table.deadline(game_id)
    job_id = deadline_job_id(game_id, version)
    assert scheduler.ensure_deadline(game_id, version, deadline, now=deadline) == KEPT

    much_later = deadline + dt.timedelta(minutes=5)  # no RQ scheduler has moved it all this time
    assert scheduler.ensure_deadline(game_id, version, deadline, now=much_later) == MOVED
    assert scheduler.queue.job_ids == [job_id] and scheduler.scheduled_job_ids() == []


def test_a_sweep_forgets_idempotency_keys_older_than_a_week_and_keeps_newer_ones(table, scheduler, database_url):
    import psycopg
    from psycopg.types.json import Jsonb

    player = table.players[0]
    with psycopg.connect(database_url) as conn:
        for key, age in (("old-key", dt.timedelta(days=8)), ("new-key", dt.timedelta(days=6))):
            conn.execute(
                "insert into idempotency_keys (player_id, key, request_sha256, status, response, created_at)"
                " values (%s, %s, 'x', 200, %s, now() - %s)", (player, key, Jsonb({}), age))
    sweep(database_url, scheduler)
    with psycopg.connect(database_url) as conn:
        keys = {row[0] for row in conn.execute("select key from idempotency_keys where player_id = %s", (player,))}
    assert keys == {"new-key"}
