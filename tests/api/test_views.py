import random
import threading
import time

from tests.api.conftest import play_until_over, started_game


def test_a_view_carries_an_etag_of_the_version_per_viewer(players):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    a, b = ada.view(game_id), bob.view(game_id)
    assert a.headers["ETag"].startswith(f'"{a.json["version"]}-')
    assert a.headers["ETag"] != b.headers["ETag"]


def test_if_none_match_answers_304_without_replaying_the_game(players, service, monkeypatch):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    etag = ada.view(game_id).headers["ETag"]

    def no_replay(*args, **kwargs):
        raise AssertionError("a conditional poll replayed the game")

    monkeypatch.setattr(service, "load", no_replay)
    response = ada.view(game_id, headers={"If-None-Match": etag})
    assert response.status_code == 304
    assert response.headers["ETag"] == etag


def test_another_viewers_etag_does_not_give_a_304(players):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    etag = bob.view(game_id).headers["ETag"]
    assert ada.view(game_id, headers={"If-None-Match": etag}).status_code == 200


def test_wait_holds_the_poll_until_the_game_moves(players, app):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    view = ada.view(game_id)
    acting = ada if view.json["seat"] in view.json["to_act"] else bob
    command = acting.legal(game_id)[0]
    threading.Timer(0.5, lambda: app.test_client().post(
        f"/v1/games/{game_id}/commands", json=command, headers=acting.auth)).start()
    response = ada.view(game_id, query_string={"wait": 20}, headers={"If-None-Match": view.headers["ETag"]})
    assert response.status_code == 200
    assert response.json["version"] > view.json["version"]


def test_wait_ends_with_a_304_when_nothing_moves(players):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    etag = ada.view(game_id).headers["ETag"]
    started = time.monotonic()
    response = ada.view(game_id, query_string={"wait": 1}, headers={"If-None-Match": etag})
    assert response.status_code == 304
    assert time.monotonic() - started >= 0.9


def test_wait_above_sixty_seconds_is_refused(players):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    assert ada.view(game_id, query_string={"wait": 61}).status_code == 422


def test_at_gives_the_callers_view_at_a_past_version(players):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    past = ada.view(game_id).json
    acting = ada if past["seat"] in past["to_act"] else bob
    acting.act(game_id, acting.legal(game_id)[0])
    then = ada.view(game_id, query_string={"at": past["version"]}).json
    assert then == past
    assert ada.view(game_id, query_string={"at": 10_000}).status_code == 422


def test_a_spectator_sees_the_public_view(players, client):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    response = client.get(f"/v1/games/{game_id}/view")
    assert response.status_code == 200
    assert response.json["seat"] is None
    assert response.json["view"] is not None


def test_a_lobby_has_no_game_view_yet(players):
    (ada,) = players(1)
    game_id = ada.create()
    view = ada.view(game_id).json
    assert view["status"] == "lobby" and view["view"] is None


def test_after_the_end_everyone_sees_everything_and_the_standings(players, service, client):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    play_until_over([ada, bob], game_id, random.Random(3))
    assert ada.view(game_id).json["status"] == "scoring"
    service.score(__import__("uuid").UUID(game_id))
    final = [ada.view(game_id).json, bob.view(game_id).json, client.get(f"/v1/games/{game_id}/view").json]
    assert final[0]["view"] == final[1]["view"] == final[2]["view"]
    assert final[0]["status"] == "finished"
    assert {s["seat"] for s in final[0]["standings"]} == {"p1", "p2"}


def test_an_empty_or_garbled_if_none_match_is_ignored(players):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    for header in ('""', "*x", '"nonsense"', 'W/""', ","):
        assert ada.view(game_id, headers={"If-None-Match": header}).status_code == 200, header


def test_at_a_version_in_the_middle_of_one_move_is_a_422_naming_where_the_move_ends_not_a_500(players, client):
    # The Coil's view cannot be drawn halfway through its setup; nobody ever
    # saw the game there, so ?at= only lands where the game rested.
    ada, bob = players(2)
    game_id = started_game([ada, bob], game="the-coil")
    start = ada.view(game_id).json["version"]
    records = client.get(f"/v1/games/{game_id}/events", query_string={"limit": 1000}).json["events"]
    started_at = next(e["version"] for e in records if e["type"] == "PlayersSeated")
    assert start - started_at >= 2, "the setup should write several events"
    for viewer in (ada, bob):
        for version in range(started_at, start):
            response = viewer.view(game_id, query_string={"at": version})
            assert response.status_code == 422, (version, response.json)
            assert response.mimetype == "application/problem+json"
            assert f"ask for version {start} or {started_at - 1}" in response.json["detail"]
        assert viewer.view(game_id, query_string={"at": start}).json == viewer.view(game_id).json
        assert viewer.view(game_id, query_string={"at": started_at - 1}).status_code == 200
    assert client.get(f"/v1/games/{game_id}/view", query_string={"at": started_at + 1}).status_code == 422


def test_if_none_match_star_is_a_304_and_if_match_star_lets_any_version_act(players):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    view = ada.view(game_id)
    assert ada.view(game_id, headers={"If-None-Match": "*"}).status_code == 304
    acting = ada if view.json["seat"] in view.json["to_act"] else bob
    response = acting.act(game_id, acting.legal(game_id)[0], headers={"If-Match": "*"})
    assert response.status_code == 200, response.json
