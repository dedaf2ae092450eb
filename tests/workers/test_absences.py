"""An absence over a game's deadlines: the seat is away, nobody times it
out, its bank stays as it was; its clocks run again when the absence ends
or when its player acts. Through the real service on PostgreSQL, with a
clock of the test's own (tests/workers/test_missed_turns.py)."""

from __future__ import annotations

import datetime as dt

import pytest

from api.service.absences import AbsenceRefused
from domain import audit, engine_rules, playout
from domain.engine import rng_for
from tests.workers.test_missed_turns import HOUR, Clock, deadline_of, fire_what_is_due, started
from tests.support.seeds import TEST_SEEDS

DAY = 24 * HOUR


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def timed_service(event_store, scheduler, clock):
    from api.service.games import GameService
    return GameService(event_store, scheduler, clock=clock, seeds=TEST_SEEDS)


def _game(service, table, **options):
    game_id = started(service, table.players, "cronberg",
                      {"players": 2, "time_bank_seconds": 2 * HOUR, **options})
    rules, session = service.load(game_id)
    seat = sorted(rules.to_act(session.state))[0]
    return game_id, seat, session.players[seat]


def _records(table, game_id):
    return [{"type": r.type, "schema_version": r.schema_version, "data": r.data, "metadata": r.metadata}
            for r in table.events(game_id)]


def _audited(service, table, game_id):
    rerun = audit.rerun(service.load(game_id)[0], _records(table, game_id), secret_seed=service.seed(game_id))
    assert rerun.ok, "; ".join(rerun.problems)


def _away(service, clock, game_id, player, days=3.0) -> dt.datetime:
    """The absence's end."""
    end = clock() + dt.timedelta(days=days)
    service.absences.declare_absence(player, clock(), end)
    version, _ = deadline_of(service, game_id)
    assert service.absences.mark_absences(game_id, version), "the job set for the absence's start marks the seat away"
    return end


def test_an_absence_over_a_game_s_deadlines_times_nobody_out_abandons_nobody_and_keeps_the_bank(
        timed_service, clock, table):
    service = timed_service
    game_id, seat, player = _game(service, table)
    end = _away(service, clock, game_id, player)
    session = service.load(game_id)[1]
    assert seat in session.life.away
    bank = session.life.clocks.banks[seat]
    assert seat not in session.life.clocks.since, "an away seat's bank does not run"
    for hours in (5, 24, 30):  # many times the bank and the turn: no deadline passes for the seat
        clock.pass_to(clock() + dt.timedelta(hours=hours))
        fire_what_is_due(service, clock, game_id)
    session = service.load(game_id)[1]
    assert table.timeouts(game_id) == [] and session.life.abandoned == ()
    assert session.life.clocks.banks[seat] == bank and seat in session.life.away

    clock.pass_to(end + dt.timedelta(seconds=2))  # past the absence's end
    assert fire_what_is_due(service, clock, game_id) >= 1
    session = service.load(game_id)[1]
    assert seat not in session.life.away and seat in session.life.clocks.since, "its clock runs again"
    assert session.life.clocks.banks[seat] == bank
    clock.pass_to(clock() + dt.timedelta(hours=3))  # now its bank runs out
    fire_what_is_due(service, clock, game_id)
    assert [s for _, s in table.timeouts(game_id)] == [seat]
    assert [r.type for r in table.events(game_id)].count("SeatAway") == 1
    _audited(service, table, game_id)


def test_an_absent_player_who_acts_is_back_and_his_absence_ends(timed_service, clock, table):
    service = timed_service
    game_id, seat, player = _game(service, table)
    _away(service, clock, game_id, player)
    clock.pass_to(clock() + dt.timedelta(hours=10))
    rules, session = service.load(game_id)
    command = playout.random_command(rules, session.state, seat, rng_for(b"back", session.version))
    service.act(game_id, player, command.to_json())
    types = [r.type for r in table.events(game_id)]
    assert "SeatBack" in types and types.index("SeatBack") == session.version  # just before the move
    assert service.load(game_id)[1].life.away == {}
    assert not any(a["current"] for a in service.absences.absences_of(player)["absences"])
    _audited(service, table, game_id)


def test_an_absent_player_whose_command_is_refused_is_still_away(timed_service, clock, table):
    from api.service.errors import ServiceError

    service = timed_service
    game_id, seat, player = _game(service, table)
    _away(service, clock, game_id, player)
    before = len(table.events(game_id))
    with pytest.raises(ServiceError):
        service.act(game_id, player, {"type": "NoSuchCommand"})
    assert len(table.events(game_id)) == before
    assert seat in service.load(game_id)[1].life.away
    assert any(a["current"] for a in service.absences.absences_of(player)["absences"]), "a refused command is no act"


def test_a_game_that_forbids_absences_ignores_them(timed_service, clock, table):
    service = timed_service
    game_id, seat, player = _game(service, table, absences="forbidden")
    service.absences.declare_absence(player, clock(), clock() + dt.timedelta(days=3))
    version, deadline = deadline_of(service, game_id)
    assert not service.absences.mark_absences(game_id, version)
    clock.pass_to(deadline + dt.timedelta(seconds=1))
    assert fire_what_is_due(service, clock, game_id) == 1
    assert [s for _, s in table.timeouts(game_id)] == [seat]


def test_an_absence_beyond_the_year_s_allowance_is_refused(timed_service, clock, table, monkeypatch):
    monkeypatch.setenv("BOARDLOG_ABSENCE_DAYS_PER_YEAR", "10")
    service = timed_service
    player = table.players[0]
    start = dt.datetime(clock().year + 1, 1, 1, tzinfo=dt.timezone.utc)
    service.absences.declare_absence(player, start, start + dt.timedelta(days=7))
    with pytest.raises(AbsenceRefused, match="days left"):
        service.absences.declare_absence(player, start + dt.timedelta(days=10), start + dt.timedelta(days=14))
    assert len(service.absences.absences_of(player)["absences"]) == 1


def test_the_audit_refuses_a_timeout_of_a_seat_that_is_away_and_a_seat_back_that_was_not_away(
        timed_service, clock, table):
    service = timed_service
    game_id, seat, player = _game(service, table)
    _away(service, clock, game_id, player)
    records = _records(table, game_id)
    assert engine_rules.check(records) == []
    version = len(records)
    timeout = {"type": "TurnTimedOut", "data": {"seat": seat, "deadline_version": version},
               "metadata": {"actor": "system", "seat": seat, "command": {"type": "Pass"}, "decided_at": version,
                            "timeout": True}}
    assert any("while it is away" in p for p in engine_rules.check(records + [timeout]))

    def back(at):
        return {"type": "SeatBack", "data": {"seat": seat},
                "metadata": {"actor": "system", "seat": seat, "command": {"type": "ReturnSeat"}, "decided_at": at,
                             "lifecycle": True}}
    assert engine_rules.check(records + [back(version)]) == []
    assert any("was not away" in p for p in engine_rules.check(records + [back(version), back(version + 1)]))
