"""Web Push end to end: subscriptions made through the API with keys made
here as a browser makes them, a notifier running here, and a push service
of the test's own (tests/notify/pushservice.py) that verifies each VAPID
signature and decrypts each payload."""

from __future__ import annotations

import json

import psycopg
import pytest

from workers.notify.runner import Notifier

from .conftest import started_game, wait_until
from .pushservice import Browser, PushService, verify_vapid

BASE = "/v1/players/me/push-subscriptions"


@pytest.fixture
def notifier(fresh_url, notify_env):
    running = Notifier(fresh_url, concurrency=2).start()
    yield running
    running.close()


def subscribe(caller, browser, **more):
    response = caller.call("POST", BASE, json=browser.subscription(**more))
    assert response.status_code == 201, response.json
    return response.json


def listed(caller):
    response = caller.call("GET", BASE)
    assert response.status_code == 200, response.json
    return response.json["subscriptions"]


def opened(browser, push, server_key):
    """The notification a push carries, once its signature and encryption were checked."""
    key, _ = verify_vapid(push["headers"]["authorization"], browser.endpoint.rsplit("/push/", 1)[0])
    assert key == server_key, "signed with the server's VAPID key, the one the page subscribed with"
    assert push["headers"]["content-encoding"] == "aes128gcm" and int(push["headers"]["ttl"]) > 0
    return json.loads(browser.decrypt(push["body"]))


def test_a_turn_reaches_the_players_device_signed_encrypted_and_telling_nothing_hidden(
        callers, game_service, push_service, notifier):
    ada, bob = callers(2)
    server_key = ada.call("GET", "/v1/push/application-server-key").json["public_key"]
    assert server_key == bob.call("GET", "/v1/push/application-server-key").json["public_key"], "one key"
    devices = {caller.id: Browser(push_service.endpoint(name)) for caller, name in ((ada, "ada"), (bob, "bob"))}
    made = subscribe(ada, devices[ada.id], label="phone")
    subscribe(bob, devices[bob.id])
    assert [(s["id"], s["label"], s["messages"]) for s in listed(ada)] == [(made["id"], "phone", False)]

    game_id = started_game(game_service, [ada.id, bob.id])
    rules, session = game_service.load(game_id)
    to_act = {session.players[seat] for seat in rules.to_act(session.state)}
    pushed = wait_until(lambda: [(player, p) for player, device in devices.items()
                                 for p in push_service.pushes(f"/push/{device.endpoint.rsplit('/', 1)[1]}")],
                        what="a push for the first turn")
    for player, push in pushed:
        shown = opened(devices[player], push, server_key)
        assert set(shown) == {"title", "body", "url", "tag"}, "a title, a sentence and a link: no game state"
        assert shown["url"] == f"/#/games/{game_id}"
        assert shown["title"] == "Your turn in Cronberg"
        assert shown["body"] == "It is your turn in Cronberg."
        assert player in to_act, "only a player whose turn it is hears of it"
    wait_until(lambda: _statuses(notifier) == {"delivered"}, what="the pushes recorded as delivered")


def _statuses(notifier, target_prefix="push:"):
    with notifier.deliverer.db.connection() as conn:
        return {row[0] for row in conn.execute("select status from deliveries where target like %s",
                                               (target_prefix + "%",))}


def test_a_push_service_answering_410_removes_its_subscription(callers, game_service, push_service, notifier):
    ada, bob = callers(2)
    push_service.answers = [410]
    for caller in (ada, bob):
        subscribe(caller, Browser(push_service.endpoint(caller.id)))
    started_game(game_service, [ada.id, bob.id])
    wait_until(lambda: push_service.received, what="a push")
    wait_until(lambda: not listed(ada) or not listed(bob), what="the gone subscription removed")
    wait_until(lambda: _statuses(notifier) == {"dead"}, what="the delivery given up")
    with notifier.deliverer.db.connection() as conn:
        reasons = {row[0] for row in conn.execute("select reason from deliveries where target like 'push:%'")}
    assert reasons == {"the push service says the device's subscription is gone"}
    assert len(push_service.received) == 1, "one push, and none again to a gone subscription"


def test_a_push_service_down_for_a_while_loses_nothing(callers, game_service, push_service, notifier,
                                                      monkeypatch):
    monkeypatch.setenv("BOARDLOG_NOTIFY_BACKOFF", ",".join(["0.3"] * 30))
    ada, bob = callers(2)
    browsers = {caller.id: Browser(push_service.endpoint(caller.id)) for caller in (ada, bob)}
    for caller in (ada, bob):
        subscribe(caller, browsers[caller.id])
    server_key = ada.call("GET", "/v1/push/application-server-key").json["public_key"]
    port = push_service.port
    push_service.close()  # down: connections refused
    game_id = started_game(game_service, [ada.id, bob.id])
    with notifier.deliverer.db.connection() as conn:
        def failed_twice():
            return conn.execute("select count(*) from delivery_attempts a join deliveries d on d.id = a.delivery_id"
                                " where d.target like 'push:%' and a.status_code is null").fetchone()[0] >= 2
        wait_until(failed_twice, what="failed attempts while the push service is down")
    back = PushService(port)
    try:
        pushed = wait_until(lambda: back.received, what="the push once the service is back")
        wait_until(lambda: _statuses(notifier) == {"delivered"}, what="every push delivered")
        player = next(p for p, b in browsers.items() if back.pushes(f"/push/{p}"))
        shown = opened(browsers[player], pushed[0], server_key)
        assert shown["url"] == f"/#/games/{game_id}"
    finally:
        back.close()


