"""A command is answered before Flask (api/http/commands_fast.py) with the
answer Flask gives it: each request here goes to an app with the fast path
and to one without it, over the same service, and the two answers are
compared field by field and byte by byte, refusals included."""

from __future__ import annotations

import json
import logging
import uuid

import pytest

from api.http.app import create_app

from .both_paths import ORIGIN, SAME_ID, apps, counting_app, fields, game, same  # noqa: F401 (fixtures)
from .conftest import Player, started_game

SWITCH, PREFIX = "FAST_COMMANDS", "fc"  # for both_paths' fixtures


def _app(service, fast: bool, per_minute: int = 1200):
    return counting_app(service, per_minute, FAST_COMMANDS=fast)


def _post(app, game_id, player, body, headers=None, raw=None):
    headers = {**SAME_ID, "Origin": ORIGIN, **(player.auth if player else {}), **(headers or {})}
    data = raw if raw is not None else json.dumps(body)
    return app.test_client().post(f"/v1/games/{game_id}/commands", data=data, headers=headers,
                                  content_type=headers.pop("Content-Type", "application/json"))


def _both(apps, *args, **kwargs):
    """The answer with the fast path, then Flask's; and whether the first came from the fast path."""
    fast, flask_only = apps
    before, flask_seen = fast.extensions["boardlog_fast_commands"].answered, len(fast.flask_requests)
    first = _post(fast, *args, **kwargs)
    answered_here = fast.extensions["boardlog_fast_commands"].answered > before
    assert answered_here == (len(fast.flask_requests) == flask_seen)
    return first, _post(flask_only, *args, **kwargs), answered_here


def _version(service, game_id) -> int:
    return service.store.stream_version(f"game-{game_id}")


REFUSALS = {
    "a stale If-Match": lambda acting, waiting, eve, move: (acting, move, {"If-Match": '"1"'}, 412),
    "an illegal move": lambda acting, waiting, eve, move: (acting, {"type": "PlaceMember", "crossing": "nowhere"}, {}, 422),
    "a move out of turn": lambda acting, waiting, eve, move: (waiting, move, {}, 409),
    "a player without a seat": lambda acting, waiting, eve, move: (eve, move, {}, 403),
}


@pytest.mark.parametrize("case", sorted(REFUSALS))
def test_a_refused_command_answered_before_flask_is_refused_as_flask_refuses_it(service, apps, game, case):
    game_id, acting, waiting, eve = game
    move = acting.legal(game_id)[0]
    player, body, headers, status = REFUSALS[case](acting, waiting, eve, move)
    before = _version(service, game_id)
    fast_answer, flask_answer, answered_here = _both(apps, game_id, player, body, headers)
    assert answered_here
    assert fast_answer.status_code == status, fast_answer.json
    assert fast_answer.mimetype == "application/problem+json"
    same(fast_answer, flask_answer)
    assert _version(service, game_id) == before


MOVE = object()  # the legal move of the player to act
NOBODY = object()  # a token nobody has

FALLS_THROUGH = {
    "malformed JSON": dict(raw="{not json"),
    "no body": dict(raw=""),
    "missing fields": dict(body={"type": "PlaceMember"}),
    "a field of the wrong type": dict(body={"type": "PlaceMember", "crossing": 7, "extra": True}),
    "an unknown type": dict(body={"type": "Castle"}),
    "a body that is not an object": dict(body=["PlaceMember"]),
    "text PostgreSQL cannot store": dict(body={"type": "PlaceMember", "crossing": "a\u0000b"}),
    "a number too long": dict(raw='{"type": "PlaceMember", "crossing": ' + "1" * 101 + "}"),
    "a form instead of JSON": dict(raw="type=PlaceMember", headers={"Content-Type": "application/x-www-form-urlencoded"}),
    "an Idempotency-Key that is not one": dict(headers={"Idempotency-Key": "\x7f"}),
    "an If-Match that is no version": dict(headers={"If-Match": '"soon"'}),
    "an unknown token": dict(player=NOBODY),
    "no token": dict(player=None),
    "an unknown game": dict(game="00000000-0000-4000-8000-000000000000"),
    "a game id that is no id": dict(game="0000000000000000000000000000000g"),
}


