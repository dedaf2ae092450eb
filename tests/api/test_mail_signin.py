"""Signing in from a mail: a mail link's code, exchanged once and before it
expires, gives a token of the mail's player's own; used, expired, forged and
other players' codes are refused with their own problem types and change
nothing; the code never reaches a request log; the link is the web client's
or the operator's template."""

from __future__ import annotations

import logging
import secrets
from urllib.parse import urlsplit

import pytest

from api.http.app import create_app
from api.service import signin
from api.service.players import MAX_LIVE_TOKENS
from api.service.settings import SettingError, settings

from .conftest import started_game

PROBLEMS = "https://boardlog.dev/problems/"


def code_for(service, player, game_id, hours: float = 72) -> str:
    with service.pool.connection() as conn:
        return signin.new_code(conn, player.id, game_id, hours)


def sign_in(client, code, **kwargs):
    return client.post("/v1/sign-in", json={"code": code}, **kwargs)


def live_tokens(player) -> list[dict]:
    return player.get("/v1/players/me/tokens").json["tokens"]


def unused(service, code: str) -> bool:
    with service.pool.connection() as conn:
        return conn.execute("select used_at is null from mail_signin_codes where code_sha256 = %s",
                            (signin._sha(code),)).fetchone()[0]


def refused(response, status: int, slug: str) -> None:
    assert response.status_code == status, response.json
    assert response.mimetype == "application/problem+json"
    assert response.json["type"] == PROBLEMS + slug
    assert response.json["detail"]


def test_a_mail_links_code_signs_its_player_in_with_a_new_token_of_his_own(client, players, service):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    response = sign_in(client, code_for(service, ada, game_id))
    assert response.status_code == 201, response.json
    answer = response.json
    assert (answer["player_id"], answer["name"], answer["game_id"]) == (ada.id, ada.name, game_id)
    token = answer["token"]["token"]
    assert token != ada.token
    me = client.get("/v1/players/me", headers={"Authorization": f"Bearer {token}"})
    assert me.status_code == 200 and me.json["id"] == ada.id
    view = client.get(f"/v1/games/{game_id}/view", headers={"Authorization": f"Bearer {token}"})
    assert view.json == ada.view(game_id).json, "the token sees what the player sees"
    labels = [t["label"] for t in live_tokens(ada)]
    assert sorted(labels) == ["mail link", "registration"], "a token beside the others, never in their place"


def test_the_same_code_a_second_time_is_refused_and_makes_no_token(client, players, service):
    ada, bob = players(2)
    code = code_for(service, ada, started_game([ada, bob]))
    assert sign_in(client, code).status_code == 201
    before = live_tokens(ada)
    refused(sign_in(client, code), 409, "sign-in-code-used")
    assert live_tokens(ada) == before


def test_an_expired_code_is_refused_and_stays_as_it_was(client, players, service):
    ada, bob = players(2)
    code = code_for(service, ada, started_game([ada, bob]), hours=-1)
    refused(sign_in(client, code), 409, "sign-in-code-expired")
    assert len(live_tokens(ada)) == 1 and unused(service, code)


def test_a_forged_code_is_refused_as_unknown(client, players):
    ada, = players(1)
    refused(sign_in(client, secrets.token_urlsafe(32)), 404, "sign-in-code-unknown")
    refused(sign_in(client, "x" * signin.MAX_CODE_LENGTH), 404, "sign-in-code-unknown")
    assert len(live_tokens(ada)) == 1


def test_another_players_code_signs_in_that_player_and_never_acts_for_you(client, players, service):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    # Ada, signed in, opens Bob's link: she gets Bob's token, not a new one of hers.
    response = sign_in(client, code_for(service, bob, game_id), headers=ada.auth)
    assert response.status_code == 201
    token = response.json["token"]["token"]
    assert response.json["player_id"] == bob.id
    assert client.get("/v1/players/me", headers={"Authorization": f"Bearer {token}"}).json["id"] == bob.id
    assert len(live_tokens(ada)) == 1, "Ada holds no new token"
    assert {t["label"] for t in live_tokens(bob)} == {"registration", "mail link"}


