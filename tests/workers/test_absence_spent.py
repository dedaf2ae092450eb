"""A day of absence spent instead of a timeout: a seat that would time out
whose player has a whole day of the year's allowance left, and has not opted
out, is away for a day from its deadline, as if he had declared it (its
SeatAway shown to all as any absence's), once per day; a move committed
first wins. Through the real service on PostgreSQL, with the clock of the
deadline tests (tests/workers/test_missed_turns.py)."""

from __future__ import annotations

import datetime as dt
import pytest

from domain import playout
from domain.engine import rng_for
from tests.workers.test_absences import _audited, _game
from tests.workers.test_missed_turns import HOUR, clock, deadline_of, fire_what_is_due, timed_service  # noqa: F401
from tests.workers.test_reminders import _game as _reminded_game
from tests.workers.test_reminders import _reminders


@pytest.fixture(autouse=True)
def spending(monkeypatch):
    monkeypatch.setenv("BOARDLOG_ABSENCE_SPENT_BEFORE_TIMEOUT", "1")


def _spent(service, player) -> list[dict]:
    """The player's absences spent instead of a timeout, ended or not, as listed while each ran."""
    with service.pool.connection() as conn:
        rows = conn.execute("select starts_at, ends_at from absences where player_id = %s and instead_of_timeout "
                            "order by starts_at", (player,)).fetchall()
    listed = {a["from"]: a for a in service.absences.absences_of(player)["absences"]}
    return [listed.get(starts, {"from": starts, "to": ends, "current": False}) for starts, ends in rows]


def _past_deadline(service, clock, game_id) -> int:
    version, deadline = deadline_of(service, game_id)
    clock.pass_to(deadline + dt.timedelta(seconds=1))
    return version


def test_a_seat_that_would_time_out_is_away_for_a_day_of_its_player_s_allowance_instead(timed_service, clock, table):
    service = timed_service
    game_id, seat, player = _game(service, table)
    _, deadline = deadline_of(service, game_id)
    _past_deadline(service, clock, game_id)
    assert fire_what_is_due(service, clock, game_id) >= 1

    assert table.timeouts(game_id) == [], "nobody timed out"
    away = service.load(game_id)[1].life.away[seat]
    since, until = dt.datetime.fromisoformat(away.since), dt.datetime.fromisoformat(away.until)
    assert until - since == dt.timedelta(days=1) and deadline <= since <= clock(), "a day from the deadline's firing"
    (absence,) = _spent(service, player)
    assert (absence["from"], absence["to"]) == (since, until) and absence["current"]
    assert service.absences.absences_of(player)["used_this_year_days"] == 1.0
    marked = [r for r in table.events(game_id) if r.type == "SeatAway"]
    assert [r.data for r in marked] == [{"seat": seat, "since": away.since, "until": away.until}]
    assert marked[0].metadata["command"] == {"type": "MarkAway"}, "the same shape as a declared absence's"
    _audited(service, table, game_id)


def test_a_day_is_spent_once_per_day_even_when_the_deadline_fires_twice(timed_service, clock, table):
    service = timed_service
    game_id, seat, player = _game(service, table)
    version = _past_deadline(service, clock, game_id)
    assert service.fire_deadline(game_id, version)
    assert not service.fire_deadline(game_id, version), "the same deadline fired again spends nothing"
    assert len(_spent(service, player)) == 1
    clock.pass_to(clock() + dt.timedelta(hours=12))
    fire_what_is_due(service, clock, game_id)
    assert len(_spent(service, player)) == 1, "none while the day runs"
    clock.pass_to(clock() + dt.timedelta(hours=12, seconds=2))  # the day is over: the seat is back
    fire_what_is_due(service, clock, game_id)
    assert len(_spent(service, player)) == 1 and seat not in service.load(game_id)[1].life.away
    _past_deadline(service, clock, game_id)  # and its turn's time runs out again
    fire_what_is_due(service, clock, game_id)
    spent = _spent(service, player)
    assert len(spent) == 2 and spent[0]["to"] <= spent[1]["from"], "a second day, after the first"
    assert table.timeouts(game_id) == []
    _audited(service, table, game_id)