@pytest.mark.parametrize("case", sorted(FALLS_THROUGH))
def test_a_command_the_fast_path_cannot_judge_gets_flasks_answer(service, apps, game, case):
    game_id, acting, _, _ = game
    spec = FALLS_THROUGH[case]
    player = spec.get("player", acting)
    if player is NOBODY:
        player = Player.__new__(Player)
        player.token = "not-a-token-anyone-has"
    body = spec.get("body", MOVE)
    before = _version(service, game_id)
    fast_answer, flask_answer, answered_here = _both(
        apps, spec.get("game", game_id), player, acting.legal(game_id)[0] if body is MOVE else body,
        spec.get("headers"), spec.get("raw"))
    assert not answered_here
    assert fast_answer.status_code >= 400
    same(fast_answer, flask_answer)
    assert _version(service, game_id) == before


def test_a_command_with_a_query_goes_to_flask(service, apps, game):
    fast, flask_only = apps
    game_id, acting, _, _ = game
    url, headers = f"/v1/games/{game_id}/commands?x=1", {**SAME_ID, **acting.auth}
    answers = [app.test_client().post(url, json={"type": "PlaceMember", "crossing": "nowhere"}, headers=headers)
               for app in apps]
    assert fast.extensions["boardlog_fast_commands"].answered == 0
    same(*answers)


def test_a_legal_command_answered_before_flask_is_flasks_answer(service, apps, game, monkeypatch):
    """Two games dealt from one seed, one move each: one answered before
    Flask, one by Flask. The answers are the same, but for what names the
    game itself (the receipt's chain hash and its signature)."""
    fast, flask_only = apps
    _, acting, waiting, _ = game
    seed = service.seeds()
    monkeypatch.setattr(service, "seeds", lambda: seed)
    games = [started_game([acting, waiting]) for _ in range(2)]
    moves = [acting.legal(game_id)[0] for game_id in games]
    assert moves[0] == moves[1]
    before = fast.extensions["boardlog_fast_commands"].answered
    fast_answer = _post(fast, games[0], acting, moves[0])
    flask_answer = _post(flask_only, games[1], acting, moves[1])
    assert fast.extensions["boardlog_fast_commands"].answered == before + 1
    assert fast_answer.status_code == 200, fast_answer.json
    assert fields(fast_answer) == fields(flask_answer)
    fast_body, flask_body = fast_answer.json, flask_answer.json
    fast_receipt, flask_receipt = fast_body.pop("receipt"), flask_body.pop("receipt")
    assert fast_body == flask_body
    assert (fast_receipt is None) == (flask_receipt is None)
    if fast_receipt is not None:
        assert fast_receipt.keys() == flask_receipt.keys()
        # The bytes, with the other game's own values in place of this one's.
        data = fast_answer.data
        for name, value in fast_receipt.items():
            if value != flask_receipt[name] and isinstance(value, str):
                data = data.replace(value.encode(), flask_receipt[name].encode())
        assert data == flask_answer.data
    else:
        assert fast_answer.data == flask_answer.data


def test_a_command_sent_twice_with_one_key_through_either_path_is_stored_once(service, apps, game):
    fast, flask_only = apps
    game_id, acting, _, _ = game
    move = acting.legal(game_id)[0]
    key = {"Idempotency-Key": f"once-{uuid.uuid4()}"}
    before = _version(service, game_id)
    first = _post(fast, game_id, acting, move, key)
    assert first.status_code == 200 and "Idempotent-Replayed" not in first.headers
    moved = _version(service, game_id)
    assert moved > before
    again_by_flask, again_here, answered_here = _both(apps, game_id, acting, move, key)
    assert answered_here
    assert again_here.headers["Idempotent-Replayed"] == again_by_flask.headers["Idempotent-Replayed"] == "true"
    same(again_by_flask, again_here)
    assert again_here.data == first.data
    assert [field for field in fields(again_here) if field[0] != "Idempotent-Replayed"] == fields(first)
    other = {"type": "PlaceMember", "crossing": "nowhere"}
    reused_here, reused_by_flask, _ = _both(apps, game_id, acting, other, key)
    same(reused_here, reused_by_flask)
    assert reused_here.status_code == 422
    assert _version(service, game_id) == moved


def test_a_command_first_sent_to_flask_is_replayed_before_flask(service, apps, game):
    fast, flask_only = apps
    game_id, acting, _, _ = game
    move = acting.legal(game_id)[0]
    key = {"Idempotency-Key": f"once-{uuid.uuid4()}"}
    first = _post(flask_only, game_id, acting, move, key)
    moved = _version(service, game_id)
    before = fast.extensions["boardlog_fast_commands"].answered
    again = _post(fast, game_id, acting, move, key)
    assert fast.extensions["boardlog_fast_commands"].answered == before + 1
    assert again.headers["Idempotent-Replayed"] == "true" and again.data == first.data
    assert _version(service, game_id) == moved


