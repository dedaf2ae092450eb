"""A private game is its players' alone: every door that shows or acts on a
game (summary, view at any version and waiting, feed, legal commands,
commands, audit, export after the end, stream by token or ticket, the lobby
and a seat's life) answers anyone else, with a token or without, exactly as
an unknown game id does; its players, a resigned one too, and those a
rematch keeps a seat for, see it as before. Lists already hid it."""

from __future__ import annotations

import uuid

import pytest

from tests.support.open_stream import HeldStream

from .conftest import Player

OUTSIDER, ANONYMOUS = "outsider", "anonymous"


def private_game(client, name: str, started: bool = True):
    ada, bob = Player(client, f"{name}-ada"), Player(client, f"{name}-bob")
    game_id = ada.create(options={"players": 2, "visibility": "private"})
    code = ada.post(f"/v1/games/{game_id}/invites", json={}).json["code"]
    assert bob.post(f"/v1/games/{game_id}/invites/redeem", json={"code": code}).status_code == 200
    if started:
        assert ada.post(f"/v1/games/{game_id}/start").status_code == 200
    return game_id, ada, bob


def _as_no_game(response, game_id) -> None:
    """The answer an unknown id gets: nothing tells the private game from no game."""
    assert response.status_code == 404, (response.status_code, response.get_data(as_text=True)[:300])
    assert response.mimetype == "application/problem+json"
    assert response.json["type"].endswith("/game-not-found")
    assert response.json["detail"] == f"no game {game_id}"


def _caller(client, who):
    if who == ANONYMOUS:
        return client, {}
    stranger = Player(client, f"stranger-{uuid.uuid4().hex[:6]}")
    return client, stranger.auth


READ_DOORS = [
    ("get", "{game}"),
    ("get", "{game}/view"),
    ("get", "{game}/view?at=1"),
    ("get", "{game}/view?wait=5"),
    ("get", "{game}/events?after=0"),
    ("get", "{game}/legal-commands"),
    ("get", "{game}/audit"),
    ("get", "{game}/stream"),
    ("get", "{game}/stream?after=0"),
    ("get", "{game}/stream?after=999"),
]
ACTION_DOORS = [
    ("post", "{game}/commands", {"type": "Pass"}),
    ("post", "{game}/join", {}),
    ("post", "{game}/leave", None),
    ("post", "{game}/start", None),
    ("post", "{game}/resign", None),
    ("post", "{game}/abort", None),
    ("post", "{game}/invites", {}),
    ("post", "{game}/rematch", None),
]


# legal-commands takes no anonymous caller: a 401 before any game is looked up
@pytest.mark.parametrize("who, method, path", [(who, method, path) for method, path in READ_DOORS
                                               for who in (OUTSIDER, ANONYMOUS)
                                               if not (who == ANONYMOUS and path.endswith("legal-commands"))])
def test_a_private_game_is_no_game_to_those_who_do_not_play_it(client, who, method, path):
    game_id, ada, _ = private_game(client, "door")
    caller, headers = _caller(client, who)
    answer = getattr(caller, method)("/v1/games/" + path.format(game=game_id), headers=headers)
    _as_no_game(answer, game_id)
    unknown = uuid.uuid4()
    assert getattr(caller, method)("/v1/games/" + path.format(game=unknown), headers=headers).status_code == 404
    assert ada.get("/v1/games/" + path.format(game=game_id).replace("?wait=5", "?wait=0")).status_code in (200, 422)


@pytest.mark.parametrize("method, path, body", ACTION_DOORS)
def test_a_private_game_refuses_the_actions_of_a_stranger_as_no_game(client, method, path, body):
    game_id, _, _ = private_game(client, "act", started=path != "{game}/join")
    caller, headers = _caller(client, OUTSIDER)
    answer = getattr(caller, method)("/v1/games/" + path.format(game=game_id), json=body, headers=headers)
    _as_no_game(answer, game_id)


def test_a_finished_private_game_is_exported_and_audited_for_its_players_only(client, service):
    game_id, ada, bob = private_game(client, "over")
    assert bob.post(f"/v1/games/{game_id}/resign").status_code == 200  # the other side wins: over
    assert service.score(uuid.UUID(game_id))  # an export ends in its standings
    assert client.get(f"/v1/games/{game_id}").status_code == 404
    for who in (OUTSIDER, ANONYMOUS):
        caller, headers = _caller(client, who)
        for door in ("export", "audit", "events?after=0", "view"):
            _as_no_game(caller.get(f"/v1/games/{game_id}/{door}", headers=headers), game_id)
    exported = ada.get(f"/v1/games/{game_id}/export")
    assert exported.status_code == 200 and exported.mimetype == "application/x-ndjson"
    audit = bob.get(f"/v1/games/{game_id}/audit")  # bob resigned: still one of its players
    assert audit.status_code == 200 and audit.json["log"] and audit.json["seed"]
    assert bob.get(f"/v1/games/{game_id}/view").status_code == 200


def test_a_stranger_s_stream_ticket_opens_no_private_game_and_stays_usable(client):
    game_id, ada, _ = private_game(client, "ticket")
    stranger = Player(client, "ticket-stranger")
    ticket = stranger.post("/v1/stream-tickets").json["ticket"]
    _as_no_game(client.get(f"/v1/games/{game_id}/stream?ticket={ticket}"), game_id)
    public = stranger.create()
    opened = HeldStream(client, f"/v1/games/{public}/stream?ticket={ticket}")
    assert opened.status == 200
    opened.close()
    mine = ada.post("/v1/stream-tickets").json["ticket"]
    held = HeldStream(client, f"/v1/games/{game_id}/stream?ticket={mine}")
    assert held.status == 200
    held.close()
    assert [m.event for m in held.messages()][0] == "view"


def test_the_players_of_a_private_game_see_every_door_as_before(client):
    game_id, ada, bob = private_game(client, "seated")
    version = ada.get(f"/v1/games/{game_id}").json["version"]
    for player in (ada, bob):
        for door in ("", "/view", f"/view?at={version}", "/events?after=0", "/legal-commands", "/audit"):
            assert player.get(f"/v1/games/{game_id}{door}").status_code == 200, door
        stream = HeldStream(client, f"/v1/games/{game_id}/stream", player.auth)
        assert stream.status == 200
        stream.close()
        assert "view" in [m.event for m in stream.messages()]


def test_lists_show_a_private_game_to_its_players_only(client):
    game_id, ada, _ = private_game(client, "listed")
    stranger = Player(client, "list-stranger")

    def listed(headers, **query):
        answer = client.get("/v1/games", headers=headers, query_string={"limit": 200, **query})
        return {g["id"] for g in answer.json["games"]}

    assert game_id in listed(ada.auth)
    assert game_id not in listed(stranger.auth) and game_id not in listed({})
    assert game_id not in listed(stranger.auth, player=ada.id)


def test_a_player_a_rematch_keeps_a_seat_for_sees_the_private_rematch_and_joins_it(client):
    game_id, ada, bob = private_game(client, "rematch")
    assert bob.post(f"/v1/games/{game_id}/resign").status_code == 200
    answer = ada.post(f"/v1/games/{game_id}/rematch")
    assert answer.status_code == 201, answer.json
    rematch = answer.json["id"]
    assert answer.json["options"]["visibility"] == "private"
    assert bob.get(f"/v1/games/{rematch}").status_code == 200  # kept a seat, not yet in it
    _as_no_game(client.get(f"/v1/games/{rematch}"), rematch)
    assert bob.post(f"/v1/games/{rematch}/join", json={}).status_code == 200
