"""Whose an Idempotency-Key is and when it is held (api/http/idempotency.py):
a player's key never answers another player, another path or another
operation; two requests racing with one key act once; a refusal frees the
key; a key left held by a server that died is taken over after a while."""

from __future__ import annotations

import threading
import time
import uuid

import pytest

from api.service import idempotency
from api.service.errors import Conflict
from tests.api.conftest import started_game
from tests.api.test_idempotency_every_creation import _absence, changed, stored
from tests.api.test_lifecycle_idempotency import new_key


def tokens_of(player) -> int:
    return len(player.get("/v1/players/me/tokens").json["tokens"])


def test_another_players_same_key_is_his_own_request_and_never_gets_the_first_players_answer(players):
    ada, bob = players(2)
    key = new_key()
    first = ada.post("/v1/players/me/tokens", json={"label": "phone"}, headers=key)
    second = bob.post("/v1/players/me/tokens", json={"label": "phone"}, headers=key)
    assert (first.status_code, second.status_code) == (201, 201)
    assert "Idempotent-Replayed" not in second.headers
    assert first.json["token"] != second.json["token"] and first.json["id"] != second.json["id"]
    assert (tokens_of(ada), tokens_of(bob)) == (2, 2)


def test_two_newcomers_at_two_addresses_with_one_key_and_one_name_each_register_their_own_player(client):
    key, body = new_key(), {"name": f"twin-{uuid.uuid4().hex[:6]}"}
    first = client.post("/v1/players", json=body, headers=key, environ_base={"REMOTE_ADDR": "192.0.2.1"})
    second = client.post("/v1/players", json=body, headers=key, environ_base={"REMOTE_ADDR": "192.0.2.2"})
    assert (first.status_code, second.status_code) == (201, 201)
    assert first.json["id"] != second.json["id"] and "Idempotent-Replayed" not in second.headers
    again = client.post("/v1/players", json=body, headers=key, environ_base={"REMOTE_ADDR": "192.0.2.1"})
    assert again.data == first.data and again.headers["Idempotent-Replayed"] == "true"


def test_one_key_in_two_games_or_for_two_operations_is_two_requests(players):
    ada, bob = players(2)
    games = [started_game([ada, bob]) for _ in range(2)]
    key = new_key()
    for game_id in games:
        answer = ada.post(f"/v1/games/{game_id}/end-proposal", json={"ending": "cancelled"}, headers=key)
        assert answer.status_code == 200 and "Idempotent-Replayed" not in answer.headers
        assert answer.json["proposal"]["seat"]
    assert ada.post("/v1/players/me/tokens", json={}, headers=key).status_code == 201
    assert ada.post("/v1/players/me/absences", json=_absence(3), headers=key).status_code == 201


def test_a_refused_request_frees_its_key_for_the_next_one(players):
    (ada,) = players(1)
    key = new_key()
    backwards = _absence(3)
    backwards["from"], backwards["to"] = backwards["to"], backwards["from"]
    assert ada.post("/v1/players/me/absences", json=backwards, headers=key).status_code == 422
    declared = ada.post("/v1/players/me/absences", json=_absence(3), headers=key)
    assert declared.status_code == 201 and "Idempotent-Replayed" not in declared.headers


def test_two_requests_racing_with_one_key_create_one_token_and_both_get_its_answer(app, players, service,
                                                                                   monkeypatch):
    (ada,) = players(1)
    real = service.players.create_token

    def slow(*args, **kwargs):  # the first holds the key while the second arrives
        time.sleep(0.5)
        return real(*args, **kwargs)

    monkeypatch.setattr(service.players, "create_token", slow)
    key = new_key()
    before = stored(service)
    answers = []

    def post():
        answers.append(app.test_client().post("/v1/players/me/tokens", json={"label": "phone"},
                                              headers={**ada.auth, **key}))

    racers = [threading.Thread(target=post) for _ in range(2)]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join()
    assert [a.status_code for a in answers] == [201, 201]
    assert answers[0].data == answers[1].data
    assert sorted(a.headers.get("Idempotent-Replayed", "") for a in answers) == ["", "true"]
    assert changed(before, stored(service)) == ["player_tokens"]
    assert tokens_of(ada) == 2


# A request's digest as the key's record keeps it: its SHA-256's 32 bytes.
DIGEST = bytes(range(32))


@pytest.fixture
def keys(service):
    return idempotency.HeldKeys(service.pool)


def test_a_key_held_by_a_request_still_carried_out_makes_its_repeat_wait_then_say_so(keys):
    player, scope, key = str(uuid.uuid4()), idempotency.operation_scope("POST /x", {}), uuid.uuid4().hex
    assert keys.claim(player, scope, key, DIGEST) is None
    started = time.monotonic()
    with pytest.raises(Conflict) as busy:
        keys.claim(player, scope, key, DIGEST, wait=0.3)
    assert busy.value.kind == "idempotency-key-busy" and time.monotonic() - started >= 0.3


def test_a_key_left_held_by_a_server_that_died_is_taken_over_after_a_while(keys, service):
    player, scope, key = str(uuid.uuid4()), idempotency.operation_scope("POST /x", {}), uuid.uuid4().hex
    assert keys.claim(player, scope, key, DIGEST) is None
    with service.pool.connection() as conn:
        conn.execute("update idempotency_keys set created_at = now() - make_interval(secs => %s)"
                     " where player_id = %s and key = %s", (idempotency.STALE_SECONDS + 1, player, key))
    assert keys.claim(player, scope, key, DIGEST, wait=0) is None
    keys.keep(player, scope, key, 201, "{}", [])
    assert keys.claim(player, scope, key, DIGEST, wait=0) == {"status": 201, "body": "{}", "headers": []}
