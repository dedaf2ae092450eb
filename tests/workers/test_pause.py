"""A game paused by the agreement of all of its players: no deadline, no
bank, no move, until any of them resumes it; recorded in the game's log
and re-run by the audit."""

from __future__ import annotations

import datetime as dt

import pytest

from api.service.errors import WrongStatus
from domain import engine_rules, playout
from domain.engine import rng_for
from tests.workers.test_absences import _audited, _game, _records, clock, timed_service  # noqa: F401 (fixtures)
from tests.workers.test_missed_turns import HOUR, deadline_of, fire_what_is_due


def test_a_game_pauses_when_every_player_asked_and_nothing_runs_until_one_resumes(timed_service, clock, table):
    service = timed_service
    game_id, seat, player = _game(service, table)
    host, guest = table.players
    assert not service.pauses.ask_pause(game_id, host).life.paused, "one ask of two pauses nothing"
    with pytest.raises(WrongStatus):
        service.pauses.ask_pause(game_id, host)
    session = service.pauses.ask_pause(game_id, guest)
    assert session.life.paused and deadline_of(service, game_id)[1] is None
    bank = session.life.clocks.banks[seat]
    clock.pass_to(clock() + dt.timedelta(hours=30))
    assert fire_what_is_due(service, clock, game_id) == 0
    assert service.fire_deadline(game_id, session.version) is False, "a deadline job that fires anyway changes nothing"
    rules, session = service.load(game_id)
    command = playout.random_command(rules, session.state, seat, rng_for(b"paused", session.version))
    with pytest.raises(WrongStatus, match="paused"):
        service.act(game_id, player, command.to_json())
    assert session.life.clocks.banks[seat] == bank

    session = service.pauses.resume(game_id, guest)
    assert not session.life.paused and session.life.pause_asked == frozenset()
    assert session.life.clocks.banks[seat] == bank and seat in session.life.clocks.since
    _, deadline = deadline_of(service, game_id)
    assert deadline >= clock() + dt.timedelta(seconds=HOUR - 60), "its turn runs afresh from the resumption"
    clock.pass_to(deadline + dt.timedelta(seconds=1))
    assert fire_what_is_due(service, clock, game_id) == 1
    assert [s for _, s in table.timeouts(game_id)] == [seat]
    _audited(service, table, game_id)


def test_the_audit_refuses_a_move_while_paused_and_a_pause_that_not_everyone_asked_for(timed_service, clock, table):
    service = timed_service
    game_id, seat, player = _game(service, table)
    host, guest = table.players
    service.pauses.ask_pause(game_id, host)
    records = _records(table, game_id)
    version = len(records)
    other = "p2" if service.load(game_id)[1].seat_of(host) == "p1" else "p1"
    early = {"type": "GamePaused", "data": {}, "metadata": dict(records[-1]["metadata"])}
    assert any("GamePaused" in p for p in engine_rules.check(records[:-1] + [records[-1], early]))
    service.pauses.ask_pause(game_id, guest)
    records = _records(table, game_id)
    version = len(records)
    move = {"type": "SomeMove", "data": {}, "metadata": {"actor": player, "seat": seat,
                                                         "command": {"type": "Anything"}, "decided_at": version}}
    assert any("while the game is paused" in p for p in engine_rules.check(records + [move]))
    assert other in ("p1", "p2")
