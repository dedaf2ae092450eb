"""A proposal to end a game reaches the other seat's player through his
channels (a webhook, a device by Web Push), with a sentence naming who
proposed which ending and the table's link, and nothing of the game."""

from __future__ import annotations

import json

import pytest

from workers.notify.runner import Notifier

from .conftest import signin_links, started_game, wait_until
from .pushservice import Browser
from .test_email import confirmed
from .test_push import opened, subscribe


@pytest.fixture
def notifier(fresh_url, notify_env):
    running = Notifier(fresh_url, concurrency=2).start()
    yield running
    running.close()


def test_a_proposal_to_end_reaches_the_other_seats_webhook_and_device_as_a_sentence_and_nothing_hidden(
        callers, game_service, receiver, push_service, notifier):
    ada, bob = callers(2)
    for caller in (ada, bob):
        hook = caller.call("POST", "/v1/players/me/webhooks", json={"url": f"{receiver.url}/{caller.id}"})
        assert hook.status_code == 201, hook.json
    device = Browser(push_service.endpoint("bob"))
    subscribe(bob, device)
    server_key = bob.call("GET", "/v1/push/application-server-key").json["public_key"]
    game_id = started_game(game_service, [ada.id, bob.id])
    proposed = ada.call("POST", f"/v1/games/{game_id}/end-proposal", json={"ending": "as-it-stands"})
    assert proposed.status_code == 200, proposed.json
    name = ada.call("GET", "/v1/players/me").json["name"]
    said = (f"{name} proposes to end your game of Cronberg as it stands, ranked by its score now: accept or decline "
            f"at http://127.0.0.1:8000/#/games/{game_id}")

    def proposals():
        return [(r["path"], json.loads(r["body"])) for r in receiver.received
                if json.loads(r["body"])["type"] == "end-proposed"]

    [(path, body)] = wait_until(proposals, what="the proposal at Bob's webhook")
    assert path == f"/hook/{bob.id}", "the proposer is not told of his own proposal"
    told = body["data"]
    assert (told["game_id"], told["game"], told["seat"], told["seats"]) == (str(game_id), "cronberg", "p2", ["p1"])
    assert told["data"] == {"seat": "p1", "player": ada.id, "ending": "as-it-stands", "text": said}
    assert set(told) == {"id", "kind", "game_id", "game", "version", "seat", "seats", "data", "occurred_at"}, \
        "no view, no game state"

    def pushed():
        return [shown for push in push_service.pushes(f"/push/{device.endpoint.rsplit('/', 1)[1]}")
                for shown in [opened(device, push, server_key)] if shown["tag"].endswith(":end-proposed")]

    [shown] = wait_until(pushed, what="the proposal on Bob's device")
    assert shown == {"title": "A proposal to end Cronberg", "body": said, "url": f"/#/games/{game_id}",
                     "tag": f"{game_id}:end-proposed"}



def test_a_proposal_to_end_is_mailed_to_the_other_player_with_its_sentence_and_a_link_that_signs_him_in(
        callers, game_service, mailbox, notifier):
    ada, bob = callers(2)
    confirmed(bob, mailbox, "bob@example.org", turns="idle")
    game_id = started_game(game_service, [ada.id, bob.id])
    assert ada.call("POST", f"/v1/games/{game_id}/end-proposal", json={"ending": "cancelled"}).status_code == 200
    [mail] = wait_until(lambda: [m for m in mailbox.messages if m["Subject"].startswith("A proposal to end")],
                        what="the proposal's mail")
    assert (mail["To"], mail["Subject"]) == ("bob@example.org", "A proposal to end your game of Cronberg")
    name = ada.call("GET", "/v1/players/me").json["name"]
    text = mail.get_body(("plain",)).get_content()
    assert text.startswith(f"{name} proposes to end your game of Cronberg cancelled, with no result: accept or "
                           f"decline at http://127.0.0.1:8000/#/games/{game_id}")
    [(_, linked, _)] = signin_links(mail)
    assert linked == str(game_id) and mail["List-Unsubscribe"]
