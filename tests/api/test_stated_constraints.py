"""What the server refuses, the document says: its patterns accept and
refuse what the server does (no NUL or lone surrogate in text, digits only
in Last-Event-ID, http(s) only for webhook URLs)."""

from __future__ import annotations

import json
import re
import uuid

import pytest

from api.processes.openapi_doc import document
from api.service import webhook_targets as targets

from .conftest import Player, started_game

DOC = document()
SCHEMAS = DOC["components"]["schemas"]


def pattern_of(schema: dict) -> re.Pattern:
    return re.compile(schema["pattern"])


TEXTS = ["Ada", "héllo 🎲", "", "a\x00b", "\x00", "lone \ud800 surrogate", "\udfff", "pair \U0001f3b2 ok"]


@pytest.mark.parametrize("text", TEXTS, ids=[repr(t) for t in TEXTS])
def test_the_text_pattern_refuses_what_the_server_refuses(client, text):
    label = SCHEMAS["CreateToken"]["properties"]["label"]
    ada = Player(client, f"ada-{uuid.uuid4().hex[:6]}")
    body = json.dumps({"label": text})  # \\u escapes: a lone surrogate travels as JSON allows
    response = client.post("/v1/players/me/tokens", data=body, content_type="application/json", headers=ada.auth)
    stated = bool(pattern_of(label).match(text))
    assert (response.status_code == 201) == stated, (text, response.json)


def test_every_free_text_a_request_carries_states_the_pattern():
    assert "pattern" in SCHEMAS["Registration"]["properties"]["name"]
    assert "pattern" in SCHEMAS["CreateToken"]["properties"]["label"]
    confirm = DOC["paths"]["/v1/notifications/confirm"]["get"]["parameters"]
    assert all("pattern" in p["schema"] for p in confirm if p["name"] == "token")
    assert "NUL" in DOC["info"]["description"]


LAST_EVENT_IDS = ["3", "0", "", "1a", "-1", "²", "٣", "1.5", "+3", "9" * 19, "9" * 20]


@pytest.mark.parametrize("value", LAST_EVENT_IDS)
def test_last_event_id_is_digits_only_as_the_document_says(client, players, value):
    header = next(p for p in DOC["paths"]["/v1/games/{game_id}/stream"]["get"]["parameters"]
                  if p["name"] == "Last-Event-ID")
    game_id = started_game(players(2))
    response = client.get(f"/v1/games/{game_id}/stream", headers={"Last-Event-ID": value})
    stated = bool(pattern_of(header["schema"]).match(value)) and len(value) <= header["schema"]["maxLength"]
    if stated and value and int(value) > 2**63 - 1:
        stated = False  # 19 digits past the largest id: the description says it, a pattern cannot
    assert response.status_code < 500, response.data[:300]
    # Refused as no id at all (not as an id beyond the game, which the document cannot know).
    malformed = response.status_code == 422 and "must be the id of a message" in response.json["detail"]
    assert malformed != stated, (value, response.status_code, response.data[:300])


URLS = ["https://hooks.example/x", "http://hooks.example/", "HTTPS://hooks.example/", "ftp://hooks.example/",
        "javascript:alert(1)", "hooks.example/x", "file:///etc/passwd", "https://a\x00b.example/"]


@pytest.mark.parametrize("url", URLS)
def test_the_webhook_url_pattern_says_http_or_https_as_the_server_does(url):
    stated = bool(pattern_of(SCHEMAS["WebhookIn"]["properties"]["url"]).match(url))
    server_refuses_scheme = targets.check_url_form(url) is not None or "\x00" in url
    assert stated != server_refuses_scheme, url
