"""Streams through Flask's test client (streams end after a second here, see
conftest): what they carry, resuming, tickets, limits, bad input. The same
over real sockets, under the gevent server, is in test_waiting_server.py."""

from __future__ import annotations

import threading
import uuid

import psycopg
import pytest

from api.http.app import create_app
from tests.support.sse import parse, read_until

from .conftest import started_game


def stream(client, path, **kwargs):
    response = client.get(path, **kwargs)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == "text/event-stream"
    return parse(response.get_data(as_text=True))


def feed(player, game_id):
    return player.get(f"/v1/games/{game_id}/events?after=0&limit=1000").json["events"]


def play(players, game_id, moves):
    by_seat = {p.view(game_id).json["seat"]: p for p in players}
    for _ in range(moves):
        view = players[0].view(game_id).json
        mover = by_seat[view["to_act"][0]]
        assert mover.act(game_id, mover.legal(game_id)[0]).status_code == 200


def test_a_stream_from_the_start_carries_every_version_in_order_as_the_feed_shows_it(players, client):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    play([ada, bob], game_id, 3)
    messages, _, retries = stream(client, f"/v1/games/{game_id}/stream?after=0", headers=ada.auth)
    events = [m for m in messages if m.event == "message"]
    assert [int(m.id) for m in events] == list(range(1, len(events) + 1))
    assert [m.json for m in events] == feed(ada, game_id)
    [view] = [m for m in messages if m.event == "view"]
    assert view.json == ada.view(game_id).json and int(view.id) == len(events)
    assert retries and messages[-1].event == "shutdown"  # its lifetime ended: reconnect


def test_resuming_after_a_version_gives_the_rest_and_nothing_before(players, client):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    play([ada, bob], game_id, 2)
    version = ada.view(game_id).json["version"]
    messages, _, _ = stream(client, f"/v1/games/{game_id}/stream", headers={**bob.auth, "Last-Event-ID": "3"})
    events = [m for m in messages if m.event == "message"]
    assert [int(m.id) for m in events] == list(range(4, version + 1))
    assert [m.json for m in events] == feed(bob, game_id)[3:]


def test_a_stream_without_a_resume_point_starts_with_the_view_now(players, client):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    messages, comments, _ = stream(client, f"/v1/games/{game_id}/stream")  # a spectator
    assert messages[0].event == "view" and messages[0].json["seat"] is None
    assert messages[0].json == client.get(f"/v1/games/{game_id}/view").json
    assert [m.event for m in messages[1:]] == ["shutdown"] and "heartbeat" in comments


def test_a_move_reaches_an_open_stream_with_the_new_view(players, client):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    version = ada.view(game_id).json["version"]
    response = client.get(f"/v1/games/{game_id}/stream", headers=bob.auth, buffered=False)
    chunks = iter(response.response)
    first = next(chunks) + next(chunks)  # the retry hint, then the view now
    assert b"event: view" in first
    play([ada, bob], game_id, 1)
    rest = b"".join(chunks).decode()
    response.close()
    messages, _, _ = parse(rest)
    moved = [m for m in messages if m.event == "message"]
    assert moved and int(moved[0].id) == version + 1
    assert [m.json for m in moved] == feed(bob, game_id)[version:]
    assert [m.json for m in messages if m.event == "view"] == [bob.view(game_id).json]


def test_a_finished_game_seen_to_its_end_answers_no_content_so_browsers_stop_reconnecting(players, client, service):
    ada = players(1)[0]
    game_id = ada.create()
    assert ada.post(f"/v1/games/{game_id}/leave").status_code == 200  # the last one out cancels it
    version = client.get(f"/v1/games/{game_id}").json["version"]
    assert client.get(f"/v1/games/{game_id}/stream?after={version}").status_code == 204
    messages, _, _ = stream(client, f"/v1/games/{game_id}/stream?after=0")
    assert messages[-1].event == "end" and messages[-1].json["status"] == "cancelled"


@pytest.mark.parametrize("header, query", [("abc", ""), ("-1", ""), ("", "?after=x"), ("", "?after=-2")])
def test_a_resume_point_that_is_not_a_version_is_refused_before_the_stream_starts(players, client, header, query):
    game_id = players(1)[0].create()
    headers = {"Last-Event-ID": header} if header else {}
    response = client.get(f"/v1/games/{game_id}/stream{query}", headers=headers)
    assert response.status_code == 422 and response.mimetype == "application/problem+json"


