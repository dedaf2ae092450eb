"""Property-based: schemathesis drives the served OpenAPI document with
registered tokens and real games; no 5xx, no response outside its schema."""

from __future__ import annotations

import os
import random

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from tests.api.conftest import Player, started_game

EXAMPLES_PER_OPERATION = int(os.environ.get("BOARDLOG_FUZZ_EXAMPLES", "15"))
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@pytest.fixture(scope="module")
def world(app):
    client = app.test_client()
    ada, bob = Player(client, "fuzz-a"), Player(client, "fuzz-b")
    return {"players": [ada, bob], "games": [started_game([ada, bob]), ada.create()]}


def _operations(app):
    schema = schemathesis.openapi.from_wsgi("/v1/openapi.json", app)
    return [result.ok() for result in schema.get_all_operations()]


def test_every_operation_is_exercised(app):
    labels = {op.label for op in _operations(app)}
    assert "POST /v1/games/{game_id}/commands" in labels
    assert "GET /v1/games/{game_id}/view" in labels


def test_no_request_makes_the_server_fail_or_break_its_schema(app, world):
    failures = []
    for operation in _operations(app):

        @given(case=operation.as_strategy())
        @settings(max_examples=EXAMPLES_PER_OPERATION, deadline=None, derandomize=True,
                  suppress_health_check=list(HealthCheck), database=None)
        def run(case):
            rng = random.Random(repr(case.path_parameters) + repr(case.query) + repr(case.body))
            if case.path_parameters and "game_id" in case.path_parameters and rng.random() < 0.7:
                case.path_parameters["game_id"] = rng.choice(world["games"])
            if isinstance(case.query, dict) and isinstance(case.query.get("wait"), int):
                case.query["wait"] = min(case.query["wait"], 1)  # a long-poll of up to 60 s per example is too slow
            player = rng.choice(world["players"])
            headers = {} if rng.random() < 0.2 else {"Authorization": f"Bearer {player.token}"}
            # Schemathesis asks for gzip, as requests does, but over WSGI nothing
            # undoes the coding as an HTTP client would (tests/api/test_http_conventions.py checks gzip).
            headers["Accept-Encoding"] = "identity"
            case.call_and_validate(headers=headers, checks=CHECKS)

        try:
            run()
        except Exception as error:  # collect every operation's failure, then report them all
            failures.append(f"{operation.label}: {error}")
    assert not failures, "\n\n".join(failures)
