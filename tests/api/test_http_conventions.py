"""HTTP conventions of the field, each on the wire and in the document:
gzip when asked, private answers marked so, the IETF RateLimit fields, lists
with a total and a next link, replayed idempotent answers marked, the
If-Match forms stated, a servers entry."""

from __future__ import annotations

import gzip
import json
import uuid

import pytest

from api.http.app import create_app
from api.processes.openapi_doc import document
from api.service import readmodels
from tests.api.conftest import started_game

GZIP = {"Accept-Encoding": "gzip"}


@pytest.fixture(scope="module")
def spec():
    return document()


def test_a_json_answer_is_gzipped_when_asked_and_says_it_varies_on_accept_encoding(client):
    plain = client.get("/v1/openapi.json")
    zipped = client.get("/v1/openapi.json", headers=GZIP)
    assert "Content-Encoding" not in plain.headers and "Accept-Encoding" in plain.headers["Vary"]
    assert zipped.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in zipped.headers["Vary"]
    assert len(zipped.data) < len(plain.data) / 5
    assert json.loads(gzip.decompress(zipped.data)) == plain.json
    assert int(zipped.headers["Content-Length"]) == len(zipped.data)


def test_a_small_answer_or_one_refusing_gzip_goes_out_plain(client):
    small = client.get("/v1/problems/nothing-here", headers=GZIP)
    assert len(small.data) < 1024 and "Content-Encoding" not in small.headers
    refused = client.get("/v1/openapi.json", headers={"Accept-Encoding": "gzip;q=0, identity"})
    assert "Content-Encoding" not in refused.headers


def test_a_stream_is_never_gzipped(players):
    host, guest = players(2)
    game_id = started_game([host, guest])
    response = host.get(f"/v1/games/{game_id}/stream", headers=GZIP)
    assert response.mimetype == "text/event-stream"
    assert "Content-Encoding" not in response.headers
    assert b"event: view" in response.data


def test_answers_that_depend_on_the_token_are_private_and_vary_on_authorization(players):
    host, guest = players(2)
    game_id = started_game([host, guest])
    answers = [host.get(f"/v1/games/{game_id}/view"), host.get(f"/v1/games/{game_id}/legal-commands"),
               host.get(f"/v1/games/{game_id}/events"), host.get("/v1/players/me/inbox"), host.get("/v1/players/me"),
               host.get("/v1/games"), host.get("/v1/players/me/tokens")]
    etag = answers[0].headers["ETag"]
    answers.append(host.get(f"/v1/games/{game_id}/view", headers={"If-None-Match": etag}))
    assert answers[-1].status_code == 304
    for answer in answers:
        assert answer.headers["Cache-Control"] == "private", answer.request.path
        assert "Authorization" in answer.headers["Vary"], answer.request.path


def test_a_public_answer_is_not_marked_private(client):
    rules = client.get("/v1/rules")
    assert "private" not in rules.headers.get("Cache-Control", "")
    assert "Authorization" not in rules.headers.get("Vary", "")


@pytest.fixture
def limited(service, redis):
    return create_app({"RATE_LIMIT_PER_MINUTE": 5}, service=service, redis=redis)


def test_every_rate_limited_answer_carries_the_ietf_ratelimit_fields(limited):
    client = limited.test_client()
    answers = [client.get("/v1/rules", environ_base={"REMOTE_ADDR": "10.9.8.7"}) for _ in range(6)]
    assert [a.status_code for a in answers] == [200] * 5 + [429]
    for answer in answers:
        assert answer.headers["RateLimit-Policy"] == '"default";q=5;w=60'
    remaining = [answer.headers["RateLimit"].split(";")[1] for answer in answers]
    assert remaining == ["r=4", "r=3", "r=2", "r=1", "r=0", "r=0"]
    for answer in answers[:5]:
        seconds = int(answer.headers["RateLimit"].split(";t=")[1])
        assert 1 <= seconds <= 60
    refused = answers[-1]
    assert refused.headers["RateLimit"].endswith(f";t={refused.headers['Retry-After']}")


def test_the_lobby_says_its_total_and_links_the_next_page(players, client):
    (host,) = players(1)
    made = {host.create("the-coil", {"players": 2}) for _ in range(3)}
    first = host.get("/v1/games?game=the-coil&status=lobby&limit=2")
    assert first.json["total"] >= 3 and first.json["total_capped"] is False
    link = first.headers["Link"]
    assert link.endswith('>; rel="next"') and "offset=2" in link and "limit=2" in link and "game=the-coil" in link
    following = host.get(link[1:link.index(">")])
    assert following.status_code == 200 and following.json["total"] == first.json["total"]
    last_offset = first.json["total"] - 1
    last = host.get(f"/v1/games?game=the-coil&status=lobby&limit=2&offset={last_offset}")
    assert len(last.json["games"]) == 1 and "Link" not in last.headers
    assert not {g["id"] for g in first.json["games"]} & {g["id"] for g in following.json["games"]}
    assert made <= {g["id"] for g in host.get("/v1/games?game=the-coil&status=lobby&limit=200").json["games"]}


def test_the_total_is_counted_only_up_to_its_cap(players, service):
    (host,) = players(1)
    for _ in range(3):
        host.create("runebound", {"players": 2})
    with service.pool.connection() as conn:
        full = readmodels.count_games(conn, "runebound", "lobby", None, None)
        assert readmodels.count_games(conn, "runebound", "lobby", None, None, cap=2) == 2
    assert full >= 3


