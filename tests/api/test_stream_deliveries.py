"""What one move costs a process's streams (issue 37, "less per move"),
counted by what SharedWork did, never timed: the bytes every spectator is
sent composed once."""

from __future__ import annotations

from api.http.app import create_app
from tests.support.sse import parse

from .conftest import started_game
from .test_streams import play


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
