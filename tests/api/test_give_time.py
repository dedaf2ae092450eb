"""Giving another seat time: its deadline and bank move by the gift,
recorded as TimeGiven and shown to every player; giving to oneself or beyond
the day a seat may give in a game is refused with a sentence, and nothing is
stored. Through the API on PostgreSQL."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from domain import audit

from .conftest import started_game

HOUR = 3600
CLOCKED = {"players": 2, "turn_seconds": 2 * 24 * HOUR, "time_bank_seconds": 4 * 24 * HOUR}


def _seats(service, game_id, players) -> tuple:
    """(the player to act, the other) for the game's first seat to act."""
    rules, session = service.load(uuid.UUID(game_id))
    seat = sorted(rules.to_act(session.state))[0]
    mover = next(p for p in players if p.id == session.players[seat])
    return seat, mover, next(p for p in players if p is not mover)


def _deadline(service, game_id, seat) -> dt.datetime:
    with service.pool.connection() as conn:
        return conn.execute("select deadline from seat_deadlines where game_id = %s and seat = %s",
                            (game_id, seat)).fetchone()[0]


def test_a_player_gives_the_seat_to_act_time_and_its_deadline_and_bank_move_by_it_for_all_to_see(players, service):
    ada, bob = players(2)
    game_id = started_game([ada, bob], options=CLOCKED)
    seat, mover, giver = _seats(service, game_id, [ada, bob])
    before = _deadline(service, game_id, seat)
    bank = service.load(uuid.UUID(game_id))[1].life.clocks.banks[seat]

    given = giver.post(f"/v1/games/{game_id}/time-gifts", json={"seat": seat, "seconds": 3 * HOUR})
    assert given.status_code == 200, given.json
    giver_seat = next(s for s in given.json["given"])
    assert given.json["given"] == {giver_seat: 3 * HOUR}

    after = _deadline(service, game_id, seat)
    assert 3 * HOUR - 5 < (after - before).total_seconds() <= 3 * HOUR, "the deadline moved by the gift"
    assert service.load(uuid.UUID(game_id))[1].life.clocks.banks[seat] >= bank + 3 * HOUR - 5
    for who in (ada, bob, mover):  # shown to all
        shown = [e for e in who.get(f"/v1/games/{game_id}/events").json["events"] if e["type"] == "TimeGiven"]
        assert [e["data"] for e in shown] == [{"type": "TimeGiven", "seat": giver_seat, "player": giver.id, "to_seat": seat,
                                               "seconds": 3 * HOUR}]
    records = [{"type": r.type, "schema_version": r.schema_version, "data": r.data, "metadata": r.metadata}
               for r in service.store.read_stream(f"game-{game_id}")]
    rerun = audit.rerun(service.load(uuid.UUID(game_id))[0], records, secret_seed=service.seed(uuid.UUID(game_id)))
    assert rerun.ok, "; ".join(rerun.problems)


@pytest.mark.parametrize("to, seconds, status, says", [
    ("own", HOUR, 403, "you cannot give time to yourself"),
    ("other", 24 * HOUR + 1, 422, "give from 60 to 86400 seconds"),
    ("other", 30, 422, "give from 60 to 86400 seconds"),
    ("nobody", HOUR, 403, "is not a seat of this game"),
])
def test_giving_time_to_oneself_or_beyond_the_bound_is_refused_with_a_sentence_and_nothing_stored(
        players, service, to, seconds, status, says):
    ada, bob = players(2)
    game_id = started_game([ada, bob], options=CLOCKED)
    seat, mover, giver = _seats(service, game_id, [ada, bob])
    version = service.load(uuid.UUID(game_id))[1].version
    target = {"own": None, "other": seat, "nobody": "nobody"}[to]
    who = mover if to == "own" else giver
    refused = who.post(f"/v1/games/{game_id}/time-gifts", json={"seat": target or seat, "seconds": seconds})
    assert refused.status_code == status and refused.mimetype == "application/problem+json", refused.json
    assert says in refused.json["detail"]
    assert service.load(uuid.UUID(game_id))[1].version == version, "nothing stored"


def test_a_seat_gives_at_most_a_day_in_a_game_all_gifts_together(players, service):
    ada, bob = players(2)
    game_id = started_game([ada, bob], options=CLOCKED)
    seat, _, giver = _seats(service, game_id, [ada, bob])
    for _ in range(2):
        assert giver.post(f"/v1/games/{game_id}/time-gifts", json={"seat": seat, "seconds": 12 * HOUR}).status_code == 200
    refused = giver.post(f"/v1/games/{game_id}/time-gifts", json={"seat": seat, "seconds": 60})
    assert refused.status_code == 403
    assert "a seat may give at most 24 h in a game" in refused.json["detail"] and "0 s left" in refused.json["detail"]