def test_a_replayed_idempotent_answer_says_it_is_one(players):
    host, guest = players(2)
    game_id = started_game([host, guest])
    mover = next(p for p in (host, guest) if p.legal(game_id))
    command = mover.legal(game_id)[0]
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = mover.act(game_id, command, headers=key)
    again = mover.act(game_id, command, headers=key)
    assert first.status_code == again.status_code == 200
    assert "Idempotent-Replayed" not in first.headers
    assert again.headers["Idempotent-Replayed"] == "true" and again.json == first.json
    resign_key = {"Idempotency-Key": str(uuid.uuid4())}
    resigned = host.post(f"/v1/games/{game_id}/resign", headers=resign_key)
    replayed = host.post(f"/v1/games/{game_id}/resign", headers=resign_key)
    assert "Idempotent-Replayed" not in resigned.headers and replayed.headers["Idempotent-Replayed"] == "true"


def test_every_if_match_form_the_document_states_is_accepted(players, spec):
    host, guest = players(2)
    game_id = started_game([host, guest])
    described = next(p for p in spec["paths"]["/v1/games/{game_id}/commands"]["post"]["parameters"]
                     if p["name"] == "If-Match")["description"]
    mover = next(p for p in (host, guest) if p.legal(game_id))
    view = mover.view(game_id)
    version, etag = view.json["version"], view.headers["ETag"]
    forms = [etag, f"W/{etag}", f'"{version}"', str(version), "*"]
    for form in ('`\\"12-3f9a0c1b2d4e\\"`', "W/", '`\\"12\\"`', "`12`", "`*`"):
        assert form.replace("\\", "") in described.replace("\\", ""), form
    for form in forms:
        response = mover.act(game_id, {"type": "NoSuchCommand"}, headers={"If-Match": form})
        assert response.json["type"].endswith("/unknown-command-type"), (form, response.json)
    stale = mover.act(game_id, mover.legal(game_id)[0], headers={"If-Match": f'"{version - 1}"'})
    assert stale.status_code == 412
    assert mover.act(game_id, mover.legal(game_id)[0], headers={"If-Match": "soon"}).status_code == 422


def test_the_document_names_a_server_and_documents_each_header(spec):
    assert spec["servers"] and spec["servers"][0]["url"] == "/"
    listing = spec["paths"]["/v1/games"]["get"]["responses"]
    assert {"Link", "RateLimit", "RateLimit-Policy", "Vary", "Cache-Control", "Content-Encoding"} <= set(listing["200"]["headers"])
    assert {"RateLimit", "RateLimit-Policy"} <= set(listing["429"]["headers"])
    view = spec["paths"]["/v1/games/{game_id}/view"]["get"]["responses"]
    assert {"Cache-Control", "Vary"} <= set(view["200"]["headers"]) and {"Cache-Control", "Vary"} <= set(view["304"]["headers"])
    command = spec["paths"]["/v1/games/{game_id}/commands"]["post"]["responses"]["200"]["headers"]
    assert "Idempotent-Replayed" in command
    assert "Idempotent-Replayed" in spec["paths"]["/v1/games/{game_id}/resign"]["post"]["responses"]["200"]["headers"]
    rules = spec["paths"]["/v1/rules"]["get"]["responses"]["200"]["headers"]
    assert "Cache-Control" not in rules and "RateLimit" in rules
    stream = spec["paths"]["/v1/games/{game_id}/stream"]["get"]["responses"]["200"]["headers"]
    assert "Content-Encoding" not in stream
    for name, header in spec["components"]["headers"].items():
        assert header["description"], name
    assert "total" in spec["components"]["schemas"]["GameList"]["required"]



def test_a_cors_answer_keeps_every_field_it_varies_on(service):
    app = create_app({"RATE_LIMIT_PER_MINUTE": 0, "CORS_ORIGINS": "https://play.example"}, service=service)
    response = app.test_client().get("/v1/games", headers={"Origin": "https://play.example"})
    varies = {field.strip() for field in response.headers["Vary"].split(",")}
    assert {"Origin", "Accept-Encoding", "Authorization"} <= varies
    exposed = response.headers["Access-Control-Expose-Headers"]
    assert all(name in exposed for name in ("RateLimit", "RateLimit-Policy", "Link", "Idempotent-Replayed"))


def test_a_full_page_of_the_feed_links_the_next_one_and_the_last_page_does_not(players):
    host, guest = players(2)
    game_id = started_game([host, guest])
    first = host.get(f"/v1/games/{game_id}/events?limit=2")
    assert len(first.json["events"]) == 2
    assert first.headers["Link"] == f'</v1/games/{game_id}/events?after=2&limit=2>; rel="next"'
    rest = host.get(f"/v1/games/{game_id}/events?after=2&limit=1000")
    assert "Link" not in rest.headers


def test_a_full_page_of_a_webhooks_deliveries_links_the_next_one(players, spec):
    (ada,) = players(1)
    made = ada.post("/v1/players/me/webhooks", json={"url": "https://hooks.example/boardlog"})
    assert made.status_code == 201, made.json
    page = ada.get(f"/v1/players/me/webhooks/{made.json['id']}/deliveries?limit=1")
    assert page.status_code == 200 and "Link" not in page.headers  # no delivery yet: nothing follows
    for path in ("/v1/games/{game_id}/events", "/v1/players/me/webhooks/{webhook_id}/deliveries",
                 "/v1/players/me/notifications/mail"):
        assert "Link" in spec["paths"][path]["get"]["responses"]["200"]["headers"], path
