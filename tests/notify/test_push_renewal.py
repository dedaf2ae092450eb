"""A browser may replace a device's push subscription on its own (the Push
API's pushsubscriptionchange): its service worker, which holds no player's
token, moves the device with the renewal key it was given when the device
was added (POST /v1/push/renewals)."""

from __future__ import annotations

import json

from .conftest import started_game, wait_until
from .pushservice import Browser
from .test_push import REFUSED, listed, notifier, opened, subscribe  # noqa: F401 (notifier: a fixture)

RENEWALS = "/v1/push/renewals"


def renewed(api, renewal_key, browser):
    return api.post(RENEWALS, json={"renewal_key": renewal_key, **browser.subscription()})


def test_a_subscription_the_browser_replaced_is_moved_by_its_renewal_key_and_the_next_turn_reaches_it(
        api, callers, game_service, push_service, notifier):  # noqa: F811
    ada, bob = callers(2)
    old = Browser(push_service.endpoint("ada-old"))
    made = subscribe(ada, old, label="phone")
    assert made["renewal_key"] and "renewal_key" not in listed(ada)[0], "given once, never listed"
    # When the browser replaces the subscription, and its worker sends the new one with the key (no token)
    new = Browser(push_service.endpoint("ada-new"))
    answer = renewed(api, made["renewal_key"], new)
    # Then the same device now pushes to the new endpoint
    assert answer.status_code == 200, answer.json
    assert (answer.json["id"], answer.json["endpoint"], answer.json["label"]) == (made["id"], new.endpoint, "phone")
    assert [(s["id"], s["endpoint"]) for s in listed(ada)] == [(made["id"], new.endpoint)]
    # And a second replacement works with the same key
    newer = Browser(push_service.endpoint("ada-newer"))
    assert renewed(api, made["renewal_key"], newer).status_code == 200
    # And the turn that comes next reaches the device there, encrypted for its new keys
    bobs = Browser(push_service.endpoint("bob-new"))
    assert renewed(api, subscribe(bob, Browser(push_service.endpoint("bob-old")))["renewal_key"], bobs).status_code == 200
    server_key = ada.call("GET", "/v1/push/application-server-key").json["public_key"]
    game_id = started_game(game_service, [ada.id, bob.id])
    now = {"/push/ada-newer": newer, "/push/bob-new": bobs}
    [(device, push)] = wait_until(lambda: [(now[path], push) for path in now for push in push_service.pushes(path)],
                                  what="the first turn's push on a renewed device")
    assert opened(device, push, server_key)["url"] == f"/#/games/{game_id}"
    assert [push_service.pushes(f"/push/{old}") for old in ("ada-old", "ada-new", "bob-old")] == [[], [], []]


def test_adding_the_device_again_gives_a_new_renewal_key_and_the_old_one_moves_nothing(api, callers, push_service):
    (ada,) = callers(1)
    browser = Browser(push_service.endpoint("ada"))
    first = subscribe(ada, browser)
    second = subscribe(ada, Browser(browser.endpoint))
    assert second["renewal_key"] != first["renewal_key"]
    refused = renewed(api, first["renewal_key"], Browser(push_service.endpoint("elsewhere")))
    assert refused.status_code == 404 and refused.mimetype == "application/problem+json"
    assert refused.json["type"].endswith("push-renewal-key-unknown") and "turn them on again" in refused.json["detail"]
    assert [s["endpoint"] for s in listed(ada)] == [browser.endpoint]


def test_a_renewal_to_an_endpoint_the_player_holds_already_leaves_one_device(api, callers, push_service):
    (ada,) = callers(1)
    phone, laptop = Browser(push_service.endpoint("phone")), Browser(push_service.endpoint("laptop"))
    made = subscribe(ada, phone, label="phone")
    subscribe(ada, laptop, label="laptop")
    assert renewed(api, made["renewal_key"], Browser(laptop.endpoint)).status_code == 200
    assert [(s["id"], s["label"]) for s in listed(ada)] == [(made["id"], "phone")]


def test_a_malformed_or_private_renewal_is_a_problem_with_a_sentence_and_changes_nothing(
        api, callers, push_service, monkeypatch):
    (ada,) = callers(1)
    browser = Browser(push_service.endpoint("ada"))
    made = subscribe(ada, browser)
    monkeypatch.setenv("BOARDLOG_WEBHOOK_ALLOW_PRIVATE", "0")
    given = [({"renewal_key": made["renewal_key"], **{k: body[k] for k in ("endpoint", "keys")}}, says)
             for body, says in REFUSED if "label" not in says]
    given.append(({k: v for k, v in Browser("https://push.example.com/x").subscription().items()}, "renewal_key"))
    for sent, says in given:
        response = api.post(RENEWALS, json=sent)
        assert response.status_code == 422 and response.mimetype == "application/problem+json", (sent, response.json)
        assert says in json.dumps(response.json), (sent, response.json)
    assert [s["endpoint"] for s in listed(ada)] == [browser.endpoint]
