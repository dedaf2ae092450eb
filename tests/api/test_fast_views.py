"""A view's 200 is answered before Flask (api/http/view_fast.py) with the
answer Flask gives: each request here goes to an app with the layer and
to one without it, over the same service, and the two answers are
compared field by field and byte by byte."""

from __future__ import annotations

import logging
import uuid

import pytest

from api.http.app import create_app
from api.service.games import GameService

from .both_paths import (  # noqa: F401 (fixtures)
    DATABASE_FAILURES, FALLS_THROUGH, ORIGIN, answered_503_once, apps, ask, ask_both, counting_app,
    database_fails, falling_through, game, same,
)
from .conftest import Player
from .test_private_games import private_game

LAYER = "boardlog_fast_views"

SWITCH, PREFIX = "FAST_VIEWS", "fv"  # for both_paths' fixtures


def _app(service, fast: bool, per_minute: int = 1200):
    return counting_app(service, per_minute, FAST_VIEWS=fast)


def _get(app, game_id, player, **kwargs):
    return ask(app, f"/v1/games/{game_id}/view", player, **kwargs)


def _both(apps, game_id, *args, **kwargs):
    """The answer with the layer, then Flask's; and whether the first came from the layer."""
    # A 304 may be the polls' layer's (api/http/polls.py), before both.
    return ask_both(apps, LAYER, f"/v1/games/{game_id}/view", *args, others=True, **kwargs)


def _viewer(game, who: str):
    game_id, acting, waiting, eve = game
    return {"at his turn": acting, "not at his turn": waiting, "without a seat": eve, "without a token": None}[who]


@pytest.mark.parametrize("who", ["at his turn", "not at his turn", "without a seat", "without a token"])
def test_a_view_answered_before_flask_is_flasks_answer_byte_for_byte(apps, game, who):
    fast_answer, flask_answer, answered_here = _both(apps, game[0], _viewer(game, who))
    assert answered_here
    assert fast_answer.status_code == 200, fast_answer.json
    assert (fast_answer.json["seat"] is None) == (who in ("without a seat", "without a token"))
    assert fast_answer.headers["ETag"]
    same(fast_answer, flask_answer)


@pytest.mark.parametrize("origins, origin, per_minute", [
    ("https://play.example", None, 1200),  # a named origin allowed, the request without one
    ("https://play.example", "https://elsewhere.example", 1200),  # an origin not allowed
    ("*", "https://elsewhere.example", 1200),  # any origin: not named, no Vary on Origin
    ("", "https://play.example", 0),  # no CORS at all, rate limits off
])
def test_a_view_before_flask_has_flasks_fields_whatever_the_cors_and_rate_limit_settings(
        service, game, origins, origin, per_minute):
    game_id, acting, _, _ = game
    fast, flask_only = (counting_app(service, per_minute, FAST_VIEWS=on, CORS_ORIGINS=origins) for on in (True, False))
    sent = {"Origin": origin} if origin else {}
    answers = []
    for app in (fast, flask_only):
        client = app.test_client()
        answers.append(client.get(f"/v1/games/{game_id}/view", headers={"X-Request-Id": "same", **acting.auth, **sent}))
    assert fast.extensions[LAYER].answered == 1 and not fast.flask_requests
    same(*answers)


def test_a_seat_whose_etag_is_behind_the_game_gets_its_new_view_before_flask(apps, game):
    game_id, acting, waiting, _ = game
    tag = waiting.view(game_id).headers["ETag"]
    command = acting.get(f"/v1/games/{game_id}/legal-commands").json["commands"][0]
    assert acting.post(f"/v1/games/{game_id}/commands", json=command).status_code == 200
    fast_answer, flask_answer, answered_here = _both(apps, game_id, waiting, {"If-None-Match": tag})
    assert answered_here and fast_answer.status_code == 200
    assert fast_answer.headers["ETag"] != tag
    same(fast_answer, flask_answer)


@pytest.mark.parametrize("tag", ["current", "*", "a list with the current", "weak"])
def test_a_view_whose_etag_may_be_current_is_answered_as_by_flask(apps, game, tag):
    game_id, acting, _, _ = game
    current = acting.view(game_id).headers["ETag"]
    header = {"current": current, "*": "*", "a list with the current": f'"1-000000000000", {current}',
              "weak": f"W/{current}"}[tag]
    fast_answer, flask_answer, answered_here = _both(apps, game_id, acting, {"If-None-Match": header})
    # A weak tag never matches a view's (strong) ETag: the whole view, as from Flask.
    assert answered_here == (tag == "weak")
    assert fast_answer.status_code == (200 if tag == "weak" else 304)
    same(fast_answer, flask_answer)


def test_another_viewers_etag_gets_the_view_before_flask(apps, game):
    game_id, acting, waiting, _ = game
    theirs = waiting.view(game_id).headers["ETag"]
    fast_answer, flask_answer, answered_here = _both(apps, game_id, acting, {"If-None-Match": theirs})
    assert answered_here and fast_answer.status_code == 200 and fast_answer.headers["ETag"] != theirs
    same(fast_answer, flask_answer)


