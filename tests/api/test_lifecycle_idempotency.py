"""An Idempotency-Key on the lifecycle POSTs (resign, abort, invites, their
redemption, rematch), as on commands: a repeat of the same request answers
the first answer again and changes nothing; the same key on another request
of the same game is refused. And a game has one rematch, however many ask."""

from __future__ import annotations

import uuid

from tests.api.conftest import race, started_game

REUSED = "https://boardlog.dev/problems/idempotency-key-reused"


def version(service, game_id) -> int:
    return service.store.stream_version(f"game-{game_id}")


def hosted_games(service, *players) -> int:
    with service.pool.connection() as conn:
        return conn.execute("select count(*) from games where host = any(%s::uuid[])",
                            ([p.id for p in players],)).fetchone()[0]


def new_key() -> dict:
    return {"Idempotency-Key": uuid.uuid4().hex}


def assert_same_answer(first, again):
    assert (again.status_code, again.mimetype, again.data) == (first.status_code, first.mimetype, first.data)


def assert_key_reused(response):
    assert response.status_code == 422, response.json
    assert response.json["type"] == REUSED
    assert "scoped to (player, game)" in response.json["detail"]


def finished_game(service, players) -> str:
    """A two-seat game that ended when its second seat resigned."""
    game_id = started_game(players)
    assert players[1].post(f"/v1/games/{game_id}/resign").status_code == 200
    service.score(uuid.UUID(game_id))
    assert players[0].get(f"/v1/games/{game_id}").json["status"] == "finished"
    return game_id


# The same key and request: the first answer again, and nothing more happens


def test_a_resign_repeated_with_its_key_answers_the_first_answer_and_resigns_once(players, service):
    ada, bob, cy = players(3)
    game_id = started_game([ada, bob, cy])
    key = new_key()
    first = bob.post(f"/v1/games/{game_id}/resign", headers=key)
    assert first.status_code == 200, first.json
    after = version(service, game_id)
    assert_same_answer(first, bob.post(f"/v1/games/{game_id}/resign", headers=key))
    assert version(service, game_id) == after
    assert bob.post(f"/v1/games/{game_id}/resign").status_code == 409  # without the key: resigned already


def test_an_abort_repeated_with_its_key_answers_the_first_answer_and_aborts_once(players, service):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    key = new_key()
    first = ada.post(f"/v1/games/{game_id}/abort", headers=key)
    assert first.status_code == 200 and first.json["status"] == "cancelled", first.json
    after = version(service, game_id)
    assert_same_answer(first, ada.post(f"/v1/games/{game_id}/abort", headers=key))
    assert version(service, game_id) == after


def test_an_invite_repeated_with_its_key_shows_the_same_code_and_issues_one(players, service):
    ada, bob = players(2)
    lobby = ada.create(options={"players": 2, "visibility": "private"})
    key = new_key()
    first = ada.post(f"/v1/games/{lobby}/invites", json={"seat": "p2"}, headers=key)
    assert first.status_code == 201, first.json
    after = version(service, lobby)
    again = ada.post(f"/v1/games/{lobby}/invites", json={"seat": "p2"}, headers=key)
    assert_same_answer(first, again)
    assert version(service, lobby) == after
    issued = [e for e in ada.get(f"/v1/games/{lobby}/events").json["events"] if e["type"] == "InviteIssued"]
    assert len(issued) == 1
    assert bob.post(f"/v1/games/{lobby}/invites/redeem", json={"code": again.json["code"]}).status_code == 200


def test_a_redemption_repeated_with_its_key_answers_the_first_answer_not_that_the_code_is_spent(players, service):
    ada, bob = players(2)
    lobby = ada.create(options={"players": 2, "visibility": "private"})
    code = ada.post(f"/v1/games/{lobby}/invites", json={}).json["code"]
    key = new_key()
    first = bob.post(f"/v1/games/{lobby}/invites/redeem", json={"code": code}, headers=key)
    assert first.status_code == 200, first.json
    after = version(service, lobby)
    assert_same_answer(first, bob.post(f"/v1/games/{lobby}/invites/redeem", json={"code": code}, headers=key))
    assert version(service, lobby) == after
    assert bob.post(f"/v1/games/{lobby}/invites/redeem", json={"code": code}).status_code == 409  # without it: spent


def test_a_rematch_repeated_with_its_key_answers_the_same_new_game_and_its_location(players, service):
    ada, bob = players(2)
    game_id = finished_game(service, [ada, bob])
    key = new_key()
    first = bob.post(f"/v1/games/{game_id}/rematch", headers=key)
    assert first.status_code == 201, first.json
    again = bob.post(f"/v1/games/{game_id}/rematch", headers=key)
    assert_same_answer(first, again)
    assert again.headers["Location"] == first.headers["Location"]
    assert first.headers["Location"].endswith(f"/v1/games/{first.json['id']}")
    assert ada.get(f"/v1/games/{game_id}").json["rematch"] == first.json["id"]


