"""Reminders before a deadline: each offset once per turn, none after the
move, none while paused or away, none twice whatever the workers and Redis
go through. Through the real service on PostgreSQL with a clock of the
test's own (tests/workers/test_missed_turns.py), and through real RQ workers
on the real clock where a worker fires them."""

from __future__ import annotations

import datetime as dt

import pytest

from api.service import reminders
from api.service.scheduling import REMINDER_JOB, reminder_job_id
from domain import playout
from domain.engine import rng_for
from tests.workers.test_absences import DAY
from tests.workers.test_missed_turns import HOUR, clock, deadline_of, timed_service  # noqa: F401 (fixtures)
from workers.sweeper import sweep

from .conftest import run_worker, wait_until


def _game(service, players, **options) -> tuple:
    """A started Cronberg with two days a turn: (game, seat to act, its player, its deadline)."""
    host, guest = players
    game_id = service.create(host, "cronberg", {"players": 2, "turn_seconds": 2 * DAY, "deadline_per_seat": True,
                                                **options}, None)
    service.join(game_id, guest, None)
    service.start(game_id, host)
    rules, session = service.load(game_id)
    seat = sorted(rules.to_act(session.state))[0]
    return game_id, seat, session.players[seat], _seat_deadline(service, game_id, seat)


def _seat_deadline(service, game_id, seat) -> dt.datetime:
    with service.pool.connection() as conn:
        return conn.execute("select deadline from seat_deadlines where game_id = %s and seat = %s",
                            (game_id, seat)).fetchone()[0]


def _reminders(store, game_id) -> list:
    return [record.data for record in store.read_stream(reminders.stream_of(game_id))]


def _move(service, game_id, seat) -> None:
    rules, session = service.load(game_id)
    command = playout.random_command(rules, session.state, seat, rng_for(b"remind", session.version))
    service.act(game_id, session.players[seat], command.to_json())


def test_a_player_is_reminded_at_each_offset_once_saying_the_game_the_time_left_and_the_timeout(
        timed_service, clock, table, event_store):
    service = timed_service
    game_id, seat, player, deadline = _game(service, table.players)
    assert service.reminders.fire(game_id) == 0, "two days before the deadline nothing is due"

    for offset in (12 * HOUR, HOUR):  # the default offsets
        clock.pass_to(deadline - dt.timedelta(seconds=offset - 1))
        assert service.reminders.fire(game_id) == 1
        assert service.reminders.fire(game_id) == 0, "a reminder fired again sends nothing"
    clock.pass_to(deadline - dt.timedelta(seconds=5))
    assert service.reminders.fire(game_id) == 0

    sent = _reminders(event_store, game_id)
    assert [(r["seat"], r["player"], r["offset_seconds"]) for r in sent] == [(seat, player, 12 * HOUR),
                                                                            (seat, player, HOUR)]
    assert sent[0]["channels"] == ["mail", "push", "stream", "webhook"]
    assert HOUR - 30 < sent[1]["left_seconds"] < HOUR and sent[1]["at_deadline"] == "timeout"
    assert sent[1]["text"].startswith("59 min left in Cronberg: your turn's time runs out at")
    assert sent[1]["text"].endswith("then the timeout move is played for you.")


def test_the_reminder_of_a_seat_one_missed_turn_from_abandonment_says_so(timed_service, clock, table, event_store):
    service = timed_service
    game_id, seat, _, deadline = _game(service, table.players, abandon_after=1)
    clock.pass_to(deadline - dt.timedelta(minutes=30))
    assert service.reminders.fire(game_id) == 1
    (sent,) = _reminders(event_store, game_id)
    assert sent["offset_seconds"] == HOUR, "the 12 h and 1 h reminders both due: one reminder, the nearer offset"
    assert sent["at_deadline"] == "abandon" and "a bot takes your seat" in sent["text"]
    clock.pass_to(deadline - dt.timedelta(minutes=10))
    assert service.reminders.fire(game_id) == 0, "the 12 h reminder passed over is not sent late"


