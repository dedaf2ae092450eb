"""A poll whose ETag is current is answered before Flask (api/http/polls.py),
from what the process knows, with the answer Flask would give; anything
else goes on to Flask as before."""

from __future__ import annotations

import logging
import uuid

import pytest
from flask import request, request_started

from api.http.app import create_app
from api.service.games import stream_of
from api.http.view_etags import view_etag

from tests.support.waiting import wait_until

from .conftest import Player, started_game
from .test_private_games import private_game


def _app(service, redis=None, **config):
    # The 304s are this layer's; a view's 200 is api/http/view_fast.py's (test_fast_views.py), off here so
    # that what this layer leaves is seen reaching Flask.
    app = create_app({"RATE_LIMIT_PER_MINUTE": 1200, "CORS_ORIGINS": "https://play.example", "FAST_VIEWS": False,
                      **config},
                     service=service, redis=redis)
    app.flask_requests = []

    def _count(sender, **extra):  # Flask's signal that it handles a request, before any hook
        app.flask_requests.append(request.path)

    request_started.connect(_count, app, weak=False)
    return app


def _without_fast_path(app):
    """The same app with its polls answered by Flask alone."""
    app.wsgi_app = app.wsgi_app.wsgi_app
    return app


@pytest.fixture
def game(client):
    ada, bob = Player(client, "cp-ada"), Player(client, "cp-bob")
    return started_game([ada, bob]), ada, bob


def _warm(client, game_id, player=None):
    """Polls until one is answered before Flask: the first ones leave the token and the game known, and
    the version is known once the LISTEN connection is up (eventstore/versions.py)."""
    app, headers = client.application, player.auth if player else {}
    etag = client.get(f"/v1/games/{game_id}/view", headers=headers).headers["ETag"]

    def answered_before_flask():
        before = len(app.flask_requests)
        assert client.get(f"/v1/games/{game_id}/view", headers={**headers, "If-None-Match": etag}).status_code == 304
        return len(app.flask_requests) == before

    wait_until(answered_before_flask, timeout=30, what="a poll answered before Flask")
    return etag


def test_a_poll_with_a_current_etag_is_answered_without_flask_or_postgresql(service, game):
    game_id, ada, _ = game
    app = _app(service)
    client = app.test_client()
    etag = _warm(client, game_id, ada)
    before, queries = len(app.flask_requests), service.pool.get_stats().get("requests_num", 0)
    answers = [client.get(f"/v1/games/{game_id}/view", headers={**ada.auth, "If-None-Match": etag})
               for _ in range(50)]
    assert [a.status_code for a in answers] == [304] * 50
    assert all(a.headers["ETag"] == etag and a.data == b"" for a in answers)
    assert app.flask_requests[before:] == []
    assert service.pool.get_stats().get("requests_num", 0) == queries


def _fields(response) -> dict:
    fields = dict(response.headers)
    fields.pop("RateLimit")  # the count left differs from one request to the next
    return fields


@pytest.mark.parametrize("extra", [
    {},
    {"Origin": "https://play.example"},
    {"Origin": "https://elsewhere.example"},
    {"X-Request-Id": "poll-7"},
], ids=["plain", "allowed-origin", "other-origin", "request-id"])
@pytest.mark.parametrize("viewer", ["player", "spectator"])
def test_the_answer_before_flask_has_the_fields_flasks_own_answer_has(service, game, extra, viewer):
    game_id, ada, _ = game
    fast, slow = _app(service), _without_fast_path(_app(service))
    auth = ada.auth if viewer == "player" else {}
    fast_client, slow_client = fast.test_client(), slow.test_client()
    etag = _warm(fast_client, game_id, ada if viewer == "player" else None)
    path, headers = f"/v1/games/{game_id}/view", {**auth, "If-None-Match": etag, **extra}
    before = len(fast.flask_requests)
    ours, flasks = fast_client.get(path, headers=headers), slow_client.get(path, headers=headers)
    assert fast.flask_requests[before:] == [], "answered before Flask"
    assert (ours.status, ours.data) == (flasks.status, flasks.data) == ("304 NOT MODIFIED", b"")
    if "X-Request-Id" not in extra:
        assert len(ours.headers["X-Request-Id"]) == len(flasks.headers["X-Request-Id"]) == 32
        assert ours.headers["X-Request-Id"] != fast_client.get(path, headers=headers).headers["X-Request-Id"]
        for response in (ours, flasks):
            del response.headers["X-Request-Id"]
    assert _fields(ours) == _fields(flasks)
    assert ours.headers["RateLimit"].startswith('"default";r=')


def test_a_stale_etag_goes_on_to_flask_and_gets_the_new_view(service, game):
    game_id, ada, bob = game
    app = _app(service)
    client = app.test_client()
    etag = _warm(client, game_id, ada)
    mover = next(p for p in (ada, bob) if p.legal(game_id))
    assert mover.act(game_id, mover.legal(game_id)[0]).status_code == 200
    answer = client.get(f"/v1/games/{game_id}/view", headers={**ada.auth, "If-None-Match": etag})
    assert answer.status_code == 200 and answer.headers["ETag"] != etag
    assert answer.json["version"] > int(etag.strip('"').split("-")[0])


