"""A notification's payload is stored without what its row's columns hold
(workers/notify/payloads.py, issue 37), and every reader is given the whole
of it as before: a webhook's body, byte for byte, and a push's message. The
expected payloads are written out here from the event, in the order the
readers always had their fields (jsonb's: shortest key first)."""

from __future__ import annotations

import datetime as dt
import json
import uuid

import psycopg
import pytest
from standardwebhooks.webhooks import Webhook

from workers.notify import payloads
from workers.notify.runner import Notifier

from .conftest import started_game, wait_until
from .pushservice import Browser
from .test_push import opened, subscribe


@pytest.fixture
def notifier(fresh_url, notify_env):
    running = Notifier(fresh_url, concurrency=2).start()
    yield running
    running.close()


def webhook_of(caller, url) -> dict:
    response = caller.call("POST", "/v1/players/me/webhooks", json={"url": url, "kinds": ["turn"]})
    assert response.status_code == 201, response.json
    return response.json


def compact(value) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


def test_a_turn_is_stored_without_its_columns_and_its_webhook_and_push_say_what_they_always_said(
        callers, game_service, receiver, push_service, notifier, fresh_url):
    ada, bob = callers(2)
    hooks = {caller.id: webhook_of(caller, receiver.url) for caller in (ada, bob)}
    server_key = ada.call("GET", "/v1/push/application-server-key").json["public_key"]
    devices = {caller.id: Browser(push_service.endpoint(caller.id[:8])) for caller in (ada, bob)}
    for caller in (ada, bob):
        subscribe(caller, devices[caller.id])

    game_id = str(started_game(game_service, [ada.id, bob.id]))
    _, session = game_service.load(game_id)
    started = next(e for e in game_service.store.read_stream(f"game-{game_id}") if e.metadata.get("turn_came"))
    seat = started.metadata["turn_came"][0]
    player = session.players[seat]
    body = wait_until(lambda: [r for r in receiver.received if json.loads(r["body"])["type"] == "turn"],
                      what="the first turn at the receiver")[0]

    occurred = started.recorded_at.astimezone(dt.timezone.utc).isoformat()
    expected = {"id": f"n{started.global_position}-{uuid.UUID(player).hex}-turn", "data": {"to_act": [seat]},
                "game": "cronberg", "kind": "turn", "seat": seat, "seats": [seat], "game_id": game_id,
                "version": started.version, "occurred_at": occurred}
    assert body["body"] == compact({"type": "turn", "timestamp": occurred, "data": expected})
    assert Webhook(hooks[player]["secret"]).verify(body["body"], body["headers"])["data"] == expected

    with psycopg.connect(fresh_url) as conn:
        stored = conn.execute("select payload from notifications where id = %s", (expected["id"],)).fetchone()[0]
    assert stored == {"data": {"to_act": [seat]}, "seat": seat, "seats": [seat]}, \
        "its id, kind, game id, version and time are the row's columns, the game's name its games row's"

    push = wait_until(lambda: push_service.pushes(f"/push/{devices[player].endpoint.rsplit('/', 1)[1]}"),
                      what="the turn's push")[0]
    assert opened(devices[player], push, server_key) == {
        "title": "Your turn in Cronberg", "body": "It is your turn in Cronberg.", "url": f"/#/games/{game_id}",
        "tag": f"{game_id}:turn"}


def test_a_notification_stored_whole_before_is_sent_as_it_was(callers, receiver, notifier, fresh_url):
    ada = callers(1)[0]
    hook = webhook_of(ada, receiver.url)
    game_id = uuid.uuid4()
    notification = f"n41-{uuid.UUID(ada.id).hex}-turn"
    # As a notifier wrote it before: every field, in a session whose time zone was not UTC.
    written = {"id": notification, "kind": "turn", "game_id": str(game_id), "game": None, "version": 7,
               "seat": "p2", "seats": ["p2"], "data": {"to_act": ["p2"]}, "occurred_at": "2026-12-05T09:30:00+01:00"}
    with psycopg.connect(fresh_url, autocommit=True) as conn:
        conn.execute("insert into notifications (id, position, player_id, game_id, kind, version, payload, event_at)"
                     " values (%s, 41, %s, %s, 'turn', 7, %s, '2026-12-05T08:30:00Z')",
                     (notification, ada.id, game_id, json.dumps(written)))
        conn.execute("insert into deliveries (notification_id, target, webhook_id, player_id) values (%s, %s, %s, %s)",
                     (notification, f"webhook:{hook['id']}", hook["id"], ada.id))
        conn.execute("select pg_notify('boardlog_deliveries', '')")
    body = wait_until(lambda: receiver.received, what="the delivery")[0]["body"]
    assert body == compact({"type": "turn", "timestamp": "2026-12-05T09:30:00+01:00", "data": {
        "id": notification, "data": {"to_act": ["p2"]}, "game": None, "kind": "turn", "seat": "p2", "seats": ["p2"],
        "game_id": str(game_id), "version": 7, "occurred_at": "2026-12-05T09:30:00+01:00"}})


def test_what_the_columns_cannot_give_back_exactly_stays_in_the_payload():
    at = dt.datetime(2026, 12, 5, 8, 30, tzinfo=dt.timezone.utc)
    game_id = "0A1B2C3D-0000-4000-8000-000000000001"
    whole = {"id": "n5-x-turn", "kind": "turn", "game_id": game_id, "game": "cronberg", "version": 3,
             "seat": None, "seats": [], "data": {}, "occurred_at": "2026-12-05T09:30:00+01:00"}
    assert payloads.stored(whole, "n5-x-turn", "turn", game_id, 3, at) == {
        "game_id": game_id, "seats": [], "data": {}, "occurred_at": "2026-12-05T09:30:00+01:00"}
    in_utc = {**whole, "game_id": game_id.lower(), "occurred_at": "2026-12-05T08:30:00+00:00"}
    assert payloads.stored(in_utc, "n5-x-turn", "turn", game_id, 3, at) == {"seats": [], "data": {}}


def test_a_game_without_a_name_when_its_notification_was_made_stays_without_one_once_its_row_names_it():
    at = dt.datetime(2026, 12, 5, 8, 30, tzinfo=dt.timezone.utc)
    game_id = str(uuid.uuid4())
    unnamed = {"id": "n5-x-turn", "kind": "turn", "game_id": game_id, "game": None, "version": 3,
               "seat": "p1", "seats": ["p1"], "data": {}, "occurred_at": at.isoformat()}
    kept = payloads.stored(unnamed, "n5-x-turn", "turn", game_id, 3, at)
    assert kept == {"game": None, "seat": "p1", "seats": ["p1"], "data": {}}
    assert payloads.readable(kept, "n5-x-turn", "turn", uuid.UUID(game_id), 3, at, "cronberg") == {
        "id": "n5-x-turn", "data": {}, "game": None, "kind": "turn", "seat": "p1", "seats": ["p1"],
        "game_id": game_id, "version": 3, "occurred_at": "2026-12-05T08:30:00+00:00"}


def test_a_confirmation_mail_which_no_event_caused_reads_as_stored():
    assert payloads.readable({"email": "a@example.org"}, "c1", "email-confirmation", None, None,
                             dt.datetime.now(dt.timezone.utc), None) == {"email": "a@example.org"}