def test_a_player_is_reminded_on_the_channels_and_at_the_offsets_he_chose(timed_service, clock, table, event_store):
    service = timed_service
    game_id, seat, player, deadline = _game(service, table.players)
    with service.pool.connection() as conn:
        reminders.update_settings(conn, player, {"stream": [3 * HOUR], "mail": [], "webhook": [], "push": []})
    clock.pass_to(deadline - dt.timedelta(hours=12, seconds=-1))
    assert service.reminders.fire(game_id) == 0, "he chose no 12 h reminder"
    clock.pass_to(deadline - dt.timedelta(hours=3, seconds=-1))
    assert service.reminders.fire(game_id) == 1
    clock.pass_to(deadline - dt.timedelta(minutes=59))
    assert service.reminders.fire(game_id) == 0, "nor a 1 h one"
    assert [(r["offset_seconds"], r["channels"]) for r in _reminders(event_store, game_id)] == [(3 * HOUR, ["stream"])]


def test_a_player_who_moved_is_not_reminded_of_that_turn(timed_service, clock, table, event_store):
    service = timed_service
    game_id, seat, player, deadline = _game(service, table.players)
    clock.pass_to(deadline - dt.timedelta(hours=13))
    # The job for the 12 h reminder is scheduled; the seat moves before it fires.
    due = service.reminders.next_due(game_id)
    assert due == deadline - dt.timedelta(hours=12)
    assert reminder_job_id(game_id, due) in service.scheduler.scheduled_job_ids()
    _move(service, game_id, seat)
    clock.pass_to(deadline - dt.timedelta(minutes=30))
    service.reminders.fire(game_id)
    assert [r for r in _reminders(event_store, game_id) if r["seat"] == seat] == []


def test_a_paused_game_reminds_nobody(timed_service, clock, table, event_store):
    service = timed_service
    game_id, seat, player, deadline = _game(service, table.players)
    for who in table.players:
        service.pauses.ask_pause(game_id, who)
    assert service.load(game_id)[1].life.paused
    assert service.reminders.next_due(game_id) is None
    clock.pass_to(deadline - dt.timedelta(minutes=30))
    assert service.reminders.fire(game_id) == 0
    assert _reminders(event_store, game_id) == []


def test_a_seat_away_is_not_reminded(timed_service, clock, table, event_store):
    service = timed_service
    game_id, seat, player, deadline = _game(service, table.players)
    service.absences.declare_absence(player, clock(), clock() + dt.timedelta(days=5))
    version, _ = deadline_of(service, game_id)
    assert service.absences.mark_absences(game_id, version)
    assert seat in service.load(game_id)[1].life.away
    clock.pass_to(deadline - dt.timedelta(minutes=30))
    assert service.reminders.fire(game_id) == 0
    assert _reminders(event_store, game_id) == []


def test_reminders_live_through_a_redis_flush_and_a_job_run_again_without_sending_twice(
        service, table, event_store, scheduler, redis, database_url, worker_env):
    """On the real clock: a 12 s turn, a reminder 9 s before its end."""
    game_id, seat, player, deadline = _game_with(service, table.players, turn=12, offsets=[9])
    due = deadline - dt.timedelta(seconds=9)
    assert reminder_job_id(game_id, due) in scheduler.scheduled_job_ids()

    redis.flushdb()  # every job lost
    report = sweep(database_url, scheduler)
    assert report.reminders["created"] >= 1, "the sweeper made the reminder's job again from PostgreSQL"
    assert reminder_job_id(game_id, due) in scheduler.scheduled_job_ids()
    wait_until(lambda: dt.datetime.now(dt.timezone.utc).timestamp() > int(due.timestamp()) + 1, 20, "the due time")
    run_worker(redis, database_url)
    assert [r["offset_seconds"] for r in _reminders(event_store, game_id)] == [9]

    # A worker killed after its commit has its job run again (the sweeper's,
    # RQ's retry): the job finds the reminder sent.
    for _ in range(2):
        scheduler.queue.enqueue(REMINDER_JOB, str(game_id))
    run_worker(redis, database_url)
    assert len(_reminders(event_store, game_id)) == 1
    with service.pool.connection() as conn:
        assert reminders.pending(conn, dt.datetime.now(dt.timezone.utc), game_id) == [], "nothing left this turn"


