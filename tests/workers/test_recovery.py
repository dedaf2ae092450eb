"""PostgreSQL is the truth and Redis is disposable: flushing Redis, killing a
worker or running two at once loses nothing and doubles nothing."""

from __future__ import annotations


from api.service.scheduling import DEADLINE_JOB, RQScheduler, deadline_job_id

from .conftest import game_row_held, run_worker, wait_past, wait_until


def test_after_redis_is_flushed_and_the_worker_restarts_every_pending_deadline_fires_once_and_every_ended_game_is_scored_once(  # noqa: E501
    table, redis, database_url, worker_env, odd_games
):
    waiting = [table.game(turn_seconds=1) for _ in range(3)]
    ended = [table.game("quickberg") for _ in range(2)]
    for game_id in ended:
        table.play(game_id, moves=1)
    first = {game_id: table.deadline(game_id) for game_id in waiting}

    redis.flushdb()
    wait_past(max(deadline for _, deadline in first.values()))
    run_worker(redis, database_url)  # its sweep at start re-creates the jobs

    for game_id, (version, _) in first.items():
        assert [v for v, _ in table.timeouts(game_id)] .count(version) == 1
    for game_id in ended:
        assert table.status(game_id) == "finished" and table.count(game_id, "GameScored") == 1

    redis.flushdb()  # and once more: nothing fires or scores twice
    run_worker(redis, database_url)
    for game_id, (version, _) in first.items():
        timeouts = table.timeouts(game_id)
        assert len(timeouts) == len(set(timeouts)) and [v for v, _ in timeouts].count(version) == 1
    for game_id in ended:
        assert table.count(game_id, "GameScored") == 1


def test_a_worker_killed_in_the_middle_of_scoring_leaves_the_game_scored_exactly_once(
    table, service, redis, database_url, worker_processes
):
    service.scheduler = RQScheduler(redis, job_timeout=3)  # so that the next worker soon sees it abandoned
    game_id = table.game()
    table.play(game_id)  # to the end: the scoring job is queued
    assert table.status(game_id) == "scoring"

    # Hold the game's read-model row: the scoring job appends its event, then
    # waits on the row inside its transaction, where the kill finds it.
    with game_row_held(database_url, game_id) as job_waiting:
        first = worker_processes()
        job_waiting()
        first.kill()
    # The job's append is one statement (migration 0117): once the row is free, PostgreSQL may finish it
    # without its killed client, as it would a command whose answer was lost. Either way it counts once.
    def read_alike():  # the count, the status and the count again, the same: no commit in between
        before, status = table.count(game_id, "GameScored"), table.status(game_id)
        return (before, status) if table.count(game_id, "GameScored") == before else None

    scored, status = wait_until(read_alike, 10, "a reading of the game that no commit cut in two")
    orphan_committed = scored == 1
    assert status == ("finished" if orphan_committed else "scoring")

    second = worker_processes()
    wait_until(lambda: table.status(game_id) == "finished", 60, "the next worker to score the game")
    second.stop()
    assert table.count(game_id, "GameScored") == 1
    assert "scoring game=" not in first.log(), "the first worker died before it could finish"
    assert orphan_committed or "scoring: 1 replaced" in second.log(), \
        "the next worker's sweep made the abandoned job again"


def test_two_workers_running_together_never_fire_one_deadline_twice(
    table, scheduler, redis, worker_processes
):
    games = [table.game(turn_seconds=1) for _ in range(4)]
    first = {game_id: table.deadline(game_id) for game_id in games}
    for game_id, (version, deadline) in first.items():  # the same deadline delivered twice more
        for copy in ("a", "b"):
            scheduler.queue.enqueue_at(deadline, DEADLINE_JOB, str(game_id), version,
                                       job_id=f"copy-{copy}-{deadline_job_id(game_id, version)}")

    workers = [worker_processes(), worker_processes()]
    wait_until(lambda: all(len(table.timeouts(game_id)) >= 2 for game_id in games), 60,
               "two timeouts in every game")
    for worker in workers:
        assert worker.stop() == 0

    for game_id, (version, _) in first.items():
        timeouts = table.timeouts(game_id)
        assert len(timeouts) == len(set(timeouts)), f"a deadline fired twice in {game_id}: {timeouts}"
        assert [v for v, _ in timeouts].count(version) == 1
    logs = [worker.log() for worker in workers]
    assert all("on queue 'boardlog'" in log for log in logs), logs
