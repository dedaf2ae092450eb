"""What one move costs a process's streams (issue 37, "less per move"),
counted by what SharedWork did, never timed: the bytes every spectator is
sent composed once, and a move the process made itself shown without
reading its events back."""

from __future__ import annotations

import datetime as dt
import uuid

import psycopg
from psycopg.types.json import Jsonb

from api.http.app import create_app
from api.service.appended import AppendedHere, as_read_back
from api.service.games import GameService
from eventstore import NewEvent
from tests.support.seeds import TEST_SEEDS
from tests.support.sse import parse

from .conftest import started_game
from .test_streams import feed, play


def a_process_and_a_game(service, players):
    """An app of its own on ``service`` (a process with its own SharedWork), and a started game of two."""
    app = create_app({"RATE_LIMIT_PER_MINUTE": 0, "STREAMS": {"lifetime": 60}}, service=service)
    ada, bob = players(2)
    return app, app.extensions["boardlog"].streams.shared, ada, bob, started_game([ada, bob])


def open_streams(client, game_id, headers_of):
    opened = [client.get(f"/v1/games/{game_id}/stream", headers=headers, buffered=False) for headers in headers_of]
    chunks = [iter(response.response) for response in opened]
    for each in chunks:
        next(each), next(each)  # the retry hint and the view now: every stream is open and waiting
    return opened, chunks


def read_to(chunks, opened, version: int) -> list[bytes]:
    """What each stream sent until the view at ``version``; the streams closed."""
    marker = f"id: {version}\nevent: view".encode()
    sent = []
    for each, response in zip(chunks, opened):
        data = b""
        while marker not in data:
            data += next(each)
        sent.append(data)
        response.close()
    return sent


def test_thirty_spectators_caught_up_to_one_version_are_sent_the_same_bytes_composed_once(players, service):
    app, shared, ada, bob, game_id = a_process_and_a_game(service, players)
    opened, chunks = open_streams(app.test_client(), game_id, [{}] * 30)
    before = dict(shared.computed)
    play([ada, bob], game_id, 1)
    now = ada.view(game_id).json["version"]
    sent = read_to(chunks, opened, now)
    assert len(set(sent)) == 1
    assert shared.computed["frames"] - before["frames"] == 1
    assert shared.computed["views"] - before["views"] == 1


def test_players_and_spectators_of_one_game_are_each_sent_their_own_frame(players, service):
    app, shared, ada, bob, game_id = a_process_and_a_game(service, players)
    opened, chunks = open_streams(app.test_client(), game_id, [ada.auth, bob.auth, {}] * 4)
    before = shared.computed["frames"]
    play([ada, bob], game_id, 1)
    sent = read_to(chunks, opened, ada.view(game_id).json["version"])
    assert len(set(sent)) == 3 and sent[:3] == sent[3:6]
    assert shared.computed["frames"] - before == 3
    views = [[m.json for m in parse(data.decode())[0] if m.event == "view"][-1] for data in sent[:3]]
    assert [view["seat"] for view in views] == [ada.view(game_id).json["seat"], bob.view(game_id).json["seat"], None]


def test_a_move_made_through_the_streams_process_reaches_them_unread_as_the_feed_shows_it(players, service):
    app, shared, ada, bob, game_id = a_process_and_a_game(service, players)
    client = app.test_client()
    version = ada.view(game_id).json["version"]
    opened, chunks = open_streams(client, game_id, [bob.auth, {}])
    before = dict(shared.computed)
    play([ada, bob], game_id, 1)  # through the service the streams' process uses
    now = ada.view(game_id).json["version"]
    sent = read_to(chunks, opened, now)
    assert shared.computed["reads"] - before["reads"] == 0
    assert shared.computed["spared"] - before["spared"] == 1
    for data, viewer in zip(sent, (bob, None)):
        moved = [m.json for m in parse(data.decode())[0] if m.event == "message"]
        shown = feed(viewer, game_id) if viewer else client.get(f"/v1/games/{game_id}/events?after=0").json["events"]
        assert moved == shown[version:now]


def test_a_move_made_by_another_process_is_read_once_for_the_session_and_the_streams(players, service, event_store):
    app, shared, ada, bob, game_id = a_process_and_a_game(service, players)
    elsewhere = create_app({"RATE_LIMIT_PER_MINUTE": 0}, service=GameService(event_store, seeds=TEST_SEEDS))
    opened, chunks = open_streams(app.test_client(), game_id, [{}] * 5)
    before = dict(shared.computed)
    ada.client, bob.client = elsewhere.test_client(), elsewhere.test_client()
    play([ada, bob], game_id, 1)
    read_to(chunks, opened, ada.view(game_id).json["version"])
    assert shared.computed["loads"] - before["loads"] == 1  # its events read with their metadata, kept for the streams
    assert shared.computed["reads"] - before["reads"] == 0
    assert shared.computed["spared"] - before["spared"] == 0


def test_what_a_process_keeps_of_its_events_is_what_postgresql_gives_back(database_url):
    data = {"zeta": [1, {"b": True, "aa": None}], "é": "x", "a": {"yy": "ü", "x": -3}, "bb": 10 ** 20, "": []}
    with psycopg.connect(database_url) as conn:
        [(stored,)] = conn.execute("select %s::jsonb", (Jsonb(data),)).fetchall()
    kept = as_read_back(data)
    assert kept == stored and list(kept) == list(stored) and list(kept["a"]) == list(stored["a"])


def test_a_catch_up_with_an_event_holding_a_float_is_read_back_since_jsonb_may_give_it_back_otherwise():
    assert as_read_back({"score": 1e16}) is None and as_read_back({"score": 3}) == {"score": 3}
    appended, game_id, now = AppendedHere(), uuid.uuid4(), dt.datetime.now(dt.UTC)
    appended.keep(game_id, f"game-{game_id}", [NewEvent("Scored", {"points": 3}), NewEvent("Scored", {"ratio": 0.5})],
                  [(1, "aa"), (2, "bb")], now)
    assert [event.data for event in appended.between(game_id, 1, 1)] == [{"points": 3}]
    assert appended.between(game_id, 1, 2) is None and appended.between(game_id, 1, 3) is None


def test_a_game_that_ends_reaches_every_spectator_with_its_last_move_and_its_end_in_one_write(players, service):
    app = create_app({"RATE_LIMIT_PER_MINUTE": 0, "STREAMS": {"lifetime": 60}}, service=service)
    ada = players(1)[0]
    game_id = ada.create()
    opened, chunks = open_streams(app.test_client(), game_id, [{}] * 5)
    assert ada.post(f"/v1/games/{game_id}/leave").status_code == 200  # the last one out cancels it
    version = ada.get(f"/v1/games/{game_id}").json["version"]
    written = [next(each) for each in chunks]
    for response in opened:
        response.close()
    assert len(set(written)) == 1
    messages = parse(written[0].decode())[0]
    assert [m.event for m in messages][-2:] == ["view", "end"] and messages[-2].id == str(version)
    assert messages[-1].json["status"] == "cancelled"
