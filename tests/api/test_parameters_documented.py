"""Every query argument a view reads is a parameter of its operation in the
served document, and no documented query parameter is one the view ignores.

What a view reads: the schema of its ``@blp.arguments(..., location="query")``
(flask-smorest keeps it in the view's ``_apidoc``), and, for the views that
parse ``request.args`` by hand (the polled view, for speed), the schema they
load it with, listed in HAND_PARSED.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from api.http.app import create_app
from api.processes.openapi_doc import document
from api.http.resources import play

ROOT = Path(__file__).resolve().parents[2]

# (path, method): the schema a view loads request.args with by hand.
HAND_PARSED = {("/v1/games/{game_id}/view", "get"): play.ViewArgs}
HAND_PARSING_MODULES = {"api/http/resources/play.py"}


def _schema_fields(schema) -> set[str]:
    schema = schema() if isinstance(schema, type) else schema
    return {field.data_key or name for name, field in schema.fields.items() if not field.dump_only}


def _openapi_path(rule: str) -> str:
    return re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule)


def _read_by_views() -> dict[tuple[str, str], set[str]]:
    app = create_app(offline=True)
    read = {}
    for rule in app.url_map.iter_rules():
        view = app.view_functions[rule.endpoint]
        view_class = getattr(view, "view_class", None)
        if view_class is None:
            continue
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            function = getattr(view_class, method.lower(), None)
            if function is None:
                continue
            arguments = getattr(function, "_apidoc", {}).get("arguments", {}).get("parameters", [])
            names = set()
            for entry in arguments:
                if entry.get("in") == "query":
                    names |= _schema_fields(entry["schema"])
            key = (_openapi_path(rule.rule), method.lower())
            if key in HAND_PARSED:
                names |= _schema_fields(HAND_PARSED[key])
            read[key] = names
    return read


@pytest.fixture(scope="module")
def spec():
    return document()


def _documented(spec, path: str, method: str) -> set[str]:
    item = spec["paths"][path]
    entries = [*item.get("parameters", []), *item[method].get("parameters", [])]
    return {entry["name"] for entry in entries if entry["in"] == "query"}


def test_every_query_argument_a_view_reads_is_a_documented_parameter_and_no_other(spec):
    read = _read_by_views()
    mismatched = {}
    for (path, method), names in read.items():
        if path not in spec["paths"] or method not in spec["paths"][path]:
            continue  # not an API operation (health probes, docs assets)
        documented = _documented(spec, path, method)
        if documented != names:
            mismatched[f"{method.upper()} {path}"] = {"read": sorted(names), "documented": sorted(documented)}
    assert not mismatched


@pytest.mark.parametrize("path, method, names", [
    ("/v1/games/{game_id}/stream", "get", {"after", "ticket"}),
    ("/v1/players/me/stream", "get", {"after", "ticket"}),
    ("/v1/players/me/inbox", "get", {"wait"}),
    ("/v1/games/{game_id}/view", "get", {"wait", "at"}),
    ("/v1/games/{game_id}/events", "get", {"after", "limit"}),
    ("/v1/games", "get", {"game", "status", "player", "limit", "offset"}),
])
def test_the_streams_inbox_view_feed_and_lobby_document_their_query(spec, path, method, names):
    assert _documented(spec, path, method) == names
    read = _read_by_views()[(path, method)]
    assert read == names


def test_headers_documented_beside_arguments_keep_the_query_parameters(spec):
    stream = {(p["in"], p["name"]) for p in spec["paths"]["/v1/games/{game_id}/stream"]["get"]["parameters"]}
    assert {("query", "ticket"), ("query", "after"), ("header", "Last-Event-ID")} <= stream
    inbox = {(p["in"], p["name"]) for p in spec["paths"]["/v1/players/me/inbox"]["get"]["parameters"]}
    assert {("query", "wait"), ("header", "If-None-Match")} <= inbox


def test_only_the_views_listed_here_parse_the_query_by_hand():
    readers = {str(path.relative_to(ROOT)) for path in (ROOT / "api" / "http" / "resources").glob("*.py")
               if "request.args" in path.read_text()}
    assert readers == HAND_PARSING_MODULES, "a view reads request.args by hand: list its schema in HAND_PARSED"

