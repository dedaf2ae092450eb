"""The legal commands are answered before Flask (api/http/legal_fast.py)
with the answer Flask gives: each request here goes to an app with the
layer and to one without it, over the same service, and the two answers
are compared field by field and byte by byte."""

from __future__ import annotations

import logging
import uuid

import pytest

from .both_paths import (  # noqa: F401 (fixtures)
    DATABASE_FAILURES, FALLS_THROUGH, ORIGIN, answered_503_once, apps, ask, ask_both, counting_app,
    database_fails, falling_through, fields, game, same,
)
from .test_private_games import private_game

LAYER = "boardlog_fast_legal_commands"


SWITCH, PREFIX = "FAST_LEGAL_COMMANDS", "fl"  # for both_paths' fixtures


def _app(service, fast: bool, per_minute: int = 1200):
    return counting_app(service, per_minute, FAST_LEGAL_COMMANDS=fast)


def _get(app, game_id, player, **kwargs):
    return ask(app, f"/v1/games/{game_id}/legal-commands", player, **kwargs)


def _both(apps, game_id, *args, **kwargs):
    """The answer with the layer, then Flask's; and whether the first came from the layer."""
    return ask_both(apps, LAYER, f"/v1/games/{game_id}/legal-commands", *args, **kwargs)


def _seated(game, who: str):
    game_id, acting, waiting, eve = game
    return {"at his turn": acting, "not at his turn": waiting, "without a seat": eve}[who]


@pytest.mark.parametrize("who", ["at his turn", "not at his turn", "without a seat"])
def test_legal_commands_answered_before_flask_are_flasks_answer_byte_for_byte(apps, game, who):
    game_id = game[0]
    fast_answer, flask_answer, answered_here = _both(apps, game_id, _seated(game, who))
    assert answered_here
    assert fast_answer.status_code == 200, fast_answer.json
    assert bool(fast_answer.json["commands"]) == (who == "at his turn")
    assert (fast_answer.json["seat"] is None) == (who == "without a seat")
    same(fast_answer, flask_answer)


def test_the_legal_commands_of_a_finished_game_answered_before_flask_are_flasks(service, apps, game):
    game_id, acting, waiting, _ = game
    assert waiting.post(f"/v1/games/{game_id}/resign").status_code == 200
    service.score(uuid.UUID(game_id))
    assert acting.view(game_id).json["status"] == "finished"
    for player in (acting, waiting):
        fast_answer, flask_answer, answered_here = _both(apps, game_id, player)
        assert answered_here and fast_answer.status_code == 200 and fast_answer.json["commands"] == []
        same(fast_answer, flask_answer)


def test_legal_commands_answered_before_flask_are_gzipped_as_flasks(apps, game, monkeypatch):
    from api.http import http_conventions

    monkeypatch.setattr(http_conventions, "GZIP_MIN_BYTES", 50)  # a seat not to act gets some 70 bytes
    game_id, acting, waiting, _ = game
    for player in (acting, waiting):
        fast_answer, flask_answer, answered_here = _both(apps, game_id, player, {"Accept-Encoding": "gzip"})
        assert answered_here
        assert fast_answer.headers.get("Content-Encoding") == "gzip"
        same(fast_answer, flask_answer)
    fast_answer, flask_answer, answered_here = _both(apps, game_id, acting, {"Accept-Encoding": "gzip;q=0"})
    assert answered_here and "Content-Encoding" not in fast_answer.headers
    same(fast_answer, flask_answer)


def test_a_conditional_get_of_the_legal_commands_gets_the_whole_answer_as_from_flask(apps, game):
    """The view sets no ETag and reads no If-None-Match: neither does the layer."""
    game_id, acting, _, _ = game
    for tag in ('"1"', "*", 'W/"12-3f9a0c1b2d4e"'):
        fast_answer, flask_answer, answered_here = _both(apps, game_id, acting, {"If-None-Match": tag})
        assert answered_here and fast_answer.status_code == 200 and "ETag" not in fast_answer.headers
        same(fast_answer, flask_answer)


