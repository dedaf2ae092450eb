"""An operation that needs a token says so (401) before it looks at its
arguments: a caller without one learns nothing from a 422 about the body or
the query. Every such operation of the document, each with bodies and
queries it refuses. And a body the document requires must be sent."""

from __future__ import annotations

import re
import uuid

import pytest

from api.http.auth import BEARER
from api.processes.openapi_doc import document

from .conftest import Player

BAD_BODIES = [
    ("application/json", '{"no-such-field": [1, 2, 3], "label": 7, "url": 5, "email_turns": "never"}'),
    ("application/json", "this is not JSON"),
    ("application/json", '"\\u0000"'),
    ("text/plain", "not the media type"),
]
# (No ``ticket``: a stream opened with a ticket instead of a token is its view's to judge.)
BAD_QUERY = {"limit": "many", "after": "-5", "before": "x", "status": "nope", "wait": "forever", "at": "first"}


def authenticated_operations():
    operations = []
    for path, methods in document()["paths"].items():
        for method, operation in methods.items():
            if isinstance(operation, dict) and operation.get("security") == BEARER:
                parameters = methods.get("parameters", []) + operation.get("parameters", [])
                operations.append((method, path, {**operation, "parameters": parameters}))
    return operations


def concrete(path: str, operation: dict) -> str:
    kinds = {p["name"]: p.get("schema", {}).get("type") for p in operation.get("parameters", []) if p["in"] == "path"}
    return re.sub(r"\{([^}]+)\}", lambda m: "1" if kinds.get(m.group(1)) == "integer" else str(uuid.uuid4()), path)


OPERATIONS = authenticated_operations()


def test_the_document_has_the_authenticated_operations_this_test_walks():
    ids = {operation["operationId"] for _, _, operation in OPERATIONS}
    assert {"updateNotificationPreferences", "createToken", "revokeAllTokens", "createWebhook", "createGame",
            "streamPlayer", "redeliverWebhookDelivery"} <= ids, ids


@pytest.mark.parametrize("method, path, operation", OPERATIONS, ids=[o["operationId"] for _, _, o in OPERATIONS])
def test_an_operation_that_needs_a_token_answers_401_before_it_reads_a_bad_body_or_query(client, method, path,
                                                                                        operation):
    url = concrete(path, operation)
    for content_type, body in BAD_BODIES:
        kwargs = {"data": body, "content_type": content_type} if method in ("post", "patch", "put") else {}
        response = client.open(url, method=method.upper(), query_string=BAD_QUERY,
                               headers={"Last-Event-ID": "not-digits", "If-Match": "nope"}, **kwargs)
        assert response.status_code == 401, (operation["operationId"], content_type, body, response.json)
        assert response.content_type == "application/problem+json"
        assert response.json["type"].endswith("/token-missing")


def test_a_bad_token_is_a_401_before_a_bad_body_too(client):
    response = client.patch("/v1/players/me/notifications", json={"email_turns": "never"},
                            headers={"Authorization": "Bearer not-a-token"})
    assert response.status_code == 401 and response.json["type"].endswith("/token-unknown")


def test_with_a_token_the_bad_body_is_what_is_refused(client):
    ada = Player(client, f"ada-{uuid.uuid4().hex[:6]}")
    response = client.patch("/v1/players/me/notifications", json={"email_turns": "never"}, headers=ada.auth)
    assert response.status_code == 422 and "email_turns" in response.json["errors"]


@pytest.mark.parametrize("path", ["/v1/players/me/tokens", "/v1/players/me/tokens/revoke-all"])
@pytest.mark.parametrize("body", [None, ""])
def test_the_token_operations_refuse_a_missing_body_as_their_schema_does(client, path, body):
    ada = Player(client, f"ada-{uuid.uuid4().hex[:6]}")
    kwargs = {} if body is None else {"data": body, "content_type": "application/json"}
    response = client.post(path, headers=ada.auth, **kwargs)
    assert response.status_code == 422, response.json
    assert "send {}" in response.json["detail"]
    assert len(client.get("/v1/players/me/tokens", headers=ada.auth).json["tokens"]) == 1  # nothing made, nothing revoked


@pytest.mark.parametrize("path, answer", [("/v1/players/me/tokens", 201), ("/v1/players/me/tokens/revoke-all", 200)])
def test_an_empty_object_takes_the_defaults(client, path, answer):
    ada = Player(client, f"ada-{uuid.uuid4().hex[:6]}")
    assert client.post(path, json={}, headers=ada.auth).status_code == answer


def test_every_operation_whose_body_is_required_refuses_none(client, players):
    ada = players(1)[0]
    game_id = ada.create()
    for method, url in (("POST", f"/v1/games/{game_id}/join"), ("POST", f"/v1/games/{game_id}/invites"),
                        ("PATCH", "/v1/players/me/notifications"), ("POST", "/v1/players/me/webhooks"),
                        ("POST", "/v1/games")):
        response = client.open(url, method=method, headers=ada.auth)
        assert response.status_code == 422, (url, response.json)
