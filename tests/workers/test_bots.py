"""Bots move from RQ jobs through the command path, recorded with their kind
as the actor; the sweeper re-creates a bot's job that Redis lost; a game
played by bots to its end audits like any other."""

from __future__ import annotations

import uuid

import pytest

from domain import playout
from domain.audit import rerun
from domain.engine import rng_for
from domain.lifecycle import bots
from api.service.scheduling import CREATED, bot_job_id
from workers.sweeper import sweep

from .conftest import run_worker


@pytest.fixture(autouse=True)
def _bots_without_delay(monkeypatch):
    monkeypatch.setenv("BOARDLOG_BOT_DELAY", "0")


def _records(store, game_id):
    return store.read_stream(f"game-{game_id}")


def test_a_bot_seat_moves_from_a_job_recorded_with_its_kind_as_the_actor(table, service, redis, database_url, worker_env):
    host = table.players[0]
    game_id = service.create(host, "cronberg", {"players": 2, "bots": {"p2": "random"}}, None)
    service.start(game_id, host)
    rules, session = play_host_until_the_bot_is_to_act(service, game_id, host)
    assert bot_job_id(game_id, session.version) in scheduler_jobs(service)

    run_worker(redis, database_url)

    bot_moves = [r for r in _records(service.store, game_id) if r.metadata.get("seat") == "p2"]
    assert bot_moves and all(r.metadata["actor"] == "bot:random" and r.metadata["bot"] == "random" for r in bot_moves)
    rules, session = service.load(game_id)
    assert "p2" not in rules.to_act(session.state) or session.status != "active"


def play_host_until_the_bot_is_to_act(service, game_id, host, host_seat="p1", bot_seat="p2"):
    for step in range(200):
        rules, session = service.load(game_id)
        if bot_seat in rules.to_act(session.state):
            return rules, session
        command = playout.random_command(rules, session.state, host_seat, rng_for(b"test", session.version))
        service.act(game_id, host, command.to_json())
    raise AssertionError("the bot's turn never came")


def scheduler_jobs(service) -> list[str]:
    return service.scheduler.queue.job_ids + service.scheduler.scheduled_job_ids()


def test_a_game_of_bots_is_played_to_its_end_by_the_worker_and_audits(table, service, redis, database_url, worker_env):
    host = table.players[0]
    game_id = service.create(host, "cronberg", {"players": 3, "bots": {"p2": "random", "p3": "random"}}, None)
    service.start(game_id, host)
    service.seat_life.resign(game_id, host)  # two bots remain: a bot takes p1 too

    run_worker(redis, database_url)

    rules, session = service.load(game_id)
    assert session.status == "finished", session.status
    assert [s["seat"] for s in session.standings][-1] == "p1"
    records = [{"type": r.type, "schema_version": r.schema_version, "data": r.data, "metadata": r.metadata}
               for r in _records(service.store, game_id)]
    result = rerun(rules, records)
    assert result.ok, result.problems
    actors = {r["metadata"].get("actor") for r in records if r["metadata"].get("bot")}
    assert "bot:random" in actors and actors <= {"bot:random", f"bot:{bots.best_kind('cronberg')}"}


def test_a_log_naming_a_bot_this_server_lacks_fails_the_audit(table, service, redis, database_url, worker_env):
    host = table.players[0]
    game_id = service.create(host, "cronberg", {"players": 3, "bots": {"p2": "random", "p3": "random"}}, None)
    service.start(game_id, host)
    service.seat_life.resign(game_id, host)
    run_worker(redis, database_url)
    rules, _ = service.load(game_id)
    records = [{"type": r.type, "schema_version": r.schema_version, "data": r.data, "metadata": dict(r.metadata)}
               for r in _records(service.store, game_id)]
    next(r for r in records if r["metadata"].get("bot"))["metadata"]["bot"] = "no-such-bot"
    assert not rerun(rules, records).ok


def test_the_sweeper_re_creates_a_bot_job_that_redis_lost(table, service, redis, database_url):
    host = table.players[0]
    game_id = service.create(host, "cronberg", {"players": 2, "bots": {"p1": "random"}}, "p2")
    service.start(game_id, host)
    _, session = play_host_until_the_bot_is_to_act(service, game_id, host, "p2", "p1")
    job_id = bot_job_id(game_id, session.version)
    assert job_id in scheduler_jobs(service)
    redis.flushdb()

    report = sweep(database_url, service.scheduler)

    assert report.bots[CREATED] >= 1
    assert job_id in scheduler_jobs(service)


def test_a_bot_job_that_runs_late_changes_nothing(table, service):
    host, guest = table.players
    game_id = service.create(host, "cronberg", {"players": 2, "bots": {"p1": "random"}}, "p2")
    service.start(game_id, host)
    _, session = play_host_until_the_bot_is_to_act(service, game_id, host, "p2", "p1")
    assert service.bots.play_bots(game_id, session.version)
    assert not service.bots.play_bots(game_id, session.version)
    assert not service.bots.play_bots(uuid.UUID(str(game_id)), session.version + 100)


def test_a_seat_timed_out_by_its_deadline_job_is_abandoned_and_its_bot_job_plays_it(
    table, service, redis, database_url, worker_env
):
    from .conftest import wait_past

    host, guest = table.players
    game_id = service.create(host, "cronberg", {"players": 2, "turn_seconds": 1, "abandon_after": 1}, None)
    service.join(game_id, guest, None)
    service.start(game_id, host)
    rules, session = service.load(game_id)
    (seat,) = rules.to_act(session.state)
    wait_past(table.deadline(game_id)[1])

    bot = bots.best_kind("cronberg")
    for _ in range(5):  # the bot's turn may come after the other seat's (1 s) deadline
        run_worker(redis, database_url)
        records = _records(service.store, game_id)
        if any(r.metadata.get("actor") == f"bot:{bot}" for r in records):
            break
        wait_past(table.deadline(game_id)[1])

    abandoned = [r for r in records if r.type == "SeatAbandoned"]
    assert [r.data["seat"] for r in abandoned][:1] == [seat]
    assert any(r.metadata.get("actor") == f"bot:{bot}" and r.metadata["seat"] == seat for r in records)
    assert service.load(game_id)[1].life.plays(seat) == bot