def test_legal_commands_without_an_origin_or_a_request_id_are_flasks(apps, game):
    game_id, acting, _, _ = game
    fast_answer, flask_answer, answered_here = _both(apps, game_id, acting, {"Origin": ""})
    assert answered_here and "Access-Control-Allow-Origin" not in fast_answer.headers
    same(fast_answer, flask_answer)
    fast, _ = apps
    answer = fast.test_client().get(f"/v1/games/{game_id}/legal-commands", headers=acting.auth)
    assert len(answer.headers["X-Request-Id"]) == 32


CASES = {**FALLS_THROUGH, "no token": dict(player=None)}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_request_the_layer_cannot_answer_reaches_flask_and_gets_its_answer(apps, game, case):
    fast_answer, flask_answer, answered_here = falling_through(lambda *a, **k: _both(apps, *a, **k), game,
                                                               CASES[case])
    assert not answered_here
    same(fast_answer, flask_answer)


def test_the_legal_commands_of_a_game_not_held_reach_flask_which_holds_it_again(service, apps, game):
    fast, _ = apps
    game_id, acting, _, _ = game
    service.history.forget(uuid.UUID(game_id))
    fast_answer, flask_answer, answered_here = _both(apps, game_id, acting)
    assert not answered_here and fast_answer.status_code == 200
    same(fast_answer, flask_answer)
    again, _, answered_here = _both(apps, game_id, acting)
    assert answered_here
    assert again.data == fast_answer.data


def test_a_private_game_is_answered_before_flask_to_its_players_and_by_flask_to_others(apps, client, game):
    game_id, ada, bob = private_game(client, f"fl-private-{uuid.uuid4().hex[:6]}")
    for player in (ada, bob):
        fast_answer, flask_answer, answered_here = _both(apps, game_id, player)
        assert answered_here and fast_answer.status_code == 200
        same(fast_answer, flask_answer)
    eve = game[3]
    fast_answer, flask_answer, answered_here = _both(apps, game_id, eve)
    assert not answered_here and fast_answer.status_code == 404
    same(fast_answer, flask_answer)


def test_the_layer_counts_against_the_rate_limit_and_logs_its_line(apps, game, caplog):
    fast, _ = apps
    game_id, acting, _, _ = game
    with caplog.at_level(logging.INFO, logger="boardlog.requests"):
        answers = [_get(fast, game_id, acting) for _ in range(3)]
    assert fast.extensions[LAYER].answered == 3 and not fast.flask_requests
    assert [a.headers["RateLimit"].partition(";r=")[2].partition(";")[0] for a in answers] == ["1199", "1198", "1197"]
    lines = [r.getMessage() for r in caplog.records if r.name == "boardlog.requests"]
    assert len(lines) == 3
    assert all(line.startswith(f"GET /v1/games/{game_id}/legal-commands 200 ") and
               line.endswith(f"player={acting.id}") for line in lines)


def test_legal_commands_over_the_rate_limit_get_flasks_429(service, game):
    game_id, acting, _, _ = game
    fast = _app(service, fast=True, per_minute=2)
    answers = [_get(fast, game_id, acting) for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 429]
    assert fast.extensions[LAYER].answered == 2 and len(fast.flask_requests) == 1
    assert answers[2].headers["Retry-After"] and answers[2].json["type"].endswith("rate-limited")


def test_legal_commands_without_rate_limits_are_flasks(service, game):
    unlimited = _app(service, fast=True, per_minute=0), _app(service, fast=False, per_minute=0)
    fast_answer, flask_answer, answered_here = _both(unlimited, game[0], game[1])
    assert answered_here and "RateLimit" not in fast_answer.headers
    same(fast_answer, flask_answer)


def test_switched_off_every_get_of_the_legal_commands_goes_through_flask(service):
    assert LAYER not in _app(service, fast=False).extensions


@pytest.mark.parametrize("failure", DATABASE_FAILURES)
def test_legal_commands_the_database_cannot_serve_get_flasks_503_after_one_wait_not_two(service, apps, game, monkeypatch, failure):
    calls = database_fails(monkeypatch, service, "load_for_reading", failure)
    answered_503_once(lambda: _both(apps, game[0], game[1]), calls)
