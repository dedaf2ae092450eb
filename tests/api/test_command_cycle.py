"""What a command cycle (GET the legal commands, POST one) asks of
PostgreSQL when the process holds the game at the version it knows the game
to be at: nothing for the legal commands, one transaction for the command.
The version known is trusted while the LISTEN connection's sweeps keep
coming (eventstore/versions.py); here the last sweep stays fresh for the
whole test, so that what is counted does not hang on the machine's pace."""

from __future__ import annotations

import uuid

import pytest

from api.service.games import GameService, stream_of
from api.service.views import legal_commands
from domain.session import to_act as session_to_act
from tests.api.conftest import started_game
from tests.support.postgres_work import postgres_work
from tests.support.seeds import TEST_SEEDS


@pytest.fixture
def held(service, monkeypatch):
    """This process listens and its last sweep stays fresh, versions it heard of stay known, tokens stay
    remembered, the signing key stays loaded."""
    with service.store.watch(["held"]):  # returns once the LISTEN connection is in place and has swept
        pass
    monkeypatch.setattr(service.store.recent, "sweep_trust", 3600.0)
    monkeypatch.setattr(service.store.recent, "max_age", 3600.0)
    monkeypatch.setattr(service.players, "cache_seconds", 3600.0)
    monkeypatch.setattr(service.signer, "refresh_seconds", 3600.0)


def _to_act(players, game_id):
    to_act = players[0].view(game_id).json["to_act"]
    return next(p for p in players if p.view(game_id).json["seat"] in to_act)


def test_the_legal_commands_of_a_game_held_at_its_known_version_read_nothing_from_postgresql(
        players, service, held, monkeypatch):
    ada, bob = players(2)
    game_id = started_game([ada, bob])  # this process stored the start: it holds the game and knows its version
    acting = _to_act([ada, bob], game_id)
    acting.legal(game_id)  # the token is remembered
    with postgres_work(service.pool, monkeypatch) as work:
        commands = acting.legal(game_id)
    assert commands
    assert work.checkouts == 0, work.statements


def test_the_legal_commands_of_a_game_held_at_its_known_version_are_read_while_the_sweeps_of_the_feed_stop(
        players, service, held, monkeypatch):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    acting = _to_act([ada, bob], game_id)
    acting.legal(game_id)
    monkeypatch.setattr(service.store.recent, "sweep_trust", 0.0)  # the last sweep is too old now
    with postgres_work(service.pool, monkeypatch) as work:
        assert acting.legal(game_id)
    assert work.checkouts == 1, "a version heard a while ago is no proof for a read once sweeps stop"


def test_the_legal_commands_of_a_game_another_process_moved_follow_the_move_once_this_process_hears_of_it(
        players, service, event_store, held):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    acting = _to_act([ada, bob], game_id)
    held_version = acting.get(f"/v1/games/{game_id}/legal-commands").json["version"]
    other_process = GameService(event_store, seeds=TEST_SEEDS)  # a cache of its own
    other_process.act(uuid.UUID(game_id), acting.id, acting.legal(game_id)[0])
    stream = stream_of(game_id)
    # The stores are one object here: this process heard of the move, as its LISTEN connection would.
    assert service.store.known_version(stream) > held_version
    answer = acting.get(f"/v1/games/{game_id}/legal-commands").json
    assert answer["version"] == service.store.stream_version(stream) > held_version


def test_a_command_on_a_game_held_at_its_known_version_is_one_transaction_that_reads_no_events(
        players, service, held, monkeypatch):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    acting = _to_act([ada, bob], game_id)
    command = acting.legal(game_id)[0]
    with postgres_work(service.pool, monkeypatch) as work:
        answer = acting.act(game_id, command, headers={"Idempotency-Key": uuid.uuid4().hex})
    assert answer.status_code == 200, answer.json
    assert answer.json["receipt"] is not None
    assert (work.checkouts, work.transactions) == (1, 1), work.statements
    assert not [s for s in work.statements if " from events " in s], "the decision was taken on the session held"


def test_the_player_another_process_s_move_made_to_act_gets_their_commands_before_this_process_hears_of_it(
        players, service, event_store, held, monkeypatch):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    first = _to_act([ada, bob], game_id)
    held_version = first.get(f"/v1/games/{game_id}/legal-commands").json["version"]
    stream = stream_of(game_id)
    # This process has not heard of what comes next yet: it still knows the game at the version it holds.
    monkeypatch.setattr(service.store, "swept_version", lambda name: held_version if name == stream else None)
    other_process = GameService(event_store, seeds=TEST_SEEDS)
    while True:  # the other process plays until its moves make it the other player's turn
        rules, session = other_process.load(uuid.UUID(game_id))
        seat = session.seat_seen_by(first.id)
        if seat not in session_to_act(rules, session):
            break
        other_process.act(uuid.UUID(game_id), first.id, legal_commands(rules, session, seat)[0])
    second = next(p for p in (ada, bob) if p is not first)
    answer = second.get(f"/v1/games/{game_id}/legal-commands").json
    assert answer["commands"], "the player now to act is told what he may do, not nothing"
    assert answer["version"] > held_version


def test_a_score_asked_of_a_process_that_has_not_heard_the_game_end_is_made(
        players, service, event_store, held, monkeypatch):
    """The worker scores a game right after the API's process ended it, and
    before the end's NOTIFY reaches the worker (it once answered "already
    scored" from the session it held, and the game stayed in scoring)."""
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    _, held_session = service.load(uuid.UUID(game_id))
    stream = stream_of(game_id)
    monkeypatch.setattr(service.store, "known_version",
                        lambda name: held_session.version if name == stream else None)
    other_process = GameService(event_store, seeds=TEST_SEEDS)
    ended = other_process.seat_life.resign(uuid.UUID(game_id), ada.id)
    assert ended.status == "scoring"
    assert service.score(uuid.UUID(game_id)), "the score was made"
    assert ada.view(game_id).json["status"] == "finished"
