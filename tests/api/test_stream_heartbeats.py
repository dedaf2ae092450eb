"""Heartbeats go by what a stream wrote, not by what woke it: a player
stream whose games keep moving without a notice for him still gets one at
the interval; and every stream's first message carries an ``id:``, so that
a client that received nothing else can still resume."""

from __future__ import annotations

import time

import pytest

from api.http.app import create_app
from tests.support.open_stream import HeldStream

from .conftest import Player, started_game

HEARTBEAT = 0.5


@pytest.fixture
def client(service):
    app = create_app({"RATE_LIMIT_PER_MINUTE": 0, "STREAMS": {"lifetime": 8.0, "heartbeat": HEARTBEAT}},
                     service=service)
    return app.test_client()


def _silences(stream: HeldStream, start: float, end: float) -> list[float]:
    """The gaps between two writes of the stream within [start, end]."""
    times = [start] + [when for when, _ in stream.chunks if start <= when <= end] + [end]
    return [later - earlier for earlier, later in zip(times, times[1:])]


def test_a_player_stream_whose_games_move_without_notices_for_him_still_gets_heartbeats(client):
    ada, bob = Player(client, "hb-ada"), Player(client, "hb-bob")
    lobby = bob.create(options={"players": 4})
    stream = HeldStream(client, "/v1/players/me/stream", ada.auth).started()
    try:
        start = time.monotonic()
        moves = 0
        while time.monotonic() - start < 4.0:  # ada joins and leaves bob's lobby: bob is told, ada never
            assert ada.post(f"/v1/games/{lobby}/join", json={}).status_code == 200
            assert ada.post(f"/v1/games/{lobby}/leave").status_code == 200
            moves += 2
            time.sleep(0.05)
        end = time.monotonic()
        assert moves > 20, "the games moved"
        assert [m for m in stream.messages()] == [], "no notice was for ada"
        heartbeats = sum(text.count(": heartbeat") for when, text in stream.chunks if start <= when <= end)
        assert heartbeats >= 4, f"{heartbeats} heartbeats in {end - start:.1f} s at {HEARTBEAT} s"
        assert max(_silences(stream, start, end)) < 3 * HEARTBEAT
    finally:
        stream.close()


@pytest.mark.parametrize("path", ["game", "player"])
def test_every_stream_starts_with_an_id_to_resume_from(service, path):
    # Streams of 1 s: each is read to its end before the next opens.
    client = create_app({"RATE_LIMIT_PER_MINUTE": 0, "STREAMS": {"lifetime": 1.0, "heartbeat": HEARTBEAT}},
                        service=service).test_client()
    ada, bob = Player(client, "id-ada"), Player(client, "id-bob")
    game_id = started_game([ada, bob])
    url = f"/v1/games/{game_id}/stream" if path == "game" else "/v1/players/me/stream"
    for resume in ({}, {"Last-Event-ID": "1"} if path == "game" else {"Last-Event-ID": "0"}):
        stream = HeldStream(client, url, {**ada.auth, **resume}).started()
        first = stream.chunks[0][1]
        stream.close()
        assert first.startswith("retry: ") and "\nid: " in first, first
        opening_id = int(first.split("\nid: ")[1].split("\n")[0])
        if resume:
            assert opening_id == int(resume["Last-Event-ID"])
        elif path == "game":
            assert opening_id == client.get(f"/v1/games/{game_id}").json["version"]
        else:  # from now: where the global feed ended when the stream opened
            assert opening_id > 0
