"""Reminders reach the channels their player chose, through the notifier's
outbox (a real SMTP server, a real webhook receiver); the settings' API
refuses offsets that make no sense with a sentence and stores nothing; the
digest names the deadlines that fall before the next one."""

from __future__ import annotations

import datetime as dt

import pytest

from api.service import reminders

from .conftest import started_game, wait_until
from .test_email import confirmed, running_notifier
from .test_webhooks import register

DAY = 86400
WEEK = 7 * DAY


def _waiting_on(game_service, first, other, options) -> tuple:
    """A game whose first seat to act is ``first``'s: (game, seat, its deadline)."""
    for _ in range(20):  # the first player is drawn at random
        game_id = started_game(game_service, [first.id, other.id], options=options)
        rules, session = game_service.load(game_id)
        seat = sorted(rules.to_act(session.state))[0]
        if session.players[seat] == first.id:
            with game_service.pool.connection() as conn:
                deadline = conn.execute("select deadline from seat_deadlines where game_id = %s and seat = %s",
                                        (game_id, seat)).fetchone()[0]
            return game_id, seat, deadline
    raise AssertionError("the first seat never fell to the player")


TIMED = {"players": 2, "turn_seconds": 2 * DAY, "deadline_per_seat": True}


def test_a_reminder_goes_by_mail_and_to_webhooks_only_where_the_player_chose_them(
        callers, mailbox, notify_env, game_service, fresh_url, receiver):
    ada, bob = callers(2)
    with running_notifier(fresh_url):
        confirmed(ada, mailbox, "ada@example.org", turns="idle")
        register(ada, receiver.url, kinds=["reminder"])
        chosen = ada.call("PATCH", "/v1/players/me/reminders", json={"mail": [3600], "webhook": [1800]})
        assert chosen.status_code == 200, chosen.json
        assert chosen.json == {"stream": [43200, 3600], "mail": [3600], "webhook": [1800], "push": [43200, 3600]}
        game_id, seat, deadline = _waiting_on(game_service, ada, bob, TIMED)

        assert game_service.reminders.fire(game_id, now=deadline - dt.timedelta(minutes=59)) == 1
        mail = wait_until(lambda: [m for m in mailbox.messages if m["Subject"].startswith("Reminder")],
                          what="the reminder mail")[-1]
        text = mail.get_body(("plain",)).get_content()
        assert "59 min left in Cronberg: your turn" in text and "the timeout move is played for you" in text
        assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"

        assert game_service.reminders.fire(game_id, now=deadline - dt.timedelta(minutes=29)) == 1
        hooked = wait_until(lambda: receiver.bodies(), what="the reminder webhook")
        assert [body["type"] for body in hooked] == ["reminder"], "the 1 h reminder was not for webhooks"
        assert hooked[0]["data"]["data"]["left_seconds"] == 29 * 60
        assert hooked[0]["data"]["data"]["channels"] == ["webhook"]
    assert len([m for m in mailbox.messages if m["Subject"].startswith("Reminder")]) == 1, "one mail: 1 h only"


def test_reminder_settings_default_to_12_h_and_1_h_and_an_empty_list_is_a_choice(callers):
    (ada,) = callers(1)
    assert ada.call("GET", "/v1/players/me/reminders").json == {
        channel: [43200, 3600] for channel in reminders.CHANNELS}
    changed = ada.call("PATCH", "/v1/players/me/reminders", json={"mail": [], "stream": [600, 7200, 600]})
    assert changed.json == {"stream": [7200, 600], "mail": [], "webhook": [43200, 3600], "push": [43200, 3600]}
    assert ada.call("GET", "/v1/players/me/reminders").json == changed.json


@pytest.mark.parametrize("offsets, says", [
    ([-60], "a reminder comes before the deadline"),
    ([0], "a reminder comes before the deadline"),
    ([WEEK + 1], "a reminder comes at most a week"),
    ([1.5], "a reminder offset is a whole number of seconds"),
    (list(range(1, 8)), "at most 6 reminders per channel"),
])
def test_offsets_not_before_the_deadline_or_beyond_a_week_are_refused_with_a_sentence_and_nothing_stored(
        callers, offsets, says):
    (ada,) = callers(1)
    refused = ada.call("PATCH", "/v1/players/me/reminders", json={"stream": [60], "mail": offsets})
    assert refused.status_code == 422 and refused.mimetype == "application/problem+json"
    assert says in refused.json["detail"]
    assert ada.call("GET", "/v1/players/me/reminders").json["stream"] == [43200, 3600], "nothing stored"


def test_the_digest_names_the_deadlines_that_fall_before_the_next_digest(
        callers, mailbox, notify_env, game_service, fresh_url):
    from workers.notify.delivery import Deliverer

    ada, bob = callers(2)
    with running_notifier(fresh_url):
        confirmed(ada, mailbox, "ada@example.org")
    assert ada.call("PATCH", "/v1/players/me/notifications", json={"digest": True}).json["digest"] is True
    soon, _, deadline = _waiting_on(game_service, ada, bob, {**TIMED, "turn_seconds": DAY // 2})
    later, _, _ = _waiting_on(game_service, ada, bob, TIMED)
    deliverer = Deliverer(fresh_url, concurrency=1)
    try:
        assert deliverer.digests() == 1
    finally:
        deliverer.close()
    digest = [m for m in mailbox.messages if "wait on you" in m["Subject"]][-1]
    assert "1 deadline(s) before your next digest" in digest["Subject"]
    lines = digest.get_body(("plain",)).get_content().splitlines()
    (soon_line,) = [line for line in lines if str(soon) in line]
    (later_line,) = [line for line in lines if str(later) in line]
    when = deadline.astimezone(dt.timezone.utc)
    assert f"deadline {when:%Y-%m-%d %H:%M} UTC, before your next digest" in soon_line
    assert "before your next digest" not in later_line
