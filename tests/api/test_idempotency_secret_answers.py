"""An answer that holds a new secret (a bearer token, a device's renewal key)
is kept under its Idempotency-Key for minutes, not days: tokens are stored
as a SHA-256, and the keys' table must not keep live ones in clear. A repeat
after that is told so (410) and is not carried out again."""

from __future__ import annotations

import uuid

import datetime as dt

from api.service import readmodels
from tests.api.test_idempotency_every_creation import _absence, changed, stored
from tests.api.test_lifecycle_idempotency import new_key
from tests.notify.pushservice import Browser


def forget_secret_answers(service):
    """The sweeper's pass, as if the secret answers' minutes were over."""
    with service.pool.connection() as conn:
        readmodels.forget_idempotency_keys(conn, older_than=dt.datetime(2000, 1, 1, tzinfo=dt.timezone.utc),
                                           secrets_older_than=dt.datetime.now(dt.timezone.utc))


def kept_answers(service) -> str:
    with service.pool.connection() as conn:
        return "".join(row[0] for row in conn.execute("select coalesce(response::text, '') from idempotency_keys"))


def test_a_registrations_token_is_kept_minutes_then_forgotten_and_its_repeat_is_a_410_that_makes_no_player(
        client, service):
    key, body = new_key(), {"name": f"kept-{uuid.uuid4().hex[:6]}"}
    first = client.post("/v1/players", json=body, headers=key)
    assert first.status_code == 201
    again = client.post("/v1/players", json=body, headers=key)
    assert again.data == first.data and again.headers["Idempotent-Replayed"] == "true", "within its minutes"
    forget_secret_answers(service)
    assert first.json["token"] not in kept_answers(service), "no live token left in clear"
    before = stored(service)
    late = client.post("/v1/players", json=body, headers=key)
    assert late.status_code == 410 and late.mimetype == "application/problem+json"
    assert late.json["type"].endswith("idempotency-answer-forgotten") and "with a new key" in late.json["detail"]
    assert changed(before, stored(service)) == [], "not carried out again: no second player"


def test_a_new_tokens_and_a_devices_renewal_key_are_forgotten_but_an_answer_with_no_secret_is_still_given(
        players, service):
    (ada,) = players(1)
    token_key, device_key, absence_key = new_key(), new_key(), new_key()
    token = ada.post("/v1/players/me/tokens", json={"label": "phone"}, headers=token_key)
    browser = Browser("https://push.example.com/send/ada").subscription()
    device = ada.post("/v1/players/me/push-subscriptions", headers=device_key, json=browser)
    absence = _absence(3)
    away = ada.post("/v1/players/me/absences", json=absence, headers=absence_key)
    assert (token.status_code, device.status_code, away.status_code) == (201, 201, 201), away.json
    forget_secret_answers(service)
    kept = kept_answers(service)
    assert token.json["token"] not in kept and device.json["renewal_key"] not in kept
    assert ada.post("/v1/players/me/tokens", json={"label": "phone"}, headers=token_key).status_code == 410
    assert ada.post("/v1/players/me/push-subscriptions", headers=device_key, json=browser).status_code == 410
    repeat = ada.post("/v1/players/me/absences", json=absence, headers=absence_key)
    assert repeat.data == away.data and repeat.headers["Idempotent-Replayed"] == "true", "kept its days"
