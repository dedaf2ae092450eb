"""An Idempotency-Key on the POSTs that create a game or a message, as on
commands: a client that lost the answer and sends the same request again
with the same key gets the first answer, and one game or one message
exists; the same key with another body is refused."""

from __future__ import annotations

from tests.api.conftest import started_game
from tests.api.test_lifecycle_idempotency import assert_same_answer, hosted_games, new_key

REUSED = "https://boardlog.dev/problems/idempotency-key-reused"


def messages_of(player, game_id, channel="table") -> list[str]:
    page = player.get(f"/v1/games/{game_id}/channels/{channel}/messages").json
    return [message["text"] for message in page["messages"]]


def test_a_new_game_posted_twice_with_one_key_is_one_game_and_the_first_answer(players, service):
    (ada,) = players(1)
    key = new_key()
    body = {"game": "cronberg", "options": {"players": 2}}
    first = ada.post("/v1/games", json=body, headers=key)
    assert first.status_code == 201, first.json
    again = ada.post("/v1/games", json=body, headers=key)
    assert_same_answer(first, again)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["Location"] == first.headers["Location"]
    assert hosted_games(service, ada) == 1


def test_a_key_reused_for_another_new_game_is_refused_and_creates_nothing(players, service):
    (ada,) = players(1)
    key = new_key()
    assert ada.post("/v1/games", json={"game": "cronberg", "options": {"players": 2}}, headers=key).status_code == 201
    other = ada.post("/v1/games", json={"game": "cronberg", "options": {"players": 3}}, headers=key)
    assert other.status_code == 422, other.json
    assert other.json["type"] == REUSED
    assert hosted_games(service, ada) == 1


def test_new_games_without_a_key_or_with_other_keys_are_each_created(players, service):
    (ada,) = players(1)
    body = {"game": "cronberg", "options": {"players": 2}}
    assert ada.post("/v1/games", json=body).status_code == 201
    assert ada.post("/v1/games", json=body).status_code == 201
    assert ada.post("/v1/games", json=body, headers=new_key()).status_code == 201
    assert hosted_games(service, ada) == 3


def test_a_message_sent_twice_with_one_key_is_said_once_and_answered_as_first(players):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    key = new_key()
    path = f"/v1/games/{game_id}/channels/table/messages"
    first = ada.post(path, json={"text": "good luck"}, headers=key)
    assert first.status_code == 201, first.json
    again = ada.post(path, json={"text": "good luck"}, headers=key)
    assert_same_answer(first, again)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert messages_of(bob, game_id) == ["good luck"]


def test_a_message_key_reused_for_another_text_is_refused_and_says_nothing(players):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    key = new_key()
    path = f"/v1/games/{game_id}/channels/table/messages"
    assert ada.post(path, json={"text": "good luck"}, headers=key).status_code == 201
    other = ada.post(path, json={"text": "have fun"}, headers=key)
    assert other.status_code == 422, other.json
    assert other.json["type"] == REUSED
    assert messages_of(bob, game_id) == ["good luck"]


def test_the_contract_names_the_key_and_its_refusal_on_creating_a_game_and_sending_a_message(app):
    document = app.test_client().get("/v1/openapi.json").json
    for path in ("/v1/games", "/v1/games/{game_id}/channels/{channel}/messages"):
        operation = document["paths"][path]["post"]
        names = [parameter.get("name") for parameter in operation.get("parameters", [])]
        assert "Idempotency-Key" in names, path
        assert "Idempotent-Replayed" in operation["responses"]["201"]["headers"], path
        refusals = str(operation["responses"].get("422", {}))
        assert "idempotency-key-reused" in refusals, path
