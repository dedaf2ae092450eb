"""What the tests of the layers answering before Flask share
(test_fast_commands.py, test_fast_legal_commands.py): an app that counts
the requests Flask itself handles, a game with a player to act, one
waiting and one without a seat, and the comparison of two answers. A test
module imports the fixtures ``apps`` and ``game`` and names its layer's
switch (``SWITCH``, a setting of create_app) and its players' prefix
(``PREFIX``)."""

from __future__ import annotations

import uuid

import pytest
from flask import request, request_started

from api.http.app import create_app

from .conftest import Player, started_game

ORIGIN = "https://play.example"
SAME_ID = {"X-Request-Id": "fast-or-not"}  # else each answer carries its own


def counting_app(service, per_minute: int = 1200, **config):
    """An app over ``service`` whose ``flask_requests`` lists the paths Flask handled."""
    app = create_app({"RATE_LIMIT_PER_MINUTE": per_minute, "CORS_ORIGINS": ORIGIN, **config}, service=service)
    app.flask_requests = []

    def _count(sender, **extra):  # Flask's signal that it handles a request, before any hook
        app.flask_requests.append(request.path)

    request_started.connect(_count, app, weak=False)
    return app


@pytest.fixture
def apps(service, request):
    """An app with the module's layer and one without it, over one service."""
    switch = request.module.SWITCH
    return counting_app(service, **{switch: True}), counting_app(service, **{switch: False})


@pytest.fixture
def game(client, request):
    """A started game's id, its player to act, its player waiting, and a player without a seat."""
    prefix = request.module.PREFIX
    tag = uuid.uuid4().hex[:6]
    ada, bob, eve = (Player(client, f"{prefix}-{name}-{tag}") for name in ("ada", "bob", "eve"))
    game_id = started_game([ada, bob])
    to_act = ada.view(game_id).json["to_act"]
    acting, waiting = (ada, bob) if ada.view(game_id).json["seat"] in to_act else (bob, ada)
    eve.view(game_id)  # her token known to the process, as those of players who play are
    return game_id, acting, waiting, eve


def ask(app, path: str, player, headers=None, query="", method="GET", data=None):
    """``path`` asked of ``app`` by ``player`` (None: without a token), from ORIGIN, with SAME_ID."""
    headers = {**SAME_ID, "Origin": ORIGIN, **(player.auth if player else {}), **(headers or {})}
    return app.test_client().open(f"{path}{query}", method=method, headers=headers, data=data)


def ask_both(apps, layer: str, path: str, *args, others: bool = False, **kwargs):
    """``path`` asked of the app with the layer named ``layer``, then of Flask; and whether the
    first answer came from the layer (then Flask did not see the request; else it did, unless
    ``others``: another layer may answer it too)."""
    fast, flask_only = apps
    before, flask_seen = fast.extensions[layer].answered, len(fast.flask_requests)
    first = ask(fast, path, *args, **kwargs)
    answered_here = fast.extensions[layer].answered > before
    if answered_here or not others:
        assert answered_here == (len(fast.flask_requests) == flask_seen)
    return first, ask(flask_only, path, *args, **kwargs), answered_here


def fields(response) -> list[tuple[str, str]]:
    """The answer's fields in order; RateLimit's count is each app's own."""
    return [(name, value if name != "RateLimit" else value.partition(";r=")[0]) for name, value in response.headers]


def same(fast_answer, flask_answer) -> None:
    assert fast_answer.status_code == flask_answer.status_code
    assert fields(fast_answer) == fields(flask_answer)
    assert fast_answer.data == flask_answer.data


NOBODY = object()  # a token nobody has

# Requests a GET layer leaves to Flask; a module's own table adds its cases.
FALLS_THROUGH = {
    "an unknown token": dict(player=NOBODY),
    "a malformed Authorization": dict(headers={"Authorization": "Token abc"}),
    "an unknown game": dict(game="00000000-0000-4000-8000-000000000000"),
    "a game id that is no id": dict(game="0000000000000000000000000000000g"),
    "a query string": dict(query="?x=1"),
    "a HEAD": dict(method="HEAD"),
    "a POST": dict(method="POST"),
    "an OPTIONS": dict(method="OPTIONS"),
    "a body": dict(data=b"{}"),
}


def falling_through(both, game, spec: dict):
    """``both``'s answers (the module's ``_both``) to the request ``spec`` describes, made by the
    player to act unless it names another (``NOBODY``: a token nobody has)."""
    game_id, acting, _, _ = game
    spec = dict(spec)
    player = spec.pop("player", acting)
    if player is NOBODY:
        player = Player.__new__(Player)
        player.token = "not-a-token-anyone-has"
    return both(spec.pop("game", game_id), player, **spec)


DATABASE_FAILURES = ["the database unreachable", "the pool full"]


def database_fails(monkeypatch, service, method: str, failure: str) -> list:
    """``service.<method>`` (a game's load) fails as ``failure`` makes it (PostgreSQL gone, every pooled
    connection busy: the fault put where it strikes); the calls made, listed."""
    import psycopg
    from psycopg_pool import PoolTimeout

    error = psycopg.OperationalError("connection refused") if failure == "the database unreachable" \
        else PoolTimeout("couldn't get a connection after 3.00 sec")
    calls = []

    def failing(*args, **kwargs):
        calls.append(args)
        raise error

    monkeypatch.setattr(service, method, failing)
    return calls


def answered_503_once(both, calls: list) -> None:
    """``both()``'s answers: the database's 503, made by the layer, which did not hand it on to Flask."""
    fast_answer, flask_answer, answered_here = both()
    assert answered_here and fast_answer.status_code == 503
    assert fast_answer.json["type"].endswith("database-unavailable") and fast_answer.headers["Retry-After"] == "5"
    assert len(calls) == 2  # one for each app: the layer's answer did not load again through Flask
    same(fast_answer, flask_answer)