def test_a_resume_point_beyond_the_game_says_where_the_game_is(players, client):
    game_id = players(1)[0].create()
    response = client.get(f"/v1/games/{game_id}/stream", headers={"Last-Event-ID": "99"})
    assert response.status_code == 422 and "version 2" in response.json["detail"]


def test_an_unknown_game_is_a_404_problem_not_a_stream(client):
    for game_id in (uuid.uuid4(), "not-a-game"):
        response = client.get(f"/v1/games/{game_id}/stream")
        assert response.status_code == 404 and response.mimetype == "application/problem+json"


def test_a_ticket_opens_one_stream_as_its_player_and_only_once(players, client):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    answer = ada.post("/v1/stream-tickets")
    assert answer.status_code == 201 and answer.json["expires_in"] == 60
    ticket = answer.json["ticket"]
    messages, _, _ = stream(client, f"/v1/games/{game_id}/stream?ticket={ticket}")
    assert messages[0].event == "view" and messages[0].json["seat"] == ada.view(game_id).json["seat"]
    reused = client.get(f"/v1/games/{game_id}/stream?ticket={ticket}")
    assert reused.status_code == 401 and "already used" in reused.json["detail"]


def test_a_forged_or_expired_ticket_is_a_401(players, client, database_url):
    ada = players(1)[0]
    game_id = ada.create()
    for forged in ("st_" + "x" * 43, "bl_not-a-ticket"):
        response = client.get(f"/v1/games/{game_id}/stream?ticket={forged}")
        assert response.status_code == 401 and response.mimetype == "application/problem+json"
    ticket = ada.post("/v1/stream-tickets").json["ticket"]
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("update stream_tickets set expires_at = now() - interval '1 second' where player_id = %s",
                     (ada.id,))
    response = client.get(f"/v1/players/me/stream?ticket={ticket}")
    assert response.status_code == 401 and "expired" in response.json["detail"]


def test_a_ticket_needs_a_token_and_the_player_stream_needs_one_or_a_ticket(client):
    assert client.post("/v1/stream-tickets").status_code == 401
    assert client.get("/v1/players/me/stream").status_code == 401


def test_a_player_over_the_per_player_cap_gets_429_with_retry_after(players, client, app):
    ada = players(1)[0]
    game_id = ada.create()
    limit = app.extensions["boardlog"].streams.per_player
    open_ = [client.get(f"/v1/games/{game_id}/stream", headers=ada.auth, buffered=False) for _ in range(limit)]
    try:
        assert all(r.status_code == 200 for r in open_)
        refused = client.get(f"/v1/games/{game_id}/stream", headers=ada.auth)
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
        assert client.get(f"/v1/games/{game_id}/stream").status_code == 200  # others are not refused
    finally:
        for response in open_:
            response.close()
    assert client.get(f"/v1/games/{game_id}/stream", headers=ada.auth, buffered=False).status_code == 200


def test_a_server_holding_its_limit_of_waiters_answers_503_with_retry_after(service, players):
    app = create_app({"RATE_LIMIT_PER_MINUTE": 0, "STREAMS": {"total": 2, "lifetime": 1.0}}, service=service)
    client = app.test_client()
    game_id = str(service.create(players(1)[0].id, "cronberg", {}, None))
    held = [client.get(f"/v1/games/{game_id}/stream", buffered=False) for _ in range(2)]
    try:
        for path in (f"/v1/games/{game_id}/stream", f"/v1/games/{game_id}/view?wait=5"):
            headers = {"If-None-Match": "*"}
            refused = client.get(path, headers=headers)
            assert refused.status_code == 503 and int(refused.headers["Retry-After"]) > 0
        assert client.get(f"/v1/games/{game_id}/view").status_code == 200  # not waiting: answered
    finally:
        for response in held:
            response.close()
    assert app.extensions["boardlog"].streams.count() == 0


