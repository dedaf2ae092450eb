"""A notification carries nothing its recipient may not see. The leak
comparison: re-randomise everything a seat may not know in the stored log
(every game event's data, every command in the metadata) and the
notifications must stay byte-identical; and everything they do carry is in
the game's public summary."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from tests.support.hosted import seating
from domain import playout
from domain.engine import rng_for
from domain.session import ENGINE_EVENT_TYPES
from workers.notify.derive import derive

from .conftest import every_record, started_game

PUBLIC_DATA = {"seat", "player", "new_host", "reason", "players", "outcome", "standings", "to_act",
               "bot", "timeouts", "player_before", "rematch_id"}


def play(game_service, game_id, moves, seed):
    rng = random.Random(seed)
    for _ in range(moves):
        rules, session = game_service.load(game_id)
        if session.status != "active":
            break
        seat = sorted(rules.to_act(session.state))[0]
        command = playout.random_command(rules, session.state, seat, rng_for(str(rng.random()).encode(), 0))
        game_service.act(game_id, session.players[seat], command.to_json())
    rules, session = game_service.load(game_id)
    if session.status == "scoring":
        game_service.score(game_id)


def scrambled(record, rng):
    if record.type in ENGINE_EVENT_TYPES:
        data = record.data
    else:
        data = {"scrambled": rng.getrandbits(64), "type_was": record.type}
    metadata = {**record.metadata, "command": {"scrambled": rng.getrandbits(64)}}
    return dataclasses.replace(record, data=data, metadata=metadata, hash="0" * 64)


def feed(store):
    return every_record(store)


@pytest.mark.parametrize("game", sorted(seating(3)))
def test_notifications_stay_byte_identical_when_everything_hidden_is_re_randomised(game, game_service, store):
    players = [game_service.players.register(f"l{i}")[0] for i in range(3)]
    game_id = started_game(game_service, players, game=game)
    play(game_service, game_id, 60 if game != "cronberg" else 2000, seed=7)
    records = feed(store)
    names = {str(game_id): game}
    original = [json.dumps(n.payload, sort_keys=True) for n in derive(records, names)]
    kinds = {json.loads(p)["kind"] for p in original}
    assert {"turn", "started", "joined"} <= kinds
    if game == "cronberg":
        assert {"ended", "scored"} <= kinds, "cronberg is played to its end"
    for seed in (1, 2):
        rng = random.Random(seed)
        again = [json.dumps(n.payload, sort_keys=True) for n in derive([scrambled(r, rng) for r in records], names)]
        assert again == original


def test_what_a_notification_carries_is_in_the_games_public_summary(game_service, store, api):
    players = [game_service.players.register(f"s{i}")[0] for i in range(3)]
    game_id = started_game(game_service, players)
    play(game_service, game_id, 8, seed=3)
    game_service.seat_life.resign(game_id, players[1])  # a seat's life is told too
    notifications = derive(feed(store), {str(game_id): "cronberg"})
    assert "resigned" in {n.kind for n in notifications}
    for notification in notifications:
        payload = notification.payload
        assert set(payload["data"]) <= PUBLIC_DATA
        summary = api.get(f"/v1/games/{game_id}").json
        seats = {s["seat"]: s["player"] for s in summary["seats"]}
        assert payload["seat"] in seats and seats[payload["seat"]] == notification.player_id
        assert set(payload["seats"]) <= set(seats)