def _game_with(service, players, turn: int, offsets: list[int]) -> tuple:
    host, guest = players
    with service.pool.connection() as conn:
        for player in players:
            reminders.update_settings(conn, player, {"stream": offsets, "mail": [], "webhook": [], "push": []})
    game_id = service.create(host, "cronberg", {"players": 2, "turn_seconds": turn, "deadline_per_seat": True}, None)
    service.join(game_id, guest, None)
    service.start(game_id, host)
    rules, session = service.load(game_id)
    seat = sorted(rules.to_act(session.state))[0]
    return game_id, seat, session.players[seat], _seat_deadline(service, game_id, seat)


@pytest.mark.parametrize("offsets, says", [
    ([-60], "a reminder comes before the deadline"),
    ([0], "a reminder comes before the deadline"),
    ([8 * DAY], "a reminder comes at most a week"),
    ([1, 2, 3, 4, 5, 6, 7], "at most 6 reminders per channel"),
])
def test_offsets_that_are_not_before_the_deadline_or_longer_than_a_week_are_refused_and_nothing_is_stored(
        service, table, offsets, says):
    player = table.players[0]
    with service.pool.connection() as conn:
        with pytest.raises(reminders.InvalidRequest) as refused:
            reminders.update_settings(conn, player, {"stream": [HOUR], "mail": offsets})
        assert says in refused.value.message
        assert reminders.settings(conn, player)["stream"] == list(reminders.DEFAULT_OFFSETS)


def test_a_worker_killed_while_sending_a_reminder_and_a_redis_flush_after_it_lose_none_and_send_none_twice(
        service, table, event_store, redis, database_url, worker_processes):
    """On the real clock: the reminder's job waits on the game's row, held
    here; its worker is killed there, Redis is flushed, a new worker's
    sweeper makes the job again from PostgreSQL, and it sends the reminder once."""
    import psycopg

    game_id, seat, _, deadline = _game_with(service, table.players, turn=20, offsets=[16])
    due = deadline - dt.timedelta(seconds=16)
    with psycopg.connect(database_url) as holder, psycopg.connect(database_url, autocommit=True) as watcher:
        holder.execute("select 1 from games where id = %s for update", (game_id,))
        first = worker_processes()
        wait_until(lambda: watcher.execute(
            "select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'"
            " and query ilike '%%for share%%'").fetchone(), 30, "the reminder's job to wait on the game's row")
        first.kill()
        holder.rollback()
    redis.flushdb()
    assert _reminders(event_store, game_id) == [], "the killed job sent nothing"

    second = worker_processes()
    wait_until(lambda: _reminders(event_store, game_id), 30, "the reminder, sent by the job made again")
    wait_until(lambda: dt.datetime.now(dt.timezone.utc) > due + dt.timedelta(seconds=3), 10, "a few sweeps more")
    second.stop()
    assert [(r["seat"], r["offset_seconds"]) for r in _reminders(event_store, game_id)] == [(seat, 16)]


