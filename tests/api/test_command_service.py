"""The command path itself: conflicts, snapshots, the cache and the read models
(what a snapshot holds and when one is ignored: tests/api/test_snapshots.py)."""

from __future__ import annotations

import datetime as dt
import random
import uuid

import pytest

from api.service.errors import PreconditionFailed
from api.service.games import Decision, GameService, stream_of
from api.service.history import snapshot_version
from domain import session as sessions
from domain.playout import random_command
from tests.support.seeds import TEST_SEEDS


def _new_game(service, options=None):
    ada, _ = service.players.register("svc-a")
    bob, _ = service.players.register("svc-b")
    game_id = service.create(ada, "cronberg", {"players": 2, **(options or {})}, None)
    service.join(game_id, bob, None)
    service.start(game_id, ada)
    return game_id, {"p1": ada, "p2": bob}


def _play_one(service, game_id, players, rng):
    rules, session = service.load(game_id)
    seat = sorted(sessions.to_act(rules, session))[0]
    command = random_command(rules, session.state, seat, rng)
    service.act(game_id, players[seat], command.to_json())


def test_a_conflict_is_decided_again_once_on_the_fresh_state(service):
    game_id, players = _new_game(service)
    rng = random.Random(1)
    calls = []

    def decide(rules, session):
        calls.append(session.version)
        if len(calls) == 1:
            _play_one(service, game_id, players, rng)  # another request wins the race
        return Decision(*_legal_events(rules, session))

    after, _ = service.execute(game_id, decide)
    assert len(calls) == 2 and calls[1] > calls[0]
    assert after.version == service.store.stream_version(stream_of(game_id))


def _legal_events(rules, session):
    seat = sorted(sessions.to_act(rules, session))[0]
    command = rules.legal_commands(session.state, seat)[0]
    events = sessions.play(rules, session, seat, command, random.Random(0), b"seed")
    return events, [{"actor": "test", "seat": seat, "command": command.to_json(), "decided_at": session.version}] * len(events)


def test_a_conflict_under_if_match_is_a_precondition_failure_not_a_retry(service):
    game_id, players = _new_game(service)
    rng = random.Random(2)
    _, session = service.load(game_id)
    calls = []

    def decide(rules, current):
        calls.append(current.version)
        _play_one(service, game_id, players, rng)
        return Decision(*_legal_events(rules, current))

    with pytest.raises(PreconditionFailed):
        service.execute(game_id, decide, if_match=session.version)
    assert len(calls) == 1


def test_a_fresh_process_loads_from_the_snapshot_and_the_tail(event_store):
    writer = GameService(event_store, snapshot_every=10, seeds=TEST_SEEDS)
    game_id, players = _new_game(writer)
    rng = random.Random(3)
    for _ in range(15):
        _play_one(writer, game_id, players, rng)
    _, expected = writer.load(game_id)
    rules = writer.rules_of("cronberg")
    snapshot = event_store.load_snapshot(stream_of(game_id), snapshot_version(rules))
    assert snapshot is not None and 10 <= snapshot.version < expected.version

    reader = GameService(event_store, snapshot_every=10, seeds=TEST_SEEDS)
    _, loaded = reader.load(game_id)
    assert loaded == expected


def test_the_read_models_change_in_the_same_transaction_as_the_events(service):
    game_id, players = _new_game(service)
    _play_one(service, game_id, players, random.Random(5))
    _, session = service.load(game_id)
    with service.pool.connection() as conn:
        version, status = conn.execute("select version, status from games where id = %s", (game_id,)).fetchone()
    assert (version, status) == (session.version, "active")
    assert version == service.store.stream_version(stream_of(game_id))


def test_a_turn_deadline_is_set_when_the_game_moves(service):
    game_id, players = _new_game(service, {"turn_seconds": 3600})
    with service.pool.connection() as conn:
        deadline, to_act = conn.execute("select deadline, to_act from games where id = %s", (game_id,)).fetchone()
    assert to_act and deadline is not None
    in_an_hour = dt.datetime.now(dt.timezone.utc) + dt.timedelta(hours=1)
    assert abs((deadline - in_an_hour).total_seconds()) < 60


def test_a_game_without_turn_seconds_has_no_deadline(service):
    game_id, _ = _new_game(service)
    with service.pool.connection() as conn:
        assert conn.execute("select deadline from games where id = %s", (game_id,)).fetchone()[0] is None


def test_an_unknown_game_id_is_not_found(service):
    from api.service.errors import NotFound

    with pytest.raises(NotFound):
        service.load(uuid.uuid4())


def test_a_command_on_a_game_this_process_holds_at_its_known_version_reads_no_events(service, monkeypatch):
    game_id, players = _new_game(service)
    rng = random.Random(2)
    _play_one(service, game_id, players, rng)  # the process now holds the game, and knows its version
    reads = []
    real_read = service.store.read_stream
    monkeypatch.setattr(service.store, "read_stream", lambda *a, **k: reads.append(a) or real_read(*a, **k))
    rules, session = service.cached(game_id)
    seat = sorted(sessions.to_act(rules, session))[0]
    service.act(game_id, players[seat], random_command(rules, session.state, seat, rng).to_json())
    assert reads == [], "the decision was taken on the session held, its append guarding the version"
    assert service.store.stream_version(stream_of(game_id)) > session.version



def test_a_command_refused_on_the_state_this_process_holds_is_judged_again_on_what_another_process_stored(
    service, event_store, monkeypatch
):
    # Another API process seats the guest; this one has not yet heard of it
    # (its known version is the one it holds, as until the NOTIFY arrives),
    # so the host's start is decided on a lobby with an empty seat.
    ada, _ = service.players.register("svc-host")
    bob, _ = service.players.register("svc-guest")
    game_id = service.create(ada, "cronberg", {"players": 2}, None)
    _, held = service.cached(game_id)
    GameService(event_store).join(game_id, bob, None)  # a process of its own: its own cache
    stream = stream_of(game_id)
    real_known = service.store.known_version
    monkeypatch.setattr(service.store, "known_version", lambda s: held.version if s == stream else real_known(s))
    session = service.start(game_id, ada)
    assert session.status == sessions.ACTIVE, "the start was refused on a lobby another process had filled"
