"""A player's tokens: listed, created, revoked one by one or all at once; a
revoked token stops working in every API process as soon as its LISTEN
connection hears of it, and within the documented cache time without one."""

from __future__ import annotations

import uuid

import pytest

from api.http.app import create_app
from api.service.games import GameService
from api.service.players import MAX_LIVE_TOKENS, Players
from api.service.token_cache import REVOKED_CHANNEL
from tests.api.conftest import Player
from tests.support.seeds import TEST_SEEDS
from tests.support.waiting import wait_until


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def _processes(event_store, hearing: bool):
    """Two API processes on one database, each with its own token cache and
    its own clock; ``hearing``: each hears revocations through the store's LISTEN connection."""
    made = []
    for _ in range(2):
        service = GameService(event_store, seeds=TEST_SEEDS)
        if not hearing:
            service.players = Players(service.pool)
        clock = service.players.clock = Clock()
        made.append((create_app({"RATE_LIMIT_PER_MINUTE": 0}, service=service).test_client(), service, clock))
    return made


@pytest.fixture
def two_processes(event_store):
    return _processes(event_store, hearing=False)


@pytest.fixture
def two_hearing_processes(event_store):
    return _processes(event_store, hearing=True)


def _trusted_while_heard(client, service, player) -> None:
    """The process checks the player's token while its LISTEN connection hears revocations."""
    assert client.get("/v1/players/me/inbox", headers=player.auth).status_code == 200
    wait_until(lambda: service.store.listening_to(REVOKED_CHANNEL) is not None, timeout=30,
               what="the LISTEN connection hearing revocations")
    service.players.forget_tokens([t["id"] for t in client.get("/v1/players/me/tokens", headers=player.auth).json["tokens"]])
    assert client.get("/v1/players/me/inbox", headers=player.auth).status_code == 200


def test_a_token_checked_while_revocations_are_heard_is_trusted_past_the_cache_time_without_a_query(
        two_hearing_processes):
    (client, service, clock), _ = two_hearing_processes
    ada = Player(client, "trusted-long")
    _trusted_while_heard(client, service, ada)
    clock.now += service.players.cache_seconds * 10
    queries = service.pool.get_stats().get("requests_num", 0)
    assert service.players.identify_cached(ada.token) is not None
    assert service.pool.get_stats().get("requests_num", 0) == queries
    clock.now += service.players.known.trust_seconds
    assert service.players.identify_cached(ada.token) is None, "an hour on, the token is read again"


def test_a_token_revoked_in_one_process_stops_working_in_every_other_as_soon_as_it_hears_of_it(
        two_hearing_processes):
    (first, _, _), (second, service, clock) = two_hearing_processes
    ada = Player(first, "revoked-heard")
    _trusted_while_heard(second, service, ada)
    clock.now += service.players.cache_seconds * 10  # past the short bound: only the notice can end it
    token_id = first.get("/v1/players/me/tokens", headers=ada.auth).json["tokens"][0]["id"]
    assert first.delete(f"/v1/players/me/tokens/{token_id}", headers=ada.auth).status_code == 204
    wait_until(lambda: second.get("/v1/players/me/inbox", headers=ada.auth).status_code == 401, timeout=30,
               what="the other process to refuse the revoked token")


def _bearer(token):
    return {"Authorization": f"Bearer {token}"}


def test_without_a_listen_connection_a_revoked_token_stops_working_in_every_process_within_the_cache_time(
        two_processes):
    (first, _, _), (second, service, clock) = two_processes
    ada = Player(first, "revoked-everywhere")
    assert second.get("/v1/players/me/inbox", headers=ada.auth).status_code == 200  # remembered by the second
    token_id = first.get("/v1/players/me/tokens", headers=ada.auth).json["tokens"][0]["id"]
    assert first.delete(f"/v1/players/me/tokens/{token_id}", headers=ada.auth).status_code == 204
    assert first.get("/v1/players/me/inbox", headers=ada.auth).status_code == 401  # at once where revoked
    clock.now += service.players.cache_seconds + 0.001
    response = second.get("/v1/players/me/inbox", headers=ada.auth)
    assert response.status_code == 401
    assert response.json["detail"] == "unknown or revoked token"


def test_a_token_whose_hash_changed_in_the_database_stops_working_within_the_cache_time(two_processes):
    (client, service, clock), _ = two_processes
    ada = Player(client, "hash-changed")
    assert client.get("/v1/players/me/inbox", headers=ada.auth).status_code == 200
    with service.pool.connection() as conn:
        conn.execute("update player_tokens set token_sha256 = %s where player_id = %s", (b"x" * 32, ada.id))
    clock.now += service.players.cache_seconds + 0.001
    assert client.get("/v1/players/me/inbox", headers=ada.auth).status_code == 401


