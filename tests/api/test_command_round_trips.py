"""What a command costs on the wire: the messages the service's connections
exchange with PostgreSQL, read from libpq's own trace. A round trip ends
with the server's ReadyForQuery; a move on a game this process holds at its
known version is one (migration 0117, ``boardlog_command``)."""

from __future__ import annotations

import contextlib
import tempfile
import uuid

import pytest

from tests.api.conftest import started_game
from tests.api.test_command_cycle import _to_act, held  # noqa: F401  (a fixture)


@contextlib.contextmanager
def wire(pool, monkeypatch, texts=False):
    """libpq's trace of every connection taken from ``pool`` meanwhile: the list of its lines.
    ``texts``: no statement is prepared meanwhile, so that each one sent shows its text (psycopg
    prepares one on its fifth use, and a prepared one is sent by name: a long test session meets it)."""
    lines: list[str] = []
    traced = []
    real_getconn = pool.getconn

    def getconn(*args, **kwargs):
        conn = real_getconn(*args, **kwargs)
        if texts:
            monkeypatch.setattr(conn, "prepare_threshold", None)
        out = tempfile.TemporaryFile("w+")
        conn.pgconn.trace(out.fileno())
        conn.pgconn.set_trace_flags(0)
        traced.append((conn, out))
        return conn

    monkeypatch.setattr(pool, "getconn", getconn)
    try:
        yield lines
    finally:
        monkeypatch.setattr(pool, "getconn", real_getconn)
        for conn, out in traced:
            conn.pgconn.untrace()
            out.seek(0)
            lines.extend(out.read().splitlines())
            out.close()


def round_trips(lines: list[str]) -> int:
    return sum(1 for line in lines if "\tB\t" in line and "ReadyForQuery" in line)


def sent(lines: list[str]) -> list[str]:
    return [line for line in lines if "\tF\t" in line and ("Query" in line or "Parse" in line)]


@pytest.mark.parametrize("if_match", [False, True], ids=["without If-Match", "with If-Match"])
@pytest.mark.parametrize("key", [None, "a key"])
def test_a_move_on_a_game_held_at_its_known_version_is_one_round_trip_without_begin_or_commit(
        players, service, held, monkeypatch, key, if_match):  # noqa: F811
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    for _ in range(6):  # the same statement again and again on the same connections: never prepared apart
        acting = _to_act([ada, bob], game_id)
        command = acting.legal(game_id)[0]
        headers = {"Idempotency-Key": f"{key}-{uuid.uuid4().hex}"} if key else {}
        if if_match:  # the version the client saw, checked by the statement itself
            headers["If-Match"] = acting.view(game_id).headers["ETag"]
        with wire(service.pool, monkeypatch) as lines:
            answer = acting.act(game_id, command, headers=headers)
        assert answer.status_code == 200, answer.json
        assert round_trips(lines) == 1, "\n".join(lines)
        assert not [line for line in sent(lines) if "BEGIN" in line or "COMMIT" in line], "\n".join(lines)
        assert [line for line in sent(lines) if "boardlog_command" in line], "\n".join(lines)


def test_a_move_of_a_timed_game_is_a_transaction_that_begins_with_the_command_statement_and_writes_its_reminders(
        players, service, held, monkeypatch):  # noqa: F811
    ada, bob = players(2)
    game_id = started_game([ada, bob], options={"players": 2, "turn_seconds": 3600})
    acting = _to_act([ada, bob], game_id)
    command = acting.legal(game_id)[0]
    with wire(service.pool, monkeypatch, texts=True) as lines:
        answer = acting.act(game_id, command, headers={"Idempotency-Key": uuid.uuid4().hex})
    assert answer.status_code == 200, answer.json
    statements = sent(lines)
    assert "BEGIN" in statements[0] and "boardlog_command" in statements[1], statements
    commit = next(n for n, line in enumerate(statements) if "COMMIT" in line)
    assert [line for line in statements[2:commit] if "seat_deadlines" in line], "the reminders, in the transaction"
    # (After the commit the service looks up when to schedule the game's next reminder.)
    with service.pool.connection() as conn:
        version = conn.execute("select max(version) from seat_deadlines where game_id = %s", (game_id,)).fetchone()[0]
    assert version == answer.json["version"]


def test_a_move_right_after_its_seat_read_the_view_is_one_round_trip_though_the_last_move_was_not_heard_of(
        players, service, held, monkeypatch, database_url):  # noqa: F811
    from api.http.app import create_app
    from api.service.games import GameService
    from eventstore import PostgresEventStore

    ada, bob = players(2)
    game_id = started_game([ada, bob])
    first = _to_act([ada, bob], game_id)
    command = first.legal(game_id)[0]
    # This process hears of no move from now on (a NOTIFY not arrived yet, no sweep since).
    monkeypatch.setattr(service.store.recent, "heard", lambda stream, version: None)
    monkeypatch.setattr(service.store.recent, "swept", lambda moved, epoch: None)
    other_store = PostgresEventStore.connect(database_url, min_size=1, max_size=2)
    try:  # the move, made by another process
        elsewhere = create_app({"RATE_LIMIT_PER_MINUTE": 0}, service=GameService(other_store, seeds=service.seeds))
        moved = elsewhere.test_client().post(f"/v1/games/{game_id}/commands", json=command, headers=first.auth)
    finally:
        other_store.close()
    assert moved.status_code == 200, moved.json
    views = {player: player.view(game_id) for player in (ada, bob)}  # each seat reads its view here
    acting = next(p for p, view in views.items() if view.json["seat"] in moved.json["to_act"])
    assert views[acting].json["version"] == moved.json["version"]
    command = acting.legal(game_id)[0]
    with wire(service.pool, monkeypatch) as lines:
        answer = acting.act(game_id, command, headers={"If-Match": views[acting].headers["ETag"]})
    assert answer.status_code == 200, answer.json
    assert round_trips(lines) == 1, "\n".join(lines)
