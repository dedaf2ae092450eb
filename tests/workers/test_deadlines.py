"""Turn deadlines: scheduled when the seats to act change, fired through the
command path by the system, and harmless when they fire twice or late."""

from __future__ import annotations

import logging

from api.service.scheduling import DEADLINE_JOB, KEPT, deadline_job_id

from .conftest import run_worker, wait_past


def test_a_game_without_turn_seconds_schedules_no_deadline(table, scheduler):
    game_id = table.game()
    assert table.deadline(game_id)[1] is None
    assert scheduler.scheduled_job_ids() == []


def test_a_deadline_times_out_the_seat_to_act_through_the_command_path_as_the_system(
    table, scheduler, redis, database_url, worker_env
):
    game_id = table.game(turn_seconds=1)
    version, deadline = table.deadline(game_id)
    seat = sorted(table.service.load(game_id)[0].to_act(table.session(game_id).state))[0]
    job_id = deadline_job_id(game_id, version)
    assert scheduler.scheduled_job_ids() == [job_id]
    due = scheduler.queue.scheduled_job_registry.get_scheduled_time(job_id)
    assert deadline <= due, "a deadline never fires before the time the players were shown"

    wait_past(deadline)
    run_worker(redis, database_url)

    fired = [record for record in table.events(game_id) if record.version > version]
    assert fired[0].type == "TurnTimedOut"
    assert fired[0].data == {"seat": seat, "deadline_version": version}
    assert len(fired) > 1, "the timeout command's own events follow TurnTimedOut"
    for record in fired:
        assert record.metadata["actor"] == "system"
        assert record.metadata["timeout"] is True
        assert record.metadata["seat"] == seat
    new_version, new_deadline = table.deadline(game_id)
    assert new_version == fired[-1].version and new_deadline > deadline
    assert deadline_job_id(game_id, new_version) in scheduler.scheduled_job_ids(), "the next turn has its deadline"


def test_with_each_seat_s_own_deadline_a_worker_times_the_seat_out_once_its_deadline_passed(
    table, scheduler, redis, database_url, worker_env
):
    game_id = table.game(turn_seconds=1, deadline_per_seat=True)  # as a new game has it by default
    version, deadline = table.deadline(game_id)
    seat = sorted(table.service.load(game_id)[0].to_act(table.session(game_id).state))[0]
    assert deadline_job_id(game_id, version) in scheduler.scheduled_job_ids()
    wait_past(deadline)
    run_worker(redis, database_url)

    assert table.timeouts(game_id)[0] == (version, seat)
    fired = [record for record in table.events(game_id) if record.version > version]
    assert fired[-1].type == "ClocksComputed", "the clocks are computed again after the timeout"
    new_version, new_deadline = table.deadline(game_id)
    assert new_version == fired[-1].version and new_deadline > deadline


def test_a_deadline_that_fires_twice_changes_nothing_the_second_time(
    table, scheduler, redis, database_url, worker_env
):
    game_id = table.game(turn_seconds=3600)
    version, _ = table.deadline(game_id)
    for _ in range(2):
        scheduler.queue.enqueue(DEADLINE_JOB, str(game_id), version)
        run_worker(redis, database_url)
    assert [v for v, _ in table.timeouts(game_id)] == [version]


def test_a_deadline_that_fires_after_the_player_moved_changes_nothing(
    table, scheduler, redis, database_url, worker_env
):
    game_id = table.game(turn_seconds=3600)
    version, _ = table.deadline(game_id)
    table.play(game_id, moves=1)
    moved_to = table.session(game_id).version

    scheduler.queue.enqueue(DEADLINE_JOB, str(game_id), version)  # late: the game has moved
    run_worker(redis, database_url)

    assert table.timeouts(game_id) == []
    assert table.session(game_id).version == moved_to


def test_asking_again_for_a_deadline_on_its_way_keeps_the_one_job(table, scheduler):
    game_id = table.game(turn_seconds=3600)
    version, deadline = table.deadline(game_id)
    assert scheduler.ensure_deadline(game_id, version, deadline) == KEPT
    assert scheduler.scheduled_job_ids() == [deadline_job_id(game_id, version)]


def test_a_game_whose_rules_raise_is_logged_and_left_unchanged_while_the_next_games_are_processed(
    table, scheduler, redis, database_url, worker_env, odd_games, caplog
):
    broken = table.game("brokenberg", turn_seconds=3600)
    healthy = [table.game(turn_seconds=3600) for _ in range(2)]
    broken_version = table.session(broken).version
    for game_id in [broken, *healthy]:  # the broken one first in the queue
        scheduler.queue.enqueue(DEADLINE_JOB, str(game_id), table.deadline(game_id)[0])

    with caplog.at_level(logging.ERROR, logger="boardlog.workers"):
        run_worker(redis, database_url)

    assert table.session(broken).version == broken_version
    assert table.timeouts(broken) == []
    assert any(str(broken) in record.getMessage() and "left unchanged" in record.getMessage()
               for record in caplog.records), caplog.text
    for game_id in healthy:
        assert len(table.timeouts(game_id)) == 1


def test_the_worker_s_scheduler_looks_for_due_deadlines_four_times_a_second(worker_processes, redis):
    """RQ's scheduler looks once a second; with deadlines rounded up to the
    whole second, that made a deadline up to 2 s late before its job even
    started. Each pass of the scheduler writes its heartbeat."""
    import time

    from .conftest import wait_until

    worker_processes()
    (key,) = wait_until(lambda: list(redis.scan_iter("rq:scheduler:*")), 30, "the worker's scheduler")
    seen = set()
    end = time.monotonic() + 3
    while time.monotonic() < end:
        seen.add(redis.hget(key, "last_heartbeat"))
        time.sleep(0.02)
    assert len(seen - {None}) >= 7, f"{len(seen)} passes in 3 s"