def test_a_player_at_the_most_tokens_gives_up_the_oldest_a_mail_link_made(client, players, service):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    first = sign_in(client, code_for(service, ada, game_id)).json["token"]
    for n in range(MAX_LIVE_TOKENS - 2):
        assert ada.post("/v1/players/me/tokens", json={"label": f"device {n}"}).status_code == 201
    assert len(live_tokens(ada)) == MAX_LIVE_TOKENS
    assert sign_in(client, code_for(service, ada, game_id)).status_code == 201
    ids = [t["id"] for t in live_tokens(ada)]
    assert len(ids) == MAX_LIVE_TOKENS and first["id"] not in ids
    assert client.get("/v1/players/me", headers={"Authorization": f"Bearer {first['token']}"}).status_code == 401


def test_a_player_at_the_most_tokens_none_from_mail_is_refused_and_keeps_the_code(client, players, service):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    for n in range(MAX_LIVE_TOKENS - 1):
        assert ada.post("/v1/players/me/tokens", json={"label": f"device {n}"}).status_code == 201
    code = code_for(service, ada, game_id)
    before = live_tokens(ada)
    refused(sign_in(client, code), 409, "too-many-tokens")
    assert live_tokens(ada) == before and unused(service, code)
    assert client.delete(f"/v1/players/me/tokens/{before[-1]['id']}", headers=ada.auth).status_code == 204
    assert sign_in(client, code).status_code == 201, "the code works once a token is revoked"


def test_the_code_is_never_written_to_the_request_log(client, players, service, caplog):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    with service.pool.connection() as conn:
        link = signin.mail_link(conn, ada.id, game_id, settings())
    code = link.rsplit("signin=", 1)[1]
    parts = urlsplit(link)
    assert code in parts.fragment and code not in parts.path + parts.query, "browsers send no fragment to a server"
    with caplog.at_level(logging.INFO, logger="boardlog.requests"):
        assert client.get(parts.path or "/").status_code == 200  # what a browser asks for the link
        assert sign_in(client, code).status_code == 201
        assert sign_in(client, code).status_code == 409
    lines = [r.getMessage() for r in caplog.records if r.name == "boardlog.requests"]
    assert any("/v1/sign-in" in line for line in lines)
    assert not any(code in line for line in lines)


def test_signing_in_from_mail_is_rate_limited_by_address_as_registration_is(service):
    limited = create_app({"RATE_LIMIT_PER_MINUTE": 3}, service=service).test_client()
    answers = [sign_in(limited, secrets.token_urlsafe(32)).status_code for _ in range(4)]
    assert answers == [404, 404, 404, 429]


def test_mail_links_follow_the_operators_template(monkeypatch, players, service):
    ada, = players(1)
    game_id = "6f1c0e2a-0000-4000-8000-000000000001"
    monkeypatch.setenv("BOARDLOG_PLAY_URL", "https://example.org/games/{game_id}")
    with service.pool.connection() as conn:
        assert signin.mail_link(conn, ada.id, game_id, settings()) == f"https://example.org/games/{game_id}"
        monkeypatch.setenv("BOARDLOG_PLAY_URL", "https://example.org/play#/g/{game_id}/{code}")
        link = signin.mail_link(conn, ada.id, game_id, settings())
    assert link.startswith(f"https://example.org/play#/g/{game_id}/") and len(link.rsplit("/", 1)[1]) >= 40
    monkeypatch.delenv("BOARDLOG_PLAY_URL")
    monkeypatch.setenv("BOARDLOG_PUBLIC_URL", "https://boardlog.example.org/")
    with service.pool.connection() as conn:
        link = signin.mail_link(conn, ada.id, game_id, settings())
    assert link.startswith(f"https://boardlog.example.org/#/games/{game_id}?signin=")


@pytest.mark.parametrize("template", ["https://example.org/games", "example.org/{game_id}",
                                      "https://example.org/{game_id}?code={code}", "https://example.org/{game}"])
def test_a_play_url_without_a_game_or_with_the_code_outside_the_fragment_stops_the_process(monkeypatch, template):
    monkeypatch.setenv("BOARDLOG_PLAY_URL", template)
    with pytest.raises(SettingError, match="BOARDLOG_PLAY_URL must be"):
        settings()
