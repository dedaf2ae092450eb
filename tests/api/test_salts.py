"""Salts (openapi/verifying-a-game.md, section 3.2): every event of a game
of chain version 2 carries in its metadata HMAC-SHA256(seed,
"boardlog/salt/<version>"), whatever path appended it; games of chain
version 1 are hashed as they always were."""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import uuid

from api.service.games import stream_of
from domain.session import CHAIN_VERSION
from tests.api.conftest import started_game


def play_with_bots(service, people, gid, rng, max_steps: int = 5000) -> None:
    """Players pick legal commands; when only a bot is to act, its job runs now."""
    for _ in range(max_steps):
        view = people[0].view(gid).json
        if view["status"] != "active":
            return
        acting = [p for p in people if p.view(gid).json["seat"] in view["to_act"]]
        if acting:
            response = acting[0].act(gid, rng.choice(acting[0].legal(gid)))
            assert response.status_code == 200, response.json
        else:
            assert service.bots.play_bots(gid, view["version"]), "nobody could act in an active game"
    raise AssertionError("the game did not end")


def _salt(seed: bytes, version: int) -> str:
    return hmac.new(seed, b"boardlog/salt/%d" % version, hashlib.sha256).hexdigest()


def test_new_games_are_recorded_with_chain_version_2():
    assert CHAIN_VERSION == 2


def test_every_event_of_a_game_lobby_play_lifecycle_and_scoring_holds_the_salt_of_its_version(players, service):
    ada, bob, cy = players(3)
    game_id = started_game([ada, bob, cy])
    gid = uuid.UUID(game_id)
    assert cy.post(f"/v1/games/{game_id}/resign").status_code == 200  # a lifecycle path
    play_with_bots(service, [ada, bob], gid, random.Random(3))
    assert service.score(gid)  # the scoring path
    assert ada.post(f"/v1/games/{game_id}/rematch").status_code == 201  # a rematch's link and a new game
    records = service.store.read_stream(stream_of(gid))
    assert records[0].data["chain_version"] == 2
    seed = service.seed(gid)
    assert [r.metadata.get("salt") for r in records] == [_salt(seed, r.version) for r in records]
    kinds = {r.type for r in records}
    assert {"GameCreated", "SeatTaken", "PlayersSeated", "SeatResigned", "GameOver", "GameScored",
            "RematchCreated"} <= kinds
    rematch = uuid.UUID(records[-1].data["game_id"])
    again = service.store.read_stream(stream_of(rematch))
    assert [r.metadata.get("salt") for r in again] == [_salt(service.seed(rematch), r.version) for r in again]


def test_the_salt_of_one_game_is_not_the_salt_of_another(players, service):
    ada, bob = players(2)
    first, second = (uuid.UUID(started_game([ada, bob])) for _ in range(2))
    salts = [service.store.read_stream(stream_of(gid), 1, 1)[0].metadata["salt"] for gid in (first, second)]
    assert salts[0] != salts[1]


def test_no_door_shows_a_salt_or_the_metadata_before_the_end(players, client, service):
    from domain.notices import notices_of
    from workers.notify.derive import derive

    ada, bob = players(2)
    game_id = started_game([ada, bob])
    gid = uuid.UUID(game_id)
    rng = random.Random(6)
    shown = []
    for _ in range(6):
        view = ada.view(game_id)
        shown.append(view.get_data(as_text=True))
        acting = ada if view.json["seat"] in view.json["to_act"] else bob
        shown.append(acting.act(game_id, rng.choice(acting.legal(game_id))).get_data(as_text=True))
    for viewer in (ada, bob):
        shown.append(viewer.get(f"/v1/games/{game_id}/events", query_string={"limit": 1000}).get_data(as_text=True))
        shown.append(viewer.get(f"/v1/games/{game_id}/stream?after=0").get_data(as_text=True))
    shown.append(client.get(f"/v1/games/{game_id}/audit").get_data(as_text=True))
    records = service.store.read_stream(stream_of(gid))
    shown += [json.dumps(notice.to_json()) for record in records for notice in notices_of(record)]
    shown += [json.dumps(notification.payload) for notification in derive(records, {game_id: "cronberg"})]
    assert client.get(f"/v1/games/{game_id}/export").status_code == 409
    salts = [record.metadata["salt"] for record in records]
    assert len(shown) > 15 and all(salt not in text for salt in salts for text in shown)
    # The feed says at which version each event's decision was taken (decided_at: where a replay may
    # rest, public as the batches are); the rest of the metadata (the salt, the draws, who sat) waits.
    assert not any('"salt"' in text or '"draws"' in text or '"seated"' in text for text in shown)
