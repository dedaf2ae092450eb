"""Snapshots on a real PostgreSQL: written as JSON that names classes by
their game and plain name, read back as the very session for every game;
what cannot be read back exactly (an old pickle, another state shape) is
ignored, the game replayed, and a snapshot written anew."""

from __future__ import annotations

import dataclasses
import json
import pickle
import random
import uuid

import pytest

from api.service.games import GameService, stream_of
from api.service.history import snapshot_version
from domain import games as registry
from domain import session as sessions
from domain import snapshots
from domain.engine import resolve_options
from domain.games.cronberg import RULES as CRONBERG
from tests.support.seeds import TEST_SEEDS


def _played_game(service, game: str, moves: int, rng: random.Random):
    """A game of ``game`` with its default options, every seat taken, and
    ``moves`` random legal commands sent through the service."""
    rules = registry.get(game)
    seats = rules.seats(resolve_options(rules.options, None))
    tag = uuid.uuid4().hex[:6]
    players = [service.players.register(f"snap-{tag}-{n}")[0] for n in range(len(seats))]
    game_id = service.create(players[0], game, None, None)
    for player in players[1:]:
        service.join(game_id, player, None)
    service.start(game_id, players[0])
    for _ in range(moves):
        rules, session = service.load(game_id)
        if session.status != sessions.ACTIVE:
            break
        seat = sorted(sessions.to_act(rules, session))[0]
        command = rng.choice(rules.legal_commands(session.state, seat))
        service.act(game_id, session.players[seat], command.to_json())
    return game_id


@pytest.mark.parametrize("game", sorted(registry.REGISTRY))
def test_a_snapshot_of_every_game_reads_back_as_the_session_it_was_written_from(event_store, game):
    writer = GameService(event_store, snapshot_every=4, seeds=TEST_SEEDS)
    game_id = _played_game(writer, game, 12, random.Random(game))
    rules, expected = writer.load(game_id)
    assert expected.recent, "no game event was played"
    assert snapshots.loads(snapshots.dumps(expected, rules), rules) == expected

    stored = event_store.load_snapshot(stream_of(game_id), snapshot_version(rules))
    assert stored is not None and 4 <= stored.version <= expected.version
    assert b"domain." not in stored.state  # no module path in it
    assert json.loads(stored.state)["session"]["class"] == "engine:Session"
    _, loaded = GameService(event_store, seeds=TEST_SEEDS).load(game_id)  # a fresh process: snapshot and tail
    assert loaded == expected


def _cronberg_with_a_tampered_snapshot(event_store, data_of):
    """A game of Cronberg whose stored snapshot at its last version is
    ``data_of(a session unlike the game's)``: a load that trusted it would
    give that session instead of the game's."""
    writer = GameService(event_store, snapshot_every=5, seeds=TEST_SEEDS)
    game_id = _played_game(writer, "cronberg", 8, random.Random(4))
    rules, expected = writer.load(game_id)
    tampered = dataclasses.replace(expected, outcome="tampered")
    event_store.save_snapshot(stream_of(game_id), expected.version, snapshot_version(rules), data_of(tampered, rules))
    return game_id, expected, tampered


def test_a_snapshot_of_the_same_shape_is_used(event_store):
    """What the tests below rely on: a tampered snapshot of the current shape is taken as it is."""
    game_id, _, tampered = _cronberg_with_a_tampered_snapshot(event_store, snapshots.dumps)
    assert GameService(event_store, seeds=TEST_SEEDS).load(game_id)[1] == tampered


def test_an_old_pickled_snapshot_is_ignored_the_game_replayed_and_a_new_snapshot_written(event_store):
    game_id, expected, _ = _cronberg_with_a_tampered_snapshot(event_store, lambda session, rules: pickle.dumps(session))
    _, loaded = GameService(event_store, snapshot_every=5, seeds=TEST_SEEDS).load(game_id)
    assert loaded == expected
    rewritten = event_store.load_snapshot(stream_of(game_id), snapshot_version(CRONBERG))
    assert rewritten.version == expected.version
    assert snapshots.loads(rewritten.state, CRONBERG) == expected


def test_a_snapshot_that_is_not_a_snapshot_at_all_is_ignored(event_store):
    game_id, expected, _ = _cronberg_with_a_tampered_snapshot(event_store, lambda session, rules: b"not a snapshot")
    assert GameService(event_store, seeds=TEST_SEEDS).load(game_id)[1] == expected


def test_a_snapshot_of_a_state_shape_the_game_since_changed_is_not_used(event_store, monkeypatch):
    game_id, expected, _ = _cronberg_with_a_tampered_snapshot(event_store, snapshots.dumps)
    reshaped = dataclasses.replace(CRONBERG, state_version=CRONBERG.state_version + 1)
    monkeypatch.setitem(registry.REGISTRY, "cronberg", reshaped)
    monkeypatch.setitem(registry.VERSIONS, "cronberg", {v: reshaped.at(v) for v in sorted(reshaped.versions)})
    assert GameService(event_store, seeds=TEST_SEEDS).load(game_id)[1] == expected