def test_time_given_moves_the_reminders_still_to_come_and_repeats_none_already_sent(
        timed_service, clock, table, event_store):
    service = timed_service
    game_id, seat, player, deadline = _game(service, table.players)
    clock.pass_to(deadline - dt.timedelta(hours=12, seconds=-1))
    assert service.reminders.fire(game_id) == 1
    giver = next(p for p in table.players if p != player)
    service.pauses.give_time(game_id, giver, seat, HOUR)
    moved = _seat_deadline(service, game_id, seat)
    assert abs((moved - deadline).total_seconds() - HOUR) < 5
    clock.pass_to(deadline - dt.timedelta(minutes=59))  # the 1 h reminder's old time
    assert service.reminders.fire(game_id) == 0, "the deadline moved: it is not an hour away yet"
    clock.pass_to(moved - dt.timedelta(minutes=59))
    assert service.reminders.fire(game_id) == 1
    assert [r["offset_seconds"] for r in _reminders(event_store, game_id)] == [12 * HOUR, HOUR]


def test_a_reminder_carries_only_what_every_player_of_the_game_may_see(timed_service, clock, table, event_store):
    """Seats, deadlines, options and missed turns are public (every view
    shows them); a reminder holds nothing of the game's state or a view."""
    service = timed_service
    game_id, _, _, deadline = _game(service, table.players)
    clock.pass_to(deadline - dt.timedelta(minutes=30))
    service.reminders.fire(game_id)
    (record,) = event_store.read_stream(reminders.stream_of(game_id))
    assert set(record.data) == {"seat", "player", "game", "game_version", "turn_version", "deadline", "left_seconds",
                                "offset_seconds", "clock", "at_deadline", "channels", "text"}
    assert all(isinstance(value, (str, int, list)) for value in record.data.values())
    assert set(record.metadata) == {"actor", "tell"}


def test_a_game_running_before_reminders_existed_is_reminded_from_the_backfill_on_and_never_late(
        timed_service, clock, table, event_store):
    from api.processes.reminder_backfill import backfill

    service = timed_service
    game_id, seat, _, deadline = _game(service, table.players)
    with service.pool.connection() as conn:
        conn.execute("delete from seat_deadlines where game_id = %s", (game_id,))  # as before migration 0112
    clock.pass_to(deadline - dt.timedelta(hours=6))  # the 12 h reminder's time has passed
    assert service.reminders.next_due(game_id) is None

    assert backfill(service) >= 1
    assert _seat_deadline(service, game_id, seat) == deadline
    assert service.reminders.fire(game_id) == 0, "a reminder whose time passed before the backfill is not sent late"
    assert service.reminders.next_due(game_id) == deadline - dt.timedelta(hours=1)
    assert game_id not in _unprojected(service), "done once"


def _unprojected(service) -> list:
    with service.pool.connection() as conn:
        return reminders.unprojected(conn)


def test_a_reminder_its_deadline_overtook_is_logged_once_at_warning_saying_what_to_do(
        timed_service, clock, table, event_store, caplog):
    import logging

    service = timed_service
    game_id, seat, player, deadline = _game(service, table.players)
    with service.pool.connection() as conn:
        reminders.update_settings(conn, player, {"stream": [HOUR], "mail": [], "webhook": [], "push": []})
    version, _ = deadline_of(service, game_id)
    clock.pass_to(deadline + dt.timedelta(seconds=1))  # no worker sent the 1 h reminder: it ran behind
    caplog.set_level(logging.WARNING, logger="boardlog.reminders")
    assert service.reminders.fire(game_id) == 0, "the turn is over: too late to remind"
    assert service.fire_deadline(game_id, version)
    assert not service.fire_deadline(game_id, version), "fired again: changes nothing, says nothing"

    said = [record for record in caplog.records if "reminder not sent" in record.getMessage()]
    assert len(said) == 1 and said[0].levelno == logging.WARNING
    assert said[0].getMessage().startswith(
        f"reminder not sent: game {game_id} seat {seat}, 1 h before its deadline (stream), was due at ")
    assert "the deadline timed the seat out 3601.0 s after that" in said[0].getMessage()
    assert "run more workers if this repeats" in said[0].getMessage()
    assert _reminders(event_store, game_id) == []