def test_an_answer_before_flask_is_gzipped_as_flasks(service, apps, game, monkeypatch):
    from api.http import http_conventions

    monkeypatch.setattr(http_conventions, "GZIP_MIN_BYTES", 100)  # a command's answer is some 600 bytes
    fast, flask_only = apps
    game_id, acting, _, _ = game
    move = acting.legal(game_id)[0]
    key = {"Idempotency-Key": f"zip-{uuid.uuid4()}", "Accept-Encoding": "gzip"}
    first = _post(flask_only, game_id, acting, move, key)  # then both paths give it again
    fast_answer, flask_answer, answered_here = _both(apps, game_id, acting, move, key)
    assert answered_here
    assert first.headers["Content-Encoding"] == "gzip"
    assert fast_answer.headers.get("Content-Encoding") == first.headers.get("Content-Encoding")
    same(fast_answer, flask_answer)
    refused_here, refused_by_flask, answered_here = _both(apps, game_id, acting, move, {**key, "If-Match": '"1"'})
    same(refused_here, refused_by_flask)


def test_the_fast_path_counts_against_the_rate_limit_and_logs_its_line(service, apps, game, caplog):
    fast, _ = apps
    game_id, acting, waiting, _ = game
    move = acting.legal(game_id)[0]
    with caplog.at_level(logging.INFO, logger="boardlog.requests"):
        answers = [_post(fast, game_id, waiting, move) for _ in range(3)]
    assert [a.status_code for a in answers] == [409] * 3
    assert [a.headers["RateLimit"].partition(";r=")[2].partition(";")[0] for a in answers] == ["1199", "1198", "1197"]
    lines = [r.getMessage() for r in caplog.records if r.name == "boardlog.requests"]
    assert len(lines) == 3
    assert all(line.startswith(f"POST /v1/games/{game_id}/commands 409 ") and
               line.endswith(f"player={waiting.id}") for line in lines)


def test_switched_off_every_command_goes_through_flask(service):
    assert "boardlog_fast_commands" not in _app(service, fast=False).extensions


@pytest.mark.parametrize("key", ["k", "a" * 200, "a" * 201, "\x7f", "tab\there", "é", "a b~", "\u2028", " "])
def test_the_fast_path_takes_the_idempotency_keys_flask_takes(app, key):
    from api.http.commands_fast import _documented_key
    from api.http.idempotency import idempotency_key
    from api.service.errors import InvalidRequest

    with app.test_request_context(headers={"Idempotency-Key": key}):
        try:
            taken = idempotency_key() == key
        except InvalidRequest:
            taken = False
    assert _documented_key(key) == taken


def test_a_command_for_a_private_game_or_a_game_not_held_goes_to_flask(service, apps, client, game):
    from .test_private_games import private_game

    fast, _ = apps
    game_id, ada, bob = private_game(client, f"fc-private-{uuid.uuid4().hex[:6]}")
    acting = next(p for p in (ada, bob) if p.view(game_id).json["seat"] in p.view(game_id).json["to_act"])
    move = acting.legal(game_id)[0]
    fast_answer, flask_answer, answered_here = _both(apps, game_id, acting, move, {"If-Match": '"1"'})
    assert not answered_here and fast_answer.status_code == 412
    same(fast_answer, flask_answer)
    public_id, acting, _, _ = game
    move = acting.legal(public_id)[0]
    service.history.forget(uuid.UUID(public_id))
    before = fast.extensions["boardlog_fast_commands"].answered
    answer = _post(fast, public_id, acting, move)
    assert answer.status_code == 200, answer.json
    assert fast.extensions["boardlog_fast_commands"].answered == before  # Flask's, which holds the game again
    assert _post(fast, public_id, acting, move, {"If-Match": '"1"'}).status_code == 412
    assert fast.extensions["boardlog_fast_commands"].answered == before + 1


def test_a_command_over_the_rate_limit_gets_flasks_429(service, game):
    game_id, acting, waiting, _ = game
    move = acting.legal(game_id)[0]
    fast = create_app({"RATE_LIMIT_PER_MINUTE": 2, "CORS_ORIGINS": ORIGIN, "FAST_COMMANDS": True}, service=service)
    layer = fast.extensions["boardlog_fast_commands"]
    answers = [_post(fast, game_id, waiting, move) for _ in range(3)]
    assert [a.status_code for a in answers] == [409, 409, 429]
    assert layer.answered == 2
    assert answers[2].headers["Retry-After"] and answers[2].json["type"].endswith("rate-limited")
