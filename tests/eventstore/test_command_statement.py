"""``append_command``: a game's command in one statement (migration 0117,
``boardlog_command``), all or nothing, with the serialization of ``append``."""

from __future__ import annotations

import dataclasses
import datetime as dt
import threading
import uuid

import psycopg
import pytest

from eventstore import CommandRows, WrongExpectedVersion
from tests.eventstore.conftest import events


@pytest.fixture
def game(event_store):
    """A player (with an absence running now) and a game of his at version 0: (player, game id, stream)."""
    player, game_id = uuid.uuid4(), uuid.uuid4()
    now = dt.datetime.now(dt.timezone.utc)
    with event_store.pool.connection() as conn:
        conn.execute("insert into players (id, name, token_sha256) values (%s, 'ada', %s)", (player, player.bytes))
        conn.execute("insert into games (id, game, status, host, options, version) values (%s, 'cronberg', 'lobby',"
                     " %s, '{}', 0)", (game_id, player))
        conn.execute("insert into absences (id, player_id, starts_at, ends_at) values (%s, %s, %s, %s)",
                     (uuid.uuid4(), player, now - dt.timedelta(hours=1), now + dt.timedelta(days=1)))
    return player, game_id, f"game-{game_id}"


def _rows(player, game_id, key: str | None = None, status: str = "active") -> CommandRows:
    record = None if key is None else {
        "player": str(player), "game": str(game_id), "unscoped": "00000000-0000-0000-0000-000000000000",
        "key": key, "sha256": "ab" * 32, "status": 200, "response": {"version": 1}}
    return CommandRows(game_id, status, player, ["p1"], None, None,
                       seats=[{"op": "take", "seat": "p1", "player": str(player)}],
                       back_player=player, now=dt.datetime.now(dt.timezone.utc), key=record)


def _state(event_store, player, game_id, stream):
    with event_store.pool.connection() as conn:
        return {
            "version": event_store.stream_version(stream),
            "game": conn.execute("select status, version, to_act from games where id = %s", (game_id,)).fetchone(),
            "seats": conn.execute("select count(*) from game_seats where game_id = %s", (game_id,)).fetchone()[0],
            "away": conn.execute("select count(*) from absences where player_id = %s and ends_at > now()",
                                 (player,)).fetchone()[0],
            "keys": conn.execute("select count(*) from idempotency_keys where player_id = %s", (player,)).fetchone()[0],
        }


def test_a_command_says_when_its_events_were_recorded_as_a_read_gives_it_back(event_store, game):
    player, game_id, stream = game
    appended = event_store.append_command(stream, events("A", "B"), 0, _rows(player, game_id, "k1"))
    assert [record.recorded_at for record in event_store.read_stream(stream)] == [appended.recorded_at] * 2


def test_a_command_writes_its_events_and_every_row_in_one_statement(event_store, game):
    player, game_id, stream = game
    version, ended, _ = event_store.append_command(stream, events("A", "B"), 0, _rows(player, game_id, "k1"))
    assert (version, ended) == (2, 1)
    assert _state(event_store, player, game_id, stream) == {
        "version": 2, "game": ("active", 2, ["p1"]), "seats": 1, "away": 0, "keys": 1}


def test_a_command_at_a_stale_version_is_refused_and_changes_nothing(event_store, game):
    player, game_id, stream = game
    event_store.append(stream, events("A"), 0)
    before = _state(event_store, player, game_id, stream)
    with pytest.raises(WrongExpectedVersion):
        event_store.append_command(stream, events("B"), 0, _rows(player, game_id, "k1"))
    assert _state(event_store, player, game_id, stream) == before


def test_a_command_whose_key_is_taken_stores_none_of_its_events(event_store, game):
    player, game_id, stream = game
    event_store.append_command(stream, events("A"), 0, _rows(player, game_id, "k1"))
    before = _state(event_store, player, game_id, stream)
    with pytest.raises(psycopg.errors.UniqueViolation):
        event_store.append_command(stream, events("B"), 1, _rows(player, game_id, "k1", status="ended"))
    assert _state(event_store, player, game_id, stream) == before


def test_racing_commands_at_one_version_are_serialized_one_is_stored_the_other_refused(event_store, game):
    player, game_id, stream = game
    event_store.append(stream, events("A"), 0)
    outcomes: list = []
    start = threading.Barrier(8)

    def send(n):
        start.wait()
        try:
            outcomes.append(event_store.append_command(stream, events(f"B{n}"), 1, _rows(player, game_id, f"k{n}"))[0])
        except WrongExpectedVersion:
            outcomes.append("refused")

    threads = [threading.Thread(target=send, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(outcomes, key=str) == [2] + ["refused"] * 7
    state = _state(event_store, player, game_id, stream)
    assert (state["version"], state["game"][1], state["keys"]) == (2, 2, 1)


def test_a_command_inside_the_callers_transaction_commits_with_it_or_not_at_all(event_store, game, database_url):
    player, game_id, stream = game
    before = _state(event_store, player, game_id, stream)
    with psycopg.connect(database_url) as conn:
        event_store.append_command(stream, events("A"), 0, _rows(player, game_id, "k1"), conn=conn,
                                   announce_later=True)
        assert _state(event_store, player, game_id, stream) == before
        conn.rollback()
    assert _state(event_store, player, game_id, stream) == before


@pytest.mark.parametrize("in_statement", [False, True], ids=["by the notifier", "by the statement"])
def test_waiters_hear_of_a_command_once_it_committed(event_store, game, monkeypatch, in_statement):
    player, game_id, stream = game
    monkeypatch.setattr(event_store, "notify_in_statement", in_statement)
    event_store.append_command(stream, events("A"), 0, _rows(player, game_id))
    heard = []
    waiter = threading.Thread(target=lambda: heard.append(event_store.wait_for_version(stream, 1, timeout=30)))
    waiter.start()
    event_store.append_command(stream, events("B"), 1, dataclasses.replace(_rows(player, game_id), seats=None))
    waiter.join(60)
    assert heard == [2]
