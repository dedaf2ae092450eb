"""Hidden information through the API's frame: whatever door a seated player
or a spectator knocks on before the end (view, ?at=, feed, legal commands, a
command's answer, its idempotent replay), Cronberg's stack order stays out."""

import json
import random
import uuid

from tests.api.conftest import play_until_over, started_game


def _shows_the_stack(payload) -> bool:
    return '"stack":' in json.dumps(payload)


def test_no_door_of_the_api_shows_the_stack_order_before_the_end_and_every_door_does_after(players, client):
    ada, bob = players(2)
    game_id = started_game([ada, bob], options={"players": 2, "rounds": 2})
    rng = random.Random(11)
    seen = []
    for _ in range(500):
        view = ada.view(game_id).json
        if view["status"] != "active":
            break
        acting = ada if view["seat"] in view["to_act"] else bob
        key = {"Idempotency-Key": uuid.uuid4().hex}
        command = rng.choice(acting.legal(game_id))
        first, replay = acting.act(game_id, command, headers=key), acting.act(game_id, command, headers=key)
        assert first.status_code == replay.status_code == 200
        if first.json["status"] == "active":
            seen += [first.json, replay.json]
            for viewer in (ada, bob):
                seen += [viewer.view(game_id).json, viewer.get(f"/v1/games/{game_id}/legal-commands").json,
                         viewer.view(game_id, query_string={"at": first.json["version"]}).json]
            seen.append(client.get(f"/v1/games/{game_id}/view").json)
    else:
        raise AssertionError("the game did not end")
    assert [part for part in seen if _shows_the_stack(part)] == []

    # The second round's RoundStarted was answered to a player while the game ran:
    # the feed of that version, asked now, shows everything, as after any end.
    feed = ada.get(f"/v1/games/{game_id}/events", query_string={"limit": 1000}).json["events"]
    rounds = [event for event in feed if event["type"] == "RoundStarted"]
    assert len(rounds) == 2 and all("stack" in event["data"] for event in rounds)
    assert _shows_the_stack(client.get(f"/v1/games/{game_id}/view").json)


def test_a_player_and_a_spectator_see_the_stack_size_but_not_its_order_in_the_feed(players, client):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    for feed in (ada.get(f"/v1/games/{game_id}/events").json, client.get(f"/v1/games/{game_id}/events").json):
        (started,) = [event for event in feed["events"] if event["type"] == "RoundStarted"]
        assert "stack" not in started["data"] and started["data"]["stack_size"] > 0


def test_once_the_game_is_over_a_past_version_shows_everything_to_anyone_replaying_it(players, client):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    start = ada.view(game_id).json["version"]
    before = ada.view(game_id, query_string={"at": start})
    assert not _shows_the_stack(before.json)
    play_until_over([ada, bob], game_id, random.Random(4))
    for response in (ada.view(game_id, query_string={"at": start}), client.get(f"/v1/games/{game_id}/view?at={start}")):
        assert response.status_code == 200
        assert response.json["version"] == start and response.json["status"] == "active"
        assert _shows_the_stack(response.json)
        assert response.headers["ETag"] != before.headers["ETag"]