def test_each_poll_answered_before_flask_counts_once_and_the_one_over_the_limit_is_refused(service, game):
    game_id, ada, _ = game
    etag = _warm(_app(service).test_client(), game_id, ada)  # the process knows the token, the game, its version
    app = _app(service, RATE_LIMIT_PER_MINUTE=2)
    client = app.test_client()
    answers = [client.get(f"/v1/games/{game_id}/view", headers={**ada.auth, "If-None-Match": etag})
               for _ in range(3)]
    assert [a.status_code for a in answers] == [304, 304, 429]
    assert app.flask_requests == [f"/v1/games/{game_id}/view"], "only the refused one reached Flask"
    assert answers[1].headers["RateLimit"].startswith('"default";r=0;')
    refused = answers[2]
    assert refused.mimetype == "application/problem+json" and int(refused.headers["Retry-After"]) >= 1


def test_spectators_behind_one_trusted_proxy_are_counted_by_their_own_address(service, game):
    game_id, _, _ = game
    etag = _warm(_app(service).test_client(), game_id)
    app = _app(service, RATE_LIMIT_PER_MINUTE=2, TRUSTED_PROXIES=1)
    client = app.test_client()

    def poll(address):
        return client.get(f"/v1/games/{game_id}/view", headers={"X-Forwarded-For": address, "If-None-Match": etag},
                          environ_base={"REMOTE_ADDR": "10.0.0.1"})

    assert [poll("203.0.113.5").status_code for _ in range(3)] == [304, 304, 429]
    assert poll("203.0.113.6").status_code == 304


def test_a_stranger_with_a_made_up_etag_of_a_private_game_gets_the_404_of_no_game(service, client):
    game_id, host, _ = private_game(client, "cp")
    stranger = Player(client, "cp-stranger")
    own = _app(service).test_client()

    def known():  # the host's polls leave the game and its version known to the process
        tag = own.get(f"/v1/games/{game_id}/view", headers=host.auth).headers["ETag"]
        version = int(tag.strip('"').split("-")[0])
        return service.cached(uuid.UUID(game_id)) and service.store.known_version(stream_of(game_id)) == version and version

    version = wait_until(known, timeout=30, what="the game and its version known to the process")
    forged = view_etag(version, stranger.id)  # a viewer's tag is his id's hash: anyone can make his own
    assert own.get("/v1/players/me/inbox", headers=stranger.auth).status_code == 200  # his token known too
    answer = own.get(f"/v1/games/{game_id}/view", headers={**stranger.auth, "If-None-Match": forged})
    assert answer.status_code == 404 and answer.json["type"].endswith("game-not-found")


def test_a_revoked_token_is_refused_not_answered_304(service, client, game):
    game_id, ada, _ = game
    app = _app(service)
    own = app.test_client()
    etag = _warm(own, game_id, ada)
    tokens = ada.get("/v1/players/me/tokens").json["tokens"]
    assert own.delete(f"/v1/players/me/tokens/{tokens[0]['id']}", headers=ada.auth).status_code in (200, 204)
    answer = own.get(f"/v1/games/{game_id}/view", headers={**ada.auth, "If-None-Match": etag})
    assert answer.status_code == 401


@pytest.mark.parametrize("form", ["list", "weak", "star", "query"])
def test_other_forms_of_a_poll_are_answered_by_flask_as_before(service, game, form):
    game_id, ada, _ = game
    app = _app(service)
    client = app.test_client()
    etag = _warm(client, game_id, ada)
    tag = {"list": f'"1-0", {etag}', "weak": f"W/{etag}", "star": "*", "query": etag}[form]
    path = f"/v1/games/{game_id}/view" + ("?wait=0" if form == "query" else "")
    before = len(app.flask_requests)
    answer = client.get(path, headers={**ada.auth, "If-None-Match": tag})
    assert app.flask_requests[before:] == [f"/v1/games/{game_id}/view"]
    assert answer.status_code == (200 if form == "weak" else 304)


def test_the_request_log_has_the_same_line_for_a_poll_answered_before_flask(service, game, caplog):
    game_id, ada, _ = game
    fast, slow = _app(service), _without_fast_path(_app(service))
    etag = _warm(fast.test_client(), game_id, ada)
    path = f"/v1/games/{game_id}/view"
    with caplog.at_level(logging.INFO, logger="boardlog.requests"):
        fast.test_client().get(path, headers={**ada.auth, "If-None-Match": etag})
        slow.test_client().get(path, headers={**ada.auth, "If-None-Match": etag})
    lines = [r.getMessage() for r in caplog.records if r.name == "boardlog.requests"][-2:]
    shapes = [line.rsplit(" ", 2) for line in lines]  # "GET <path> 304", "<elapsed>ms", "player=<id>"
    assert [s[0] for s in shapes] == [f"GET {path} 304"] * 2
    assert [s[2] for s in shapes] == [f"player={ada.id}"] * 2
    assert all(s[1].endswith("ms") for s in shapes)