def test_a_rematch_retried_with_its_key_makes_exactly_one_new_game_even_when_the_retry_raced_the_original(
    players, service, monkeypatch
):
    # The retry loaded the finished game before the original appended its link.
    ada, bob = players(2)
    game_id = finished_game(service, [ada, bob])
    stale = service.load(uuid.UUID(game_id))
    before = hosted_games(service, ada, bob)
    key = new_key()
    first = bob.post(f"/v1/games/{game_id}/rematch", headers=key)
    assert first.status_code == 201, first.json

    calls = race(monkeypatch, service, stale)
    retry = bob.post(f"/v1/games/{game_id}/rematch", headers=key)
    monkeypatch.undo()
    assert calls == {"load": 2, "earlier": 1}  # it did race, and lost
    assert_same_answer(first, retry)
    assert bob.post(f"/v1/games/{game_id}/rematch", headers=key).json == first.json
    assert hosted_games(service, ada, bob) == before + 1


# The same key on another request of the same game is refused


def test_a_resign_key_reused_for_an_abort_or_by_a_command_is_refused_and_changes_nothing(players, service):
    seated = players(3)
    game_id = started_game(seated)
    # One who is not to act resigns, so the one to act still is (a resigned seat's turns are a bot's).
    to_act = seated[0].view(game_id).json["to_act"]
    acting = next(p for p in seated if p.view(game_id).json["seat"] in to_act)
    leaving = next(p for p in seated if p is not acting)
    key = new_key()
    assert leaving.post(f"/v1/games/{game_id}/resign", headers=key).status_code == 200
    after = version(service, game_id)
    assert_key_reused(leaving.post(f"/v1/games/{game_id}/abort", headers=key))
    assert_key_reused(leaving.post(f"/v1/games/{game_id}/rematch", headers=key))
    assert_key_reused(leaving.act(game_id, {"type": "DrawBuilding"}, headers=key))
    assert version(service, game_id) == after

    command_key = new_key()  # and the other way round: a command's key is not a resign's
    assert acting.act(game_id, acting.legal(game_id)[0], headers=command_key).status_code == 200
    moved = version(service, game_id)
    assert_key_reused(acting.post(f"/v1/games/{game_id}/resign", headers=command_key))
    assert version(service, game_id) == moved


def test_an_invite_key_reused_with_another_body_is_refused_and_issues_nothing(players, service):
    ada, bob = players(2)
    lobby = ada.create(options={"players": 3, "visibility": "private"})
    key = new_key()
    assert ada.post(f"/v1/games/{lobby}/invites", json={"seat": "p2"}, headers=key).status_code == 201
    after = version(service, lobby)
    assert_key_reused(ada.post(f"/v1/games/{lobby}/invites", json={"seat": "p3"}, headers=key))
    assert_key_reused(ada.post(f"/v1/games/{lobby}/invites/redeem", json={"code": "inv_x"}, headers=key))
    assert version(service, lobby) == after


def test_a_key_is_scoped_to_the_game_so_the_same_key_acts_in_the_rematch(players, service):
    ada, bob = players(2)
    game_id = finished_game(service, [ada, bob])
    key = {"Idempotency-Key": "lifecycle-1"}
    rematch = bob.post(f"/v1/games/{game_id}/rematch", headers=key).json["id"]
    response = bob.post(f"/v1/games/{rematch}/invites", json={}, headers=key)
    assert response.status_code == 201, response.json
    assert response.json["game_id"] == rematch


# One rematch per game


def test_a_second_rematch_by_another_player_or_the_same_one_without_a_key_is_a_409_naming_the_first(players, service):
    ada, bob = players(2)
    game_id = finished_game(service, [ada, bob])
    before = hosted_games(service, ada, bob)
    first = ada.post(f"/v1/games/{game_id}/rematch")
    assert first.status_code == 201, first.json
    for asking in (bob, ada):
        response = asking.post(f"/v1/games/{game_id}/rematch")
        assert response.status_code == 409, response.json
        assert response.json["type"].endswith("/wrong-status")
        assert first.json["id"] in response.json["detail"]
    assert hosted_games(service, ada, bob) == before + 1


def test_two_players_racing_for_a_rematch_make_one_game_and_the_loser_is_told_which(players, service, monkeypatch):
    # Bob's request read the finished game before Ada's rematch was linked to it.
    ada, bob = players(2)
    game_id = finished_game(service, [ada, bob])
    stale = service.load(uuid.UUID(game_id))
    before = hosted_games(service, ada, bob)
    first = ada.post(f"/v1/games/{game_id}/rematch")
    assert first.status_code == 201, first.json

    calls = race(monkeypatch, service, stale)
    response = bob.post(f"/v1/games/{game_id}/rematch")
    monkeypatch.undo()
    assert calls["load"] == 2  # decided on the stale game first, then again
    assert response.status_code == 409, response.json
    assert first.json["id"] in response.json["detail"]
    assert hosted_games(service, ada, bob) == before + 1  # the loser's new game was rolled back with its link
    assert bob.get(f"/v1/games/{game_id}").json["rematch"] == first.json["id"]


# The document


def test_the_lifecycle_operations_document_the_header_and_the_refusal_of_a_reused_key():
    from api.processes.openapi_doc import document

    operations = {op["operationId"]: op for path in document()["paths"].values() for op in path.values()
                  if isinstance(op, dict) and "operationId" in op}
    command = next(p for p in operations["sendCommand"]["parameters"] if p["name"] == "Idempotency-Key")
    for operation_id in ("resignSeat", "abortGame", "createInvite", "redeemInvite", "createRematch"):
        operation = operations[operation_id]
        assert next(p for p in operation["parameters"] if p["name"] == "Idempotency-Key") == command
        assert REUSED in operation["responses"]["422"]["x-problem-types"]