@pytest.mark.parametrize("why", ["no day left", "opted out"])
def test_no_day_is_spent_for_a_player_with_none_left_or_who_opted_out(timed_service, clock, table, monkeypatch, why):
    service = timed_service
    game_id, seat, player = _game(service, table)
    if why == "no day left":
        monkeypatch.setenv("BOARDLOG_ABSENCE_DAYS_PER_YEAR", "0")
    else:
        assert service.absences.set_spending(player, False)["spend_before_timeout"] is False
    _past_deadline(service, clock, game_id)
    assert fire_what_is_due(service, clock, game_id) >= 1
    assert [s for _, s in table.timeouts(game_id)] == [seat]
    assert _spent(service, player) == [] and seat not in service.load(game_id)[1].life.away


def test_a_move_committed_as_the_deadline_fires_wins_and_nothing_is_spent(timed_service, clock, table):
    service = timed_service
    game_id, seat, player = _game(service, table)
    version = _past_deadline(service, clock, game_id)
    rules, session = service.load(game_id)
    command = playout.random_command(rules, session.state, seat, rng_for(b"race", session.version))
    service.act(game_id, player, command.to_json())  # committed first
    assert not service.fire_deadline(game_id, version)
    assert _spent(service, player) == [] and table.timeouts(game_id) == []


def test_a_player_who_moves_during_his_spent_day_is_back_and_is_charged_only_the_time_away(timed_service, clock,
                                                                                            table):
    service = timed_service
    game_id, seat, player = _game(service, table)
    version = _past_deadline(service, clock, game_id)
    assert service.fire_deadline(game_id, version)  # the deadline's job first
    clock.pass_to(clock() + dt.timedelta(hours=6))
    rules, session = service.load(game_id)
    command = playout.random_command(rules, session.state, seat, rng_for(b"back", session.version))
    service.act(game_id, player, command.to_json())
    assert seat not in service.load(game_id)[1].life.away
    assert abs(service.absences.absences_of(player)["used_this_year_days"] - 0.25) < 0.01
    _audited(service, table, game_id)


def test_a_player_who_moves_at_the_very_instant_his_day_was_spent_gets_the_whole_day_back(timed_service, clock,
                                                                                          table):
    # Met by a golden game recorded on a frozen clock: the absence would have ended as it began (a 500).
    service = timed_service
    game_id, seat, player = _game(service, table)
    version = _past_deadline(service, clock, game_id)
    clock.stopped_at = clock()
    assert service.fire_deadline(game_id, version)
    rules, session = service.load(game_id)
    command = playout.random_command(rules, session.state, seat, rng_for(b"instant", session.version))
    service.act(game_id, player, command.to_json())  # at the instant the day began
    assert seat not in service.load(game_id)[1].life.away
    assert _spent(service, player) == [] and service.absences.absences_of(player)["used_this_year_days"] == 0
    _audited(service, table, game_id)


def test_the_reminder_before_the_deadline_says_a_day_of_absence_will_be_spent(timed_service, clock, table,
                                                                            event_store):
    service = timed_service
    game_id, seat, player, deadline = _reminded_game(service, table.players)
    clock.pass_to(deadline - dt.timedelta(minutes=30))
    assert service.reminders.fire(game_id) == 1
    (sent,) = _reminders(event_store, game_id)
    assert sent["at_deadline"] == "absence"
    assert "a day of your absence allowance is spent instead of a timeout" in sent["text"]


def test_a_redis_flush_and_a_deadline_job_run_again_spend_no_day_twice(service, table, scheduler, redis, database_url,
                                                                       worker_env):
    """On the real clock: a 4 s turn; every job lost, the sweeper makes the
    deadline's job again from PostgreSQL, a worker spends the day; the job
    run twice more (a killed worker's retry) spends nothing more."""
    from api.service.scheduling import DEADLINE_JOB
    from workers.sweeper import sweep

    from .conftest import run_worker, wait_past

    host, guest = table.players
    game_id = service.create(host, "cronberg", {"players": 2, "turn_seconds": 4, "deadline_per_seat": True}, None)
    service.join(game_id, guest, None)
    service.start(game_id, host)
    rules, session = service.load(game_id)
    seat = sorted(rules.to_act(session.state))[0]
    player, (version, deadline) = session.players[seat], deadline_of(service, game_id)

    redis.flushdb()
    assert sweep(database_url, scheduler).deadlines["created"] >= 1
    wait_past(deadline)
    run_worker(redis, database_url)
    assert len(_spent(service, player)) == 1 and seat in service.load(game_id)[1].life.away
    for _ in range(2):
        scheduler.queue.enqueue(DEADLINE_JOB, str(game_id), version)
    run_worker(redis, database_url)
    assert len(_spent(service, player)) == 1 and table.timeouts(game_id) == []