def test_a_hundred_long_polls_woken_by_one_move_share_one_load_and_one_view_per_seat(players, service):
    # Over 16 long-polls per token: a process of its own that takes them all from one token.
    app = create_app({"RATE_LIMIT_PER_MINUTE": 0, "STREAMS": {"lifetime": 1.0, "heartbeat": 0.3,
                                                              "long_polls_per_token": 100}}, service=service)
    client = app.test_client()
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    shared = app.extensions["boardlog"].streams.shared
    etags = {p: p.view(game_id).headers["ETag"] for p in (ada, bob)}
    answers = []

    def poll(player):
        headers = {"If-None-Match": etags[player], **player.auth} if player else {"If-None-Match": "*"}
        answers.append(client.get(f"/v1/games/{game_id}/view?wait=20", headers=headers))

    waiting = [threading.Thread(target=poll, args=([ada, bob, None][n % 3],)) for n in range(100)]
    store = app.extensions["boardlog"].service.store
    before = dict(shared.computed)
    for thread in waiting:
        thread.start()
    while store._listener.waiters() < 100:
        threading.Event().wait(0.05)
    play([ada, bob], game_id, 1)
    for thread in waiting:
        thread.join(30)
    assert len(answers) == 100 and all(a.status_code == 200 for a in answers)
    assert len({a.json["version"] for a in answers}) == 1
    assert shared.computed["views"] - before["views"] == 3  # ada's, bob's, a spectator's
    assert shared.computed["loads"] - before["loads"] <= 1


def test_waiters_that_miss_a_view_at_the_same_moment_compute_it_once(players, service, monkeypatch):
    """Ten waiters of one seat ask for the view of a version nobody has asked
    for yet, while its receipt is being read: one computes it, the others
    take its text (each once computed its own when they came together)."""
    app = create_app({"RATE_LIMIT_PER_MINUTE": 0}, service=service)
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    shared = app.extensions["boardlog"].streams.shared
    rules, session = service.load(uuid.UUID(game_id))
    heads = service.heads
    reading = heads.receipt_for

    def a_slow_receipt(*args, **kwargs):
        threading.Event().wait(0.2)  # the ten callers all come while the first one reads
        return reading(*args, **kwargs)

    monkeypatch.setattr(heads, "receipt_for", a_slow_receipt)
    texts = []
    callers = [threading.Thread(target=lambda: texts.append(shared.view_json(uuid.UUID(game_id), rules, session, "p1")))
               for _ in range(10)]
    before = shared.computed["views"]
    for caller in callers:
        caller.start()
    for caller in callers:
        caller.join(10)
    assert len(texts) == 10 and len(set(texts)) == 1
    assert shared.computed["views"] - before == 1


def test_eighteen_streams_woken_by_one_move_share_each_redacted_event_and_view_per_viewer(players, service):
    app = create_app({"RATE_LIMIT_PER_MINUTE": 0, "STREAMS": {"lifetime": 60}}, service=service)
    client = app.test_client()
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    shared = app.extensions["boardlog"].streams.shared
    opened = [client.get(f"/v1/games/{game_id}/stream", headers=headers, buffered=False)
              for headers in [ada.auth, bob.auth, {}] * 6]
    chunks = [iter(response.response) for response in opened]
    for each in chunks:
        next(each), next(each)  # the retry hint and the view now: every stream is open and waiting
    version = ada.view(game_id).json["version"]
    before = dict(shared.computed)
    play([ada, bob], game_id, 1)
    now = ada.view(game_id).json["version"]
    marker = f"id: {now}\nevent: view"
    for each, response in zip(chunks, opened):
        text = ""
        while marker not in text:
            text += next(each).decode()
        response.close()
    assert shared.computed["views"] - before["views"] == 3  # ada's, bob's and a spectator's
    assert shared.computed["events"] - before["events"] == 3 * (now - version)
    assert shared.computed["reads"] - before["reads"] <= 1


def test_a_message_said_at_the_table_reaches_an_open_game_stream_as_talk(players, client):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    response = client.get(f"/v1/games/{game_id}/stream", headers=bob.auth, buffered=False)
    chunks = iter(response.response)
    first = next(chunks) + next(chunks)  # the retry hint, then the view now
    assert b"event: view" in first
    assert ada.post(f"/v1/games/{game_id}/channels/table/messages", json={"text": "hi bob"}).status_code == 201
    text = read_until(chunks, "event: talk")
    response.close()
    talk = [m for m in parse(text)[0] if m.event == "talk"]
    assert [(m.json["text"], m.json["channel"], m.json["player"], m.id) for m in talk] == \
        [("hi bob", "table", ada.id, None)]
