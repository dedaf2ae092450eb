"""Time banks and per-seat deadlines through the command path: the figures
a view shows and the deadline a game keeps."""

from __future__ import annotations

import random
import uuid

from tests.api.conftest import started_game
from tests.api.test_lifecycle import act_until, summary

DAY = 86400


def _simultaneous(players, options):
    ada, bob, cy = players
    game_id = started_game([ada, bob, cy], "the-coil", {"players": 3, "turn_seconds": DAY, **options})
    by_seat = {"p1": ada, "p2": bob, "p3": cy}
    act_until(by_seat, game_id, lambda view: len(view["to_act"]) == 3, random.Random(8))
    return game_id, by_seat


def test_a_seat_s_deadline_stays_when_another_seat_acts_in_a_simultaneous_phase(players):
    game_id, by_seat = _simultaneous(players(3), {})  # deadline_per_seat is on unless asked off
    assert by_seat["p1"].get(f"/v1/games/{game_id}").json["options"]["deadline_per_seat"] is True
    before = summary(by_seat["p1"], game_id)["deadline"]
    clocks = by_seat["p1"].view(game_id).json["clocks"]
    since = {seat: c["to_act_since"] for seat, c in clocks["seats"].items() if c["running"]}
    player = by_seat["p2"]
    assert player.act(game_id, player.legal(game_id)[0]).status_code == 200

    after = by_seat["p1"].view(game_id).json
    assert "p2" not in after["to_act"] and {"p1", "p3"} <= set(after["to_act"])
    assert {seat: after["clocks"]["seats"][seat]["to_act_since"] for seat in ("p1", "p3")} == \
        {seat: since[seat] for seat in ("p1", "p3")}
    assert summary(by_seat["p1"], game_id)["deadline"] == before


def test_a_game_created_with_the_option_off_gives_the_seats_a_fresh_deadline_at_each_commit(players):
    game_id, by_seat = _simultaneous(players(3), {"deadline_per_seat": False})
    before = summary(by_seat["p1"], game_id)["deadline"]
    player = by_seat["p2"]
    assert player.act(game_id, player.legal(game_id)[0]).status_code == 200
    assert summary(by_seat["p1"], game_id)["deadline"] > before
    assert by_seat["p1"].view(game_id).json["clocks"] is None


def test_a_time_bank_is_shown_in_views_and_gains_the_increment_for_a_turn(players):
    ada, bob = players(2)
    game_id = started_game([ada, bob], "cronberg",
                           {"players": 2, "time_bank_seconds": DAY, "time_increment_seconds": DAY,
                            "time_cap_seconds": 2 * DAY})
    view = ada.view(game_id).json
    banks = {seat: c["bank_seconds"] for seat, c in view["clocks"]["seats"].items()}
    assert banks == {"p1": DAY, "p2": DAY}
    first = view["to_act"][0]
    assert view["clocks"]["seats"][first]["running"] and summary(ada, game_id)["deadline"] is not None
    mover = {"p1": ada, "p2": bob}[first]
    for _ in range(2):  # a Cronberg turn: draw a building, then lay it
        assert mover.act(game_id, mover.legal(game_id)[0]).status_code == 200
    assert ada.view(game_id).json["to_act"] != [first]
    bank = ada.view(game_id).json["clocks"]["seats"][first]["bank_seconds"]
    assert DAY < bank <= 2 * DAY  # a day less the seconds the turn took, plus a day


def test_a_time_bank_earns_its_increment_once_per_turn_however_many_commands_the_turn_has(players):
    """Fischer's rule: a Runebound turn of several commands (moves, then its
    end) earns one increment, when the seat stops being to act."""
    ada, bob = players(2)
    game_id = started_game([ada, bob], "runebound",
                           {"players": 2, "time_bank_seconds": DAY, "time_increment_seconds": DAY,
                            "time_cap_seconds": 10 * DAY})
    by_seat = {"p1": ada, "p2": bob}
    for _ in range(2):  # each seat's first turn is its choice of hero
        seat = ada.view(game_id).json["to_act"][0]
        assert by_seat[seat].act(game_id, by_seat[seat].legal(game_id)[0]).status_code == 200
    seat = ada.view(game_id).json["to_act"][0]
    mover = by_seat[seat]
    start = ada.view(game_id).json["clocks"]["seats"][seat]["bank_seconds"]
    commands, banks = 0, []
    while ada.view(game_id).json["to_act"] == [seat] and commands < 30:
        legal = mover.legal(game_id)  # anything but the end of the turn, for as long as there is
        assert mover.act(game_id, next((c for c in legal if c["type"] != "EndTurn"), legal[0])).status_code == 200
        commands += 1
        banks.append(ada.view(game_id).json["clocks"]["seats"][seat]["bank_seconds"])
    assert commands >= 2, "the turn had several commands"
    assert all(bank <= start for bank in banks[:-1]), "no increment while the turn goes on"
    assert start < banks[-1] <= start + DAY, "one increment for the turn (less the seconds it took)"


def test_a_deadline_job_before_a_seat_s_own_deadline_times_nobody_out(players, service):
    game_id, by_seat = _simultaneous(players(3), {})
    gid = uuid.UUID(game_id)
    version = service.load(gid)[1].version
    assert not service.fire_deadline(gid, version)
    assert service.load(gid)[1].version == version


def test_when_a_seat_s_bank_is_empty_its_deadline_job_times_out_that_seat_only(players, service):
    """The deadline job's choice of seats, on a game whose clocks were
    computed two hours ago: p2's one-hour bank is spent, p1's and p3's
    day-long banks are not (the job itself runs this very method)."""
    import dataclasses
    import datetime as dt

    game_id, by_seat = _simultaneous(players(3), {"time_bank_seconds": DAY})
    rules, session = service.load(uuid.UUID(game_id))
    clocks = session.life.clocks
    earlier = (dt.datetime.now(dt.timezone.utc) - dt.timedelta(hours=2)).isoformat()
    spent = dataclasses.replace(clocks, at=earlier, banks={**clocks.banks, "p2": 3600.0},
                                since={seat: earlier for seat in clocks.since})
    past = dataclasses.replace(session, life=dataclasses.replace(session.life, clocks=spent))
    assert service.clocks.timed_out_seats(rules, past) == ["p2"]
    assert service.clocks.timed_out_seats(rules, session) == []
