"""Web Push: which notices are pushed (table talk only to who opted in),
and the server's VAPID key: made once and kept, or the operator's."""

from __future__ import annotations

import base64
import json

import pytest
from cryptography.hazmat.primitives.asymmetric import ec

from api.service import push
from api.service.settings import SettingError
from workers.notify.runner import Notifier

from .conftest import started_game, wait_until
from .pushservice import Browser, b64url, verify_vapid
from .test_push import listed, subscribe

KEY = "/v1/push/application-server-key"


class _running:
    """A notifier running for the block."""

    def __init__(self, url):
        self.notifier = Notifier(url, concurrency=2)

    def __enter__(self):
        return self.notifier.start()

    def __exit__(self, *exc):
        self.notifier.close()


def test_a_table_talk_message_is_pushed_only_to_the_devices_that_opted_in(callers, game_service, push_service,
                                                                          fresh_url, notify_env):
    ada, bob = callers(2)
    phone, laptop = Browser(push_service.endpoint("phone")), Browser(push_service.endpoint("laptop"))
    subscribe(bob, phone, messages=True)
    quiet = subscribe(bob, laptop)
    game_id = started_game(game_service, [ada.id, bob.id])
    with _running(fresh_url):
        said = ada.call("POST", f"/v1/games/{game_id}/channels/table/messages", json={"text": "the secret plan"})
        assert said.status_code in (200, 201), said.json
        shown = wait_until(lambda: [m for m in (json.loads(phone.decrypt(r["body"]))
                                                for r in push_service.pushes("/push/phone"))
                                    if m["title"].startswith("New message")], what="the message's push")
        assert shown[0]["url"] == f"/#/games/{game_id}" and "the secret plan" not in json.dumps(shown[0])
    with game_service.pool.connection() as conn:
        # The outbox takes a notice's deliveries to every device in one transaction: the phone's is there, so
        # would the laptop's be.
        kinds = conn.execute("select n.kind, d.target from deliveries d join notifications n on n.id = d.notification_id"
                             " where d.target like 'push:%%'").fetchall()
    assert ("message", f"push:{quiet['id']}") not in kinds, "the laptop did not opt in to messages"
    assert {kind for kind, _ in kinds} <= {"turn", "message"}, "no push for a join or the start itself"


def test_the_key_made_on_first_use_is_kept_and_the_same_for_every_process(game_service, api, monkeypatch):
    monkeypatch.delenv(push.KEY_ENV, raising=False)
    served = api.get(KEY).json["public_key"]
    other = push.Vapid(game_service.pool)  # another process's, on the same database
    assert other.public_key() == served
    raw = base64.urlsafe_b64decode(served + "=")
    assert len(raw) == 65 and raw[0] == 4, "an uncompressed P-256 point"
    with game_service.pool.connection() as conn:
        assert conn.execute("select count(*) from vapid_keys").fetchone()[0] == 1


def test_the_operators_key_is_served_and_signs_the_pushes(callers, game_service, push_service, fresh_url,
                                                          notify_env, monkeypatch):
    mine = ec.generate_private_key(ec.SECP256R1())
    monkeypatch.setenv(push.KEY_ENV, b64url(mine.private_numbers().private_value.to_bytes(32, "big")))
    monkeypatch.setenv(push.SUBJECT_ENV, "mailto:operator@example.org")
    ada, bob = callers(2)
    expected = b64url(push._public_bytes(mine))
    assert ada.call("GET", KEY).json["public_key"] == expected
    for caller in (ada, bob):
        subscribe(caller, Browser(push_service.endpoint(caller.id)))
    with _running(fresh_url):
        started_game(game_service, [ada.id, bob.id])
        first = wait_until(lambda: push_service.received, what="a push")[0]
    key, claims = verify_vapid(first["headers"]["authorization"], push_service.origin)
    assert key == expected and claims["sub"] == "mailto:operator@example.org"
    with game_service.pool.connection() as conn:
        assert conn.execute("select count(*) from vapid_keys").fetchone()[0] == 0, "the operator's key is not stored"
    assert len(listed(ada)) == 1


@pytest.mark.parametrize("name, value, says", [
    (push.KEY_ENV, "not-a-key", "32 bytes in base64url"),
    (push.KEY_ENV, "/nowhere/vapid.pem", "cannot read"),
    (push.SUBJECT_ENV, "operator@example.org", "mailto: or https://"),
])
def test_a_vapid_setting_that_cannot_be_used_stops_the_notifier_with_a_sentence(monkeypatch, name, value, says):
    monkeypatch.setenv(name, value)
    with pytest.raises(SettingError, match=says):
        push.check_settings("http://127.0.0.1:8000", "boardlog <boardlog@localhost>")


def test_the_end_of_a_game_is_pushed_as_game_over_and_its_result_stays_on_the_table(
        callers, game_service, push_service, fresh_url, notify_env):
    from .test_leaks import play

    ada, bob = callers(2)
    devices = {caller.id: Browser(push_service.endpoint(caller.id)) for caller in (ada, bob)}
    for caller in (ada, bob):
        subscribe(caller, devices[caller.id])
    game_id = started_game(game_service, [ada.id, bob.id])
    play(game_service, game_id, 5000, seed=7)
    assert game_service.load(game_id)[1].status == "finished"
    def game_over():
        shown = [(player, json.loads(device.decrypt(r["body"]))) for player, device in devices.items()
                 for r in push_service.pushes(f"/push/{player}")]
        ends = [(player, note) for player, note in shown if note["title"] == "Game over in Cronberg"]
        return ends if len(ends) == 2 else None

    with _running(fresh_url):
        ends = wait_until(game_over, what="both players' game-over pushes")
    assert {player for player, _ in ends} == {ada.id, bob.id}
    for _, shown in ends:
        assert shown["body"].startswith("Your game of Cronberg has ended") and shown["body"].endswith(
            "has ended: open it to see the result.")
        assert shown["url"] == f"/#/games/{game_id}"
