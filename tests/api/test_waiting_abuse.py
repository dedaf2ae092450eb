"""Bad input while waiting: a client that reconnects in a tight loop, opens
streams past its cap, or sends ?wait= with no ETag is bounded by the same
limits, answered with Retry-After, and other players are still served."""

from __future__ import annotations

import threading

import pytest

from api.http.app import create_app
from tests.support.open_stream import HeldStream

from .conftest import Player, started_game


@pytest.fixture
def capped(service):
    app = create_app({"RATE_LIMIT_PER_MINUTE": 0,
                      "STREAMS": {"lifetime": 3.0, "heartbeat": 0.3, "per_player": 2, "total": 6}},
                     service=service)
    return app


def test_a_client_reconnecting_in_a_tight_loop_is_capped_and_others_still_get_in(client, capped):
    ada, bob = Player(client, "ab-ada"), Player(client, "ab-bob")
    game_id = started_game([ada, bob])
    path = f"/v1/games/{game_id}/stream"
    held = [HeldStream(capped.test_client(), path, ada.auth) for _ in range(2)]
    refused = [capped.test_client().get(path, headers=ada.auth) for _ in range(30)]  # the loop
    assert all(r.status_code == 429 and int(r.headers["Retry-After"]) > 0 for r in refused)
    other = HeldStream(capped.test_client(), path, bob.auth)
    assert other.status == 200, "another player still opens a stream"
    for stream in held + [other]:
        stream.close()


def test_long_polls_without_an_etag_are_bounded_by_the_waiter_limit_and_answered_with_retry_after(client, capped):
    ada, bob = Player(client, "ab-lp-ada"), Player(client, "ab-lp-bob")
    game_id = started_game([ada, bob])
    answers, lock = [], threading.Lock()

    def poll():
        response = capped.test_client().get(f"/v1/games/{game_id}/view?wait=2", headers=ada.auth)
        with lock:
            answers.append(response)

    flood = [threading.Thread(target=poll) for _ in range(20)]
    for thread in flood:
        thread.start()
    plain = capped.test_client().get(f"/v1/games/{game_id}/view", headers=bob.auth)  # meanwhile
    for thread in flood:
        thread.join(30)
    busy = [a for a in answers if a.status_code == 503]
    assert len(answers) == 20 and len(busy) >= 20 - 6, [a.status_code for a in answers]
    assert all(int(a.headers["Retry-After"]) > 0 and a.json["type"].endswith("server-busy") for a in busy)
    assert all(a.status_code in (200, 503) for a in answers)
    assert plain.status_code == 200, "a player who does not wait is served meanwhile"
