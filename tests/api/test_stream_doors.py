"""A game's stream carries, for every game, exactly what the two doors of
hidden information give its viewer: each event as the viewer's feed shows it
(`visible`) and, after each move, the viewer's view (`view`), nothing else.
Each game's own leak comparisons (tests/games/<game>/) prove those doors show
a seat nothing it may not see; Coronation's is also run through streams
themselves (test_stream_leaks.py). Here every seat and a spectator hold a
stream open while the game is played, and each message is checked against
the feed and the view that viewer gets by polling."""

from __future__ import annotations

import random
import uuid

import pytest

from api.http.app import create_app
from tests.support.hosted import seating
from tests.support.sse import parse

from .conftest import Player, started_game

MOVES = 12


class OpenStream:
    def __init__(self, client, game_id, auth):
        self.response = client.get(f"/v1/games/{game_id}/stream", headers=auth, buffered=False)
        assert self.response.status_code == 200
        self.chunks = iter(self.response.response)
        self.text = ""

    def until_view(self, version: int) -> list:
        """The messages up to the view of ``version``."""
        while True:
            self.text += next(self.chunks).decode()
            messages, _, _ = parse(self.text)
            if any(m.event == "view" and int(m.id) == version for m in messages):
                self.text = ""
                return messages

    def close(self):
        self.response.close()


@pytest.mark.parametrize("game", sorted(seating(3)))
def test_every_viewer_s_stream_is_its_feed_and_its_view_message_for_message(game, service):
    app = create_app({"RATE_LIMIT_PER_MINUTE": 0, "STREAMS": {"lifetime": 600.0, "heartbeat": 0.2}},
                     service=service)
    client = app.test_client()
    people = [Player(client, f"door-{uuid.uuid4().hex[:6]}-{i}") for i in range(3)]
    game_id = started_game(people, game=game)
    viewers = [(person, person.auth) for person in people] + [(None, {})]
    version = client.get(f"/v1/games/{game_id}").json["version"]
    streams = [OpenStream(client, game_id, auth) for _, auth in viewers]
    try:
        for stream in streams:
            assert [m.event for m in stream.until_view(version)] == ["view"]
        by_seat = {p.view(game_id).json["seat"]: p for p in people}
        rng = random.Random(game)
        for _ in range(MOVES):
            view = people[0].view(game_id).json
            if view["status"] != "active":
                break
            mover = by_seat[view["to_act"][0]]
            assert mover.act(game_id, rng.choice(mover.legal(game_id))).status_code == 200
            before, version = version, client.get(f"/v1/games/{game_id}").json["version"]
            for (person, auth), stream in zip(viewers, streams):
                messages = stream.until_view(version)
                polled_feed = client.get(f"/v1/games/{game_id}/events?after={before}&limit=1000",
                                         headers=auth).json["events"]
                assert [m.json for m in messages if m.event == "message"] == polled_feed
                assert [int(m.id) for m in messages if m.event == "message"] == list(range(before + 1, version + 1))
                views = [m.json for m in messages if m.event == "view"]
                assert views == [client.get(f"/v1/games/{game_id}/view", headers=auth).json]
                assert {m.event for m in messages} <= {"message", "view"}
        assert version > 3 + MOVES // 2, "the game moved"
    finally:
        for stream in streams:
            stream.close()
