"""End-game scoring: a job appends GameScored once and the game is finished;
a job that keeps failing is retried, then kept where a person sees it."""

from __future__ import annotations

import logging

from rq import Retry

from api.service.scheduling import FAILED, SCORING_JOB, RQScheduler, scoring_job_id
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
