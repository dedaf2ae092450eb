"""The API on a real PostgreSQL, through Flask's test client."""

from __future__ import annotations

import random
import uuid

import pytest

from api.http.app import create_app
from api.service.games import GameService
from tests.support.seeds import TEST_SEEDS


@pytest.fixture(scope="session")
def service(event_store):
    return GameService(event_store, seeds=TEST_SEEDS)


@pytest.fixture(scope="session")
def app(service):
    # Streams end after a second here: the test client reads a response to its end.
    app = create_app({"RATE_LIMIT_PER_MINUTE": 0, "STREAMS": {"lifetime": 1.0, "heartbeat": 0.3}}, service=service)
    watch_declared_problems(app)
    return app


UNDECLARED = []


def watch_declared_problems(app) -> None:
    """Every problem the API answers during the tests must be one its
    operation declares (status and type); ``_answers_are_declared`` fails the
    test during which one was not."""
    import re

    from flask import request

    from api.processes.openapi_doc import document

    paths = document()["paths"]

    @app.after_request
    def _check(response):
        if response.status_code < 400 or request.url_rule is None or response.mimetype != "application/problem+json":
            return response
        operation = paths.get(re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", request.url_rule.rule), {}).get(request.method.lower())
        if operation is None:
            return response  # not an operation of the document (health, docs assets) or a method it does not take
        declared = operation["responses"].get(str(response.status_code))
        kind = (response.get_json(silent=True) or {}).get("type")
        if declared is None or kind not in declared.get("x-problem-types", [kind]):
            UNDECLARED.append(f"{operation['operationId']} answered {response.status_code} {kind}")
        return response


@pytest.fixture(autouse=True)
def _answers_are_declared():
    before = len(UNDECLARED)
    yield
    assert UNDECLARED[before:] == [], "answers the document does not declare for their operation"


@pytest.fixture
def client(app):
    return app.test_client()


class Player:
    """A registered player speaking to the API."""

    def __init__(self, client, name: str):
        self.client = client
        response = client.post("/v1/players", json={"name": name})
        assert response.status_code == 201, response.json
        self.id = response.json["id"]
        self.name = name
        self.token = response.json["token"]

    @property
    def auth(self) -> dict:
        return {"Authorization": f"Bearer {self.token}"}

    def get(self, path, **kwargs):
        headers = {**self.auth, **kwargs.pop("headers", {})}
        return self.client.get(path, headers=headers, **kwargs)

    def post(self, path, json=None, **kwargs):
        headers = {**self.auth, **kwargs.pop("headers", {})}
        return self.client.post(path, json=json, headers=headers, **kwargs)

    def create(self, game="cronberg", options=None, **extra):
        response = self.post("/v1/games", json={"game": game, "options": options or {}, **extra})
        assert response.status_code == 201, response.json
        return response.json["id"]

    def act(self, game_id, command, **kwargs):
        return self.post(f"/v1/games/{game_id}/commands", json=command, **kwargs)

    def legal(self, game_id):
        return self.get(f"/v1/games/{game_id}/legal-commands").json["commands"]

    def view(self, game_id, **kwargs):
        return self.get(f"/v1/games/{game_id}/view", **kwargs)


@pytest.fixture
def players(client):
    def make(count: int) -> list[Player]:
        tag = uuid.uuid4().hex[:6]
        return [Player(client, f"player-{tag}-{n}") for n in range(1, count + 1)]

    return make


def started_game(players: list[Player], game="cronberg", options=None) -> str:
    host, *others = players
    game_id = host.create(game, options if options is not None else {"players": len(players)})
    for player in others:
        assert player.post(f"/v1/games/{game_id}/join", json={}).status_code == 200
    response = host.post(f"/v1/games/{game_id}/start")
    assert response.status_code == 200, response.json
    return game_id


def race(monkeypatch, service, stale) -> dict:
    """Make the next request race one that committed since ``stale`` was
    loaded: it decides first on ``stale``. The counts of loads and of
    look-ups of an Idempotency-Key's stored answer, to check that the race
    happened (a request looks for its key's answer only once it failed)."""
    real_load, real_earlier = service.load, service.idempotency._earlier_response
    calls = {"load": 0, "earlier": 0}

    def load(gid, trust_known=False, **kwargs):
        calls["load"] += 1
        return stale if calls["load"] == 1 else real_load(gid, trust_known, **kwargs)

    def earlier(*args):
        calls["earlier"] += 1
        return real_earlier(*args)

    monkeypatch.setattr(service, "load", load)
    monkeypatch.setattr(service.idempotency, "_earlier_response", earlier)
    return calls


def play_until_over(players: list[Player], game_id: str, rng: random.Random, max_steps: int = 5000) -> None:
    """Every player polls, and whoever is to act picks a legal command."""
    for _ in range(max_steps):
        acted = False
        for player in players:
            view = player.view(game_id).json
            if view["status"] != "active":
                return
            if view["seat"] in view["to_act"]:
                commands = player.legal(game_id)
                response = player.act(game_id, rng.choice(commands))
                assert response.status_code == 200, response.json
                acted = True
        assert acted, "nobody could act in an active game"
    raise AssertionError("the game did not end")