def test_a_view_answered_before_flask_follows_a_move_another_process_committed(service, event_store, apps, game):
    game_id, acting, waiting, _ = game
    before = waiting.view(game_id).json["version"]
    elsewhere = create_app({"RATE_LIMIT_PER_MINUTE": 0}, service=GameService(event_store, seeds=service.seeds))
    mover = Player.__new__(Player)
    mover.__dict__.update(acting.__dict__, client=elsewhere.test_client())
    command = mover.get(f"/v1/games/{game_id}/legal-commands").json["commands"][0]
    assert mover.post(f"/v1/games/{game_id}/commands", json=command).status_code == 200
    fast_answer, flask_answer, answered_here = _both(apps, game_id, waiting)
    assert answered_here and fast_answer.json["version"] > before
    same(fast_answer, flask_answer)


def test_the_view_of_a_finished_game_answered_before_flask_is_flasks(service, apps, game):
    game_id, acting, waiting, _ = game
    assert waiting.post(f"/v1/games/{game_id}/resign").status_code == 200
    service.score(uuid.UUID(game_id))
    for viewer in (acting, waiting, None):
        fast_answer, flask_answer, answered_here = _both(apps, game_id, viewer)
        assert answered_here and fast_answer.json["status"] == "finished"
        same(fast_answer, flask_answer)


def test_a_view_answered_before_flask_is_gzipped_as_flasks(apps, game):
    game_id, acting, _, _ = game
    for accept in ("gzip", "gzip;q=0"):
        fast_answer, flask_answer, answered_here = _both(apps, game_id, acting, {"Accept-Encoding": accept})
        assert answered_here
        assert (fast_answer.headers.get("Content-Encoding") == "gzip") == (accept == "gzip")
        same(fast_answer, flask_answer)


CASES = {**FALLS_THROUGH, "a long-poll": dict(query="?wait=0"), "a past version": dict(query="?at=1")}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_view_request_the_layer_cannot_answer_reaches_flask_and_gets_its_answer(apps, game, case):
    fast_answer, flask_answer, answered_here = falling_through(lambda *a, **k: _both(apps, *a, **k), game,
                                                               CASES[case])
    assert not answered_here
    same(fast_answer, flask_answer)


def test_the_view_of_a_game_not_held_is_loaded_and_answered_before_flask(service, apps, game):
    game_id, acting, _, _ = game
    service.history.forget(uuid.UUID(game_id))
    fast_answer, flask_answer, answered_here = _both(apps, game_id, acting)
    assert answered_here and fast_answer.status_code == 200
    same(fast_answer, flask_answer)


def test_a_private_game_is_shown_before_flask_to_its_players_and_refused_by_flask_to_others(apps, client, game):
    game_id, ada, bob = private_game(client, f"fv-private-{uuid.uuid4().hex[:6]}")
    for player in (ada, bob):
        fast_answer, flask_answer, answered_here = _both(apps, game_id, player)
        assert answered_here and fast_answer.status_code == 200
        same(fast_answer, flask_answer)
    for stranger in (game[3], None):
        fast_answer, flask_answer, answered_here = _both(apps, game_id, stranger)
        assert not answered_here and fast_answer.status_code == 404
        same(fast_answer, flask_answer)


def test_the_layer_counts_views_against_the_rate_limit_and_logs_their_line(apps, game, caplog):
    fast, _ = apps
    game_id, acting, _, _ = game
    with caplog.at_level(logging.INFO, logger="boardlog.requests"):
        answers = [_get(fast, game_id, viewer) for viewer in (acting, acting, None)]
    assert fast.extensions[LAYER].answered == 3 and not fast.flask_requests
    remaining = [a.headers["RateLimit"].partition(";r=")[2].partition(";")[0] for a in answers]
    assert remaining[:2] == ["1199", "1198"]
    lines = [r.getMessage() for r in caplog.records if r.name == "boardlog.requests"]
    assert len(lines) == 3
    assert all(line.startswith(f"GET /v1/games/{game_id}/view 200 ") for line in lines)
    assert lines[0].endswith(f"player={acting.id}")


@pytest.mark.parametrize("who", ["with a token", "without a token"])
def test_views_over_the_rate_limit_get_flasks_429(service, game, who):
    game_id, acting, _, _ = game
    viewer = acting if who == "with a token" else None
    fast = _app(service, fast=True, per_minute=2)
    answers = [_get(fast, game_id, viewer) for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 429]
    assert fast.extensions[LAYER].answered == 2 and len(fast.flask_requests) == 1
    assert answers[2].headers["Retry-After"] and answers[2].json["type"].endswith("rate-limited")


def test_switched_off_every_view_goes_through_flask(service):
    assert LAYER not in _app(service, fast=False).extensions


@pytest.mark.parametrize("failure", DATABASE_FAILURES)
def test_a_view_the_database_cannot_serve_gets_flasks_503_after_one_wait_not_two(service, apps, game, monkeypatch, failure):
    calls = database_fails(monkeypatch, service, "load", failure)
    answered_503_once(lambda: _both(apps, game[0], game[1]), calls)
