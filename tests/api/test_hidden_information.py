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


# A seat's life: who sees the seat's secrets after a resignation, an abandonment, a replacement


def _feed(viewer, game_id):
    return viewer.get(f"/v1/games/{game_id}/events", query_string={"limit": 1000}).json["events"]


def _play_with_bots(service, game_id, players_by_seat, rng, moves):
    """``moves`` decisions by whoever is to act: a player's random legal command, or the bot's job."""
    anyone = next(iter(players_by_seat.values()))
    for _ in range(moves):
        view = anyone.view(game_id).json
        if view["status"] != "active":
            return
        seat = sorted(view["to_act"])[0]
        if seat in view["bots"]:
            assert service.bots.play_bots(uuid.UUID(game_id), view["version"])
        else:
            player = players_by_seat[seat]
            assert player.act(game_id, rng.choice(player.legal(game_id))).status_code == 200


def test_a_resigned_player_sees_what_a_spectator_sees_and_keeps_what_his_seat_showed_him_before(
        players, client, service):
    from domain.notices import notices_of

    ada, bob, cy = players(3)
    game_id = started_game([ada, bob, cy], "court-of-miracles", {"players": 3})
    dealt = [e for e in _feed(bob, game_id) if e["type"] == "PlotsDrawn" and e["data"]["seat"] == "p2"]
    assert dealt and all(e["data"]["cards"] for e in dealt)  # his own Plot cards, while he holds p2
    assert bob.post(f"/v1/games/{game_id}/resign").status_code == 200
    resigned_at = bob.view(game_id).json["version"]
    _play_with_bots(service, game_id, {"p1": ada, "p3": cy}, random.Random(5), 40)
    moved = [e for e in _feed(ada, game_id) if e["version"] > resigned_at and e["seat"] == "p2"]
    assert moved, "the bot never played p2"

    spectator = client.get(f"/v1/games/{game_id}/view").json
    assert bob.view(game_id).json == spectator and spectator["seat"] is None
    for version in (resigned_at, spectator["version"]):
        at = {"at": version}
        assert bob.view(game_id, query_string=at).json == client.get(f"/v1/games/{game_id}/view", query_string=at).json
    assert bob.get(f"/v1/games/{game_id}/legal-commands").json["seat"] is None and bob.legal(game_id) == []
    bobs, anyones = _feed(bob, game_id), _feed(client, game_id)
    assert bobs[resigned_at - 1:] == anyones[resigned_at - 1:]
    # What p2 showed him before he left is still his.
    assert bobs[: resigned_at - 1] != anyones[: resigned_at - 1]
    assert [e for e in bobs if e["type"] == "PlotsDrawn" and e["version"] < resigned_at] == [
        e for e in _feed(bob, game_id) if e["type"] == "PlotsDrawn" and e["version"] < resigned_at]
    before = bob.view(game_id, query_string={"at": resigned_at - 1}).json
    assert before["seat"] == "p2" and before["view"]["players"][1]["hand"] is not None
    # No "your turn" for the bot's seat.
    turns = [n for r in service.store.read_stream(f"game-{game_id}") for n in notices_of(r)
             if n.kind == "turn" and n.version > resigned_at]
    assert any("p2" in n.seats for n in turns) is False and all(bob.id not in n.players for n in turns)
    assert [n for n in turns if n.seats]  # the others are still told their turns


def test_an_abandoned_player_sees_what_a_spectator_sees_until_he_takes_his_seat_back(players, client, service):
    ada, bob, cy = players(3)
    game_id = started_game([ada, bob, cy], "court-of-miracles", {"players": 3, "abandon_after": 1})
    seats = {"p1": ada, "p2": bob, "p3": cy}
    rng = random.Random(6)
    for _ in range(60):
        view = ada.view(game_id).json
        if view["to_act"] == ["p2"]:
            break
        _play_with_bots(service, game_id, seats, rng, 1)
    assert service.fire_deadline(uuid.UUID(game_id), ada.view(game_id).json["version"])
    assert ada.view(game_id).json["bots"].keys() == {"p2"}
    abandoned_at = next(e["version"] for e in _feed(ada, game_id) if e["type"] == "SeatAbandoned")
    _play_with_bots(service, game_id, {"p1": ada, "p3": cy}, rng, 20)
    assert bob.view(game_id).json == client.get(f"/v1/games/{game_id}/view").json
    assert _feed(bob, game_id)[abandoned_at - 1:] == _feed(client, game_id)[abandoned_at - 1:]

    code = ada.post(f"/v1/games/{game_id}/invites", json={"seat": "p2"}).json["code"]
    assert bob.post(f"/v1/games/{game_id}/invites/redeem", json={"code": code}).status_code == 200
    view = bob.view(game_id).json
    assert view["seat"] == "p2" and view["view"]["players"][1]["hand"] is not None
    assert _feed(bob, game_id) != _feed(client, game_id)


def test_after_a_replacement_the_new_holder_sees_the_seat_s_past_in_view_at_as_in_his_feed(players, client, service):
    ada, bob, cy, dan = players(4)
    game_id = started_game([ada, bob, cy], "court-of-miracles", {"players": 3, "abandon_after": 1})
    seats = {"p1": ada, "p2": bob, "p3": cy}
    rng = random.Random(7)
    for _ in range(60):
        if ada.view(game_id).json["to_act"] == ["p2"]:
            break
        _play_with_bots(service, game_id, seats, rng, 1)
    before = ada.view(game_id).json["version"]
    bobs_view = bob.view(game_id, query_string={"at": before}).json
    assert service.fire_deadline(uuid.UUID(game_id), before)
    code = ada.post(f"/v1/games/{game_id}/invites", json={"seat": "p2"}).json["code"]
    assert dan.post(f"/v1/games/{game_id}/invites/redeem", json={"code": code}).status_code == 200

    dans_view = dan.view(game_id, query_string={"at": before}).json
    assert dans_view["seat"] == "p2" and dans_view == bobs_view  # the seat's view, as his feed shows its past
    assert bob.view(game_id, query_string={"at": before}).json == bobs_view  # bob keeps what p2 showed him
    dans_feed, bobs_feed = _feed(dan, game_id), _feed(bob, game_id)
    assert dans_feed[:before] == bobs_feed[:before]
    assert dans_feed[:before] != _feed(client, game_id)[:before]
