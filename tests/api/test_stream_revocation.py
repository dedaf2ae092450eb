"""Streams end when the token that opened them is revoked, with a problem as
their last message: at once in the process that revoked it, within the
revocation bound in any other; tickets issued for a revoked token open
nothing. Through the real service on PostgreSQL, two API processes (two
apps, each with its own pool, listener, token cache and streams)."""

from __future__ import annotations

import time

import pytest

from api.http.app import create_app
from api.service.games import GameService
from tests.support.open_stream import HeldStream

from .conftest import Player, started_game
from tests.support.seeds import TEST_SEEDS

CHECK = 0.2  # seconds between two looks for revoked tokens in these apps
LIFETIME = 5.0  # streams end by themselves after this, so that none outlives its test (and a revoked one ends well before)


@pytest.fixture
def two_processes(event_store):
    made = []
    for _ in range(2):
        service = GameService(event_store, seeds=TEST_SEEDS)
        app = create_app({"RATE_LIMIT_PER_MINUTE": 0,
                          "STREAMS": {"lifetime": LIFETIME, "heartbeat": 0.5, "revocation_check": CHECK}},
                         service=service)
        made.append(app.test_client())
    return made


def _bearer(token):
    return {"Authorization": f"Bearer {token}"}


def _token_id(client, token):
    listed = client.get("/v1/players/me/tokens", headers=_bearer(token)).json["tokens"]
    return next(t["id"] for t in listed if t["current"])


def _ends_with_the_revocation(stream: HeldStream, within: float) -> None:
    started = time.monotonic()
    assert stream.ends_within(within), f"the stream still ran {within} s after its token was revoked"
    assert time.monotonic() - started < LIFETIME - 1, "it ended with its lifetime, not with its token"
    last = stream.messages()[-1]
    assert last.event == "problem", [m.event for m in stream.messages()]
    assert last.json["status"] == 401 and last.json["type"].endswith("/token-revoked")
    assert "revoked" in last.json["detail"] and "sign in again" in last.json["detail"]


def test_a_game_stream_ends_with_a_problem_when_its_token_is_revoked_in_the_same_process(two_processes):
    client, _ = two_processes
    ada, bob = Player(client, "revoked-ada"), Player(client, "revoked-bob")
    game_id = started_game([ada, bob])
    phone = client.post("/v1/players/me/tokens", json={"label": "phone"}, headers=ada.auth).json
    stream = HeldStream(client, f"/v1/games/{game_id}/stream", _bearer(phone["token"])).started()
    others = HeldStream(client, f"/v1/games/{game_id}/stream", ada.auth).started()  # her other token's
    try:
        stream.until(lambda ms: any(m.event == "view" for m in ms), what="the view")
        assert client.delete(f"/v1/players/me/tokens/{phone['id']}", headers=ada.auth).status_code == 204
        _ends_with_the_revocation(stream, within=2.0)
        assert not others.ended.is_set(), "a stream of a token still live ended too"
    finally:
        stream.close()
        others.close()


def test_a_player_stream_opened_with_a_ticket_ends_when_revoke_all_happens_in_another_process(two_processes):
    first, second = two_processes
    ada = Player(first, "revoked-everywhere")
    ticket = first.post("/v1/stream-tickets", headers=ada.auth).json["ticket"]
    stream = HeldStream(second, f"/v1/players/me/stream?ticket={ticket}").started()
    try:
        assert first.post("/v1/players/me/tokens/revoke-all", json={}, headers=ada.auth).status_code == 200
        _ends_with_the_revocation(stream, within=3.0)
    finally:
        stream.close()


def test_a_game_stream_ends_when_its_token_is_revoked_in_another_process(two_processes):
    first, second = two_processes
    ada, bob = Player(first, "elsewhere-ada"), Player(first, "elsewhere-bob")
    game_id = started_game([ada, bob])
    stream = HeldStream(second, f"/v1/games/{game_id}/stream", bob.auth).started()
    try:
        assert first.delete(f"/v1/players/me/tokens/{_token_id(first, bob.token)}",
                            headers=bob.auth).status_code == 204
        _ends_with_the_revocation(stream, within=3.0)
        # The process that found it out trusts the token no more, though its cache time has not run out:
        # a client reconnecting at once is refused, not given a stream that ends again.
        assert second.get(f"/v1/games/{game_id}/stream", headers=bob.auth).status_code == 401
    finally:
        stream.close()


def test_a_ticket_issued_before_revoke_all_opens_no_stream_after_it(two_processes):
    first, second = two_processes
    ada = Player(first, "ticket-before-revoke-all")
    game_id = ada.create()
    tickets = [first.post("/v1/stream-tickets", headers=ada.auth).json["ticket"] for _ in range(2)]
    fresh = first.post("/v1/players/me/tokens/revoke-all", json={}, headers=ada.auth).json["token"]["token"]
    for client, path in ((second, f"/v1/players/me/stream?ticket={tickets[0]}"),
                         (first, f"/v1/games/{game_id}/stream?ticket={tickets[1]}")):
        refused = client.get(path)
        assert refused.status_code == 401 and refused.mimetype == "application/problem+json"
        assert refused.json["type"].endswith("/ticket-invalid")
    new_ticket = first.post("/v1/stream-tickets", headers=_bearer(fresh)).json["ticket"]
    opened = HeldStream(second, f"/v1/players/me/stream?ticket={new_ticket}")
    assert opened.status == 200
    opened.close()


def test_a_ticket_of_a_revoked_token_opens_nothing_and_one_of_another_token_still_does(two_processes):
    first, second = two_processes
    ada = Player(first, "ticket-of-revoked")
    game_id = ada.create()
    phone = first.post("/v1/players/me/tokens", json={"label": "phone"}, headers=ada.auth).json
    of_phone = first.post("/v1/stream-tickets", headers=_bearer(phone["token"])).json["ticket"]
    of_registration = first.post("/v1/stream-tickets", headers=ada.auth).json["ticket"]
    assert first.delete(f"/v1/players/me/tokens/{phone['id']}", headers=ada.auth).status_code == 204
    refused = second.get(f"/v1/games/{game_id}/stream?ticket={of_phone}")
    assert refused.status_code == 401 and "revoked" in refused.json["detail"]
    opened = HeldStream(second, f"/v1/games/{game_id}/stream?ticket={of_registration}")
    assert opened.status == 200
    opened.close()