def test_a_removed_device_gets_nothing_and_removing_it_twice_is_a_problem(callers, push_service):
    (ada,) = callers(1)
    made = subscribe(ada, Browser(push_service.endpoint("ada")))
    assert ada.call("DELETE", f"{BASE}/{made['id']}").status_code == 204
    assert listed(ada) == []
    again = ada.call("DELETE", f"{BASE}/{made['id']}")
    assert again.status_code == 404 and again.mimetype == "application/problem+json"
    assert "no push subscription" in again.json["detail"]


def test_the_same_endpoint_again_renews_its_device_rather_than_adding_one(callers, push_service):
    (ada,) = callers(1)
    browser = Browser(push_service.endpoint("ada"))
    first = subscribe(ada, browser, label="old name")
    second = subscribe(ada, Browser(browser.endpoint), label="laptop", messages=True)
    assert [(s["id"], s["label"], s["messages"]) for s in listed(ada)] == [(first["id"], "laptop", True)]
    assert second["id"] == first["id"]


def _with(keys=None, **more):
    browser = Browser("https://push.example.com/send/abc")
    body = browser.subscription(**more)
    body["keys"].update(keys or {})
    return body


_NOT_ON_CURVE = "BA" + "A" * 85  # 65 bytes starting 0x04, but (0, 0) is no point of P-256


REFUSED = [  # (the subscription, what the problem's sentence says)
    (_with(endpoint="ftp://push.example.com/x"), "must start with http:// or https://"),
    (_with(endpoint="not a url"), "must start with http"),
    (_with(endpoint="https://user:pw@push.example.com/x"), "user name or password"),
    (_with(endpoint="https://127.0.0.1/x"), "may not be private, loopback"),
    (_with(endpoint="https://10.1.2.3/x"), "may not be private, loopback"),
    (_with(endpoint="https://2130706433/x"), "may not be private, loopback"),
    (_with(endpoint="http://push.example.com/x"), "must start with https://"),
    (_with({"p256dh": "AAAA"}), "65 bytes"),
    (_with({"p256dh": _NOT_ON_CURVE}), "65 bytes"),
    (_with({"p256dh": "not base64!"}), "keys.p256dh"),
    (_with({"auth": "c2hvcnQ"}), "16-byte"),
    (_with(label=""), "label"),
]


def test_each_malformed_or_private_subscription_is_a_problem_with_a_sentence_and_nothing_is_stored(
        callers, monkeypatch):
    monkeypatch.setenv("BOARDLOG_WEBHOOK_ALLOW_PRIVATE", "0")
    (ada,) = callers(1)
    for body, says in REFUSED:
        response = ada.call("POST", BASE, json=body)
        assert response.status_code == 422 and response.mimetype == "application/problem+json", (body, response.json)
        assert says in json.dumps(response.json), (body, response.json)
        assert response.json["detail"].strip(), "a sentence"
    assert listed(ada) == []


def test_a_reminder_chosen_for_push_reaches_the_device_with_its_sentence(callers, game_service, push_service,
                                                                        notifier, fresh_url):
    import datetime as dt

    ada, bob = callers(2)
    browsers = {caller.id: Browser(push_service.endpoint(caller.id)) for caller in (ada, bob)}
    for caller in (ada, bob):
        subscribe(caller, browsers[caller.id])
        caller.call("PATCH", "/v1/players/me/reminders", json={"push": [3600], "mail": [], "webhook": []})
    options = {"players": 2, "turn_seconds": 2 * 86400, "deadline_per_seat": True}
    game_id = started_game(game_service, [ada.id, bob.id], options=options)
    with psycopg.connect(fresh_url) as conn:
        deadline = conn.execute("select min(deadline) from seat_deadlines where game_id = %s", (game_id,)).fetchone()[0]
    turns = wait_until(lambda: len(push_service.received), what="the turn's pushes")
    assert game_service.reminders.fire(game_id, now=deadline - dt.timedelta(minutes=59)) >= 1
    wait_until(lambda: len(push_service.received) > turns, what="the reminder's push")
    server_key = ada.call("GET", "/v1/push/application-server-key").json["public_key"]
    shown = [opened(browsers[r["path"].rsplit("/", 1)[1]], r, server_key) for r in push_service.received[turns:]]
    assert [s["title"] for s in shown] == ["Time is running out in Cronberg"]
    assert shown[0]["body"].startswith("59 min left in Cronberg") and shown[0]["url"] == f"/#/games/{game_id}"