def test_a_token_changed_by_hand_with_no_notice_stops_working_within_the_trust_time(two_hearing_processes):
    (client, service, clock), _ = two_hearing_processes
    ada = Player(client, "hash-changed-heard")
    _trusted_while_heard(client, service, ada)
    with service.pool.connection() as conn:  # SQL by hand sends no notice
        conn.execute("update player_tokens set token_sha256 = %s where player_id = %s", (b"y" * 32, ada.id))
    clock.now += service.players.known.trust_seconds + 0.001
    assert client.get("/v1/players/me/inbox", headers=ada.auth).status_code == 401


def test_a_player_lists_creates_and_revokes_tokens(client):
    ada = Player(client, "token-keeper")
    listed = client.get("/v1/players/me/tokens", headers=ada.auth).json["tokens"]
    assert [(t["label"], t["current"]) for t in listed] == [("registration", True)]
    assert "token" not in listed[0]

    made = client.post("/v1/players/me/tokens", json={"label": "phone"}, headers=ada.auth)
    assert made.status_code == 201, made.json
    phone = made.json["token"]
    assert phone.startswith("bl_") and phone != ada.token
    assert client.get("/v1/players/me/inbox", headers=_bearer(phone)).status_code == 200

    listed = client.get("/v1/players/me/tokens", headers=_bearer(phone)).json["tokens"]
    assert {t["label"]: t["current"] for t in listed} == {"registration": False, "phone": True}

    registration = next(t["id"] for t in listed if t["label"] == "registration")
    assert client.delete(f"/v1/players/me/tokens/{registration}", headers=_bearer(phone)).status_code == 204
    assert client.get("/v1/players/me/inbox", headers=ada.auth).status_code == 401
    assert client.get("/v1/players/me/inbox", headers=_bearer(phone)).status_code == 200


def test_revoking_all_tokens_leaves_exactly_one_new_one(client):
    ada = Player(client, "leaked")
    spare = client.post("/v1/players/me/tokens", json={"label": "laptop"}, headers=ada.auth).json["token"]
    response = client.post("/v1/players/me/tokens/revoke-all", json={}, headers=ada.auth)
    assert response.status_code == 200, response.json
    assert response.json["revoked"] == 2
    fresh = response.json["token"]["token"]
    for old in (ada.token, spare):
        assert client.get("/v1/players/me/inbox", headers=_bearer(old)).status_code == 401
    listed = client.get("/v1/players/me/tokens", headers=_bearer(fresh)).json["tokens"]
    assert len(listed) == 1 and listed[0]["current"] is True


def test_nobody_revokes_another_players_token(client):
    ada, eve = Player(client, "victim"), Player(client, "attacker")
    token_id = client.get("/v1/players/me/tokens", headers=ada.auth).json["tokens"][0]["id"]
    response = client.delete(f"/v1/players/me/tokens/{token_id}", headers=eve.auth)
    assert response.status_code == 404
    assert response.mimetype == "application/problem+json"
    assert client.get("/v1/players/me/inbox", headers=ada.auth).status_code == 200


@pytest.mark.parametrize("token_id", ["not-a-uuid", "5a0c2d47-8f1e-4b6a-9c3d-2e7f1b8a6d90"])
def test_revoking_an_unknown_token_is_a_404(client, token_id):
    ada = Player(client, "unknown-token")
    response = client.delete(f"/v1/players/me/tokens/{token_id}", headers=ada.auth)
    assert response.status_code == 404
    assert response.mimetype == "application/problem+json"


def test_a_player_holds_a_bounded_number_of_tokens(client):
    ada = Player(client, "hoarder")
    for n in range(MAX_LIVE_TOKENS - 1):
        assert client.post("/v1/players/me/tokens", json={"label": f"t{n}"}, headers=ada.auth).status_code == 201
    response = client.post("/v1/players/me/tokens", json={}, headers=ada.auth)
    assert response.status_code == 409
    assert response.json["type"].endswith("/too-many-tokens")


def test_tokens_need_a_token(client):
    for method, path in (("get", ""), ("post", ""), ("delete", f"/{uuid.uuid4()}"), ("post", "/revoke-all")):
        response = getattr(client, method)(f"/v1/players/me/tokens{path}", json={} if method == "post" else None)
        assert response.status_code == 401, (method, path)
