"""End-game scoring: a job appends GameScored once and the game is finished;
a job that keeps failing is retried, then kept where a person sees it."""

from __future__ import annotations

import logging
import uuid
from datetime import datetime, timedelta, timezone

from rq import Retry
from rq.job import JobStatus

from api.service import scheduling
from api.service.scheduling import CREATED, FAILED, SCORING_JOB, RQScheduler, scoring_job_id
from workers.sweeper import sweep

from .conftest import run_worker


def test_a_game_that_ends_is_scored_once_and_its_status_goes_from_scoring_to_finished(
    table, scheduler, redis, database_url, worker_env, odd_games
):
    game_id = table.game("quickberg")
    table.play(game_id, moves=1)
    assert table.status(game_id) == "scoring"
    assert scheduler.queue.job_ids == [scoring_job_id(game_id)]

    run_worker(redis, database_url)

    assert table.status(game_id) == "finished"
    assert table.count(game_id, "GameScored") == 1
    scored = table.events(game_id)[-1]
    assert scored.type == "GameScored" and scored.metadata["actor"] == "system"
    assert {s["seat"] for s in scored.data["standings"]} == set(table.session(game_id).seats)

    scheduler.queue.enqueue(SCORING_JOB, str(game_id))  # once more, by mistake
    run_worker(redis, database_url)
    assert table.count(game_id, "GameScored") == 1


def test_scoring_that_keeps_failing_is_retried_then_kept_in_the_failed_registry_and_reported(
    table, service, redis, database_url, worker_env, odd_games, caplog
):
    service.scheduler = RQScheduler(redis, scoring_retry=Retry(max=2))  # retried at once, twice
    game_id = table.game("failberg")
    table.play(game_id, moves=1)
    job_id = scoring_job_id(game_id)

    with caplog.at_level(logging.INFO, logger="boardlog.workers"):
        run_worker(redis, database_url)

    failures = [r for r in caplog.records
                if r.name == "boardlog.workers" and r.levelno == logging.ERROR and str(game_id) in r.getMessage()]
    assert len(failures) == 3, "the first run and two retries, each logged"
    assert service.scheduler.failed_job_ids() == [job_id]
    assert table.status(game_id) == "scoring" and table.count(game_id, "GameScored") == 0

    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="boardlog.workers"):
        report = sweep(database_url, service.scheduler)
    assert report.scoring[FAILED] == 1 and report.failed == [job_id]
    assert any(job_id in r.getMessage() and "failed job registry" in r.getMessage() for r in caplog.records)
    assert service.scheduler.failed_job_ids() == [job_id], "the sweeper leaves it where a person sees it"
    assert len(service.scheduler.queue) == 0


def test_the_command_that_ends_a_game_makes_its_scoring_job_without_reading_one_first(scheduler, monkeypatch):
    reads = []
    real_fetch = scheduling.Job.fetch
    monkeypatch.setattr(scheduling.Job, "fetch", lambda job_id, **kw: reads.append(job_id) or real_fetch(job_id, **kw))
    game_id = str(uuid.uuid4())
    scheduler.schedule_scoring(game_id)
    assert reads == []
    assert scheduler.queue.job_ids == [scoring_job_id(game_id)]


def test_a_scoring_job_a_sweep_made_first_is_kept_and_not_queued_twice(scheduler):
    game_id = str(uuid.uuid4())
    assert scheduler.ensure_scoring(game_id) == CREATED  # a sweep saw the game "scoring" first
    scheduler.schedule_scoring(game_id)
    assert scheduler.queue.job_ids == [scoring_job_id(game_id)]


def test_a_finished_scoring_job_left_under_the_games_id_is_made_again(scheduler, redis):
    game_id = str(uuid.uuid4())
    scheduler.ensure_scoring(game_id)
    job = scheduler.queue.fetch_job(scoring_job_id(game_id))
    scheduler.queue.remove(job)
    job.set_status(JobStatus.FINISHED)
    job.ended_at = datetime.now(timezone.utc) - timedelta(minutes=5)
    job.save()
    scheduler.schedule_scoring(game_id)
    assert scheduler.queue.job_ids == [scoring_job_id(game_id)]
    assert scheduler.queue.fetch_job(scoring_job_id(game_id)).get_status() == JobStatus.QUEUED
