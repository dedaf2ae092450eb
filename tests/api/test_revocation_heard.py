"""A revocation is heard by every API process through its LISTEN connection
(api/service/token_cache.py): their streams opened with the token end at
once, with no look of their own for revoked tokens."""

from __future__ import annotations

import pytest

from api.http.app import create_app
from api.service.games import GameService
from tests.support.open_stream import HeldStream
from tests.support.seeds import TEST_SEEDS

from .conftest import Player, started_game


@pytest.fixture
def two_processes(event_store):
    made = []
    for _ in range(2):
        service = GameService(event_store, seeds=TEST_SEEDS)
        # Their own looks for revoked tokens come once an hour: only the notice can end a stream in time.
        app = create_app({"RATE_LIMIT_PER_MINUTE": 0,
                          "STREAMS": {"lifetime": 20.0, "heartbeat": 0.5, "revocation_check": 3600}},
                         service=service)
        made.append(app.test_client())
    return made


def test_a_stream_in_another_process_ends_when_that_process_hears_the_revocation(two_processes):
    first, second = two_processes
    ada, bob = Player(first, "heard-ada"), Player(first, "heard-bob")
    game_id = started_game([ada, bob])
    phone = first.post("/v1/players/me/tokens", json={"label": "phone"}, headers=ada.auth).json
    stream = HeldStream(second, f"/v1/games/{game_id}/stream", {"Authorization": f"Bearer {phone['token']}"}).started()
    try:
        stream.until(lambda ms: any(m.event == "view" for m in ms), what="the view")
        assert first.delete(f"/v1/players/me/tokens/{phone['id']}", headers=ada.auth).status_code == 204
        assert stream.ends_within(10.0), "the stream outlived its revoked token in the other process"
        last = stream.messages()[-1]
        assert last.event == "problem" and last.json["type"].endswith("/token-revoked")
    finally:
        stream.close()
