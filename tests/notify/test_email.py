"""E-mail: an address is used only once confirmed; "your turn" mails through
a real SMTP server (aiosmtpd, started here), throttled, with a one-click
unsubscribe; tokens that are forged, reused or expired change nothing."""

from __future__ import annotations

import contextlib
import re
import socket
import time

import psycopg
import pytest

from domain import playout
from domain.engine import rng_for

from workers.notify.runner import Notifier

from .conftest import signin_links, started_game, wait_until

LINK = re.compile(r"https?://\S+?token=([A-Za-z0-9_\-]+)")


@contextlib.contextmanager
def running_notifier(url):
    running = Notifier(url, concurrency=2).start()
    try:
        yield running
    finally:
        running.close()


@pytest.fixture
def notifier(fresh_url, notify_env, mailbox):
    with running_notifier(fresh_url) as running:
        yield running


def closed_port() -> int:
    """A port nobody listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def confirmed(caller, mailbox, address, turns="always"):
    """Set and confirm an address (a notifier must be running: it sends the confirmation mail)."""
    response = caller.call("PATCH", "/v1/players/me/notifications", json={"email": address, "email_turns": turns})
    assert response.status_code == 200, response.json
    assert response.json == {"email": address, "email_confirmed": False, "email_turns": turns, "digest": False}
    mail = wait_until(lambda: [m for m in mailbox.messages if m["To"] == address], what="the confirmation mail")[-1]
    token = LINK.search(mail.get_body(("plain",)).get_content()).group(1)
    answer = caller.client.get(f"/v1/notifications/confirm?token={token}")
    assert answer.status_code == 200, answer.json
    assert answer.json["email_confirmed"] is True
    return token


def statuses(url, player):
    with psycopg.connect(url) as conn:
        return conn.execute("select d.status, d.reason from deliveries d join notifications n on n.id = d.notification_id"
                            " where d.target = 'email' and d.player_id = %s order by n.position", (player,)).fetchall()


@pytest.fixture
def smtp_down(notify_env, mailbox, monkeypatch):
    """A mail server configured but down, from before the notifier starts: a
    round that read its settings earlier would otherwise still send to the
    test's mailbox (seen under load)."""
    monkeypatch.setenv("BOARDLOG_SMTP_URL", f"smtp://127.0.0.1:{closed_port()}")
    monkeypatch.setenv("BOARDLOG_NOTIFY_BACKOFF", "1,2,4,8,16,32")  # retries left when the server is back


def test_setting_an_address_does_not_wait_on_the_mail_server_and_the_notifier_mails_the_link(
        smtp_down, callers, mailbox, notifier, fresh_url, monkeypatch):
    ada = callers(1)[0]
    response = ada.call("PATCH", "/v1/players/me/notifications", json={"email": "ada@example.org"})
    assert response.status_code == 200, response.json
    assert response.json["email"] == "ada@example.org" and response.json["email_confirmed"] is False
    with psycopg.connect(fresh_url) as conn:
        (error,) = wait_until(lambda: conn.execute(
            "select a.error from delivery_attempts a join deliveries d on d.id = a.delivery_id"
            " where d.player_id = %s and d.target = 'confirmation' order by a.id limit 1", (ada.id,)).fetchone(),
            what="the notifier's first try, refused")
    assert "Connection refused" in error and mailbox.messages == []
    monkeypatch.setenv("BOARDLOG_SMTP_URL", mailbox.url)  # the server is back: the retry goes out
    mail = wait_until(lambda: [m for m in mailbox.messages if m["To"] == "ada@example.org"],
                      what="the confirmation mail, retried")[-1]
    token = LINK.search(mail.get_body(("plain",)).get_content()).group(1)
    assert ada.client.get(f"/v1/notifications/confirm?token={token}").json["email_confirmed"] is True
    with psycopg.connect(fresh_url) as conn:
        assert conn.execute("select status from deliveries where target = 'confirmation' and player_id = %s",
                            (ada.id,)).fetchall() == [("delivered",)]


def test_a_confirmation_mail_for_an_address_changed_since_is_not_sent(callers, mailbox, notify_env, fresh_url):
    ada = callers(1)[0]
    for address in ("old@example.org", "new@example.org"):  # no notifier yet: both mails wait in the outbox
        assert ada.call("PATCH", "/v1/players/me/notifications", json={"email": address}).status_code == 200
    with running_notifier(fresh_url):
        wait_until(lambda: [m for m in mailbox.messages if m["To"] == "new@example.org"], what="the newer mail")
        with psycopg.connect(fresh_url) as conn:
            wait_until(lambda: conn.execute("select count(*) from deliveries where target = 'confirmation'"
                                            " and status <> 'pending'").fetchone()[0] == 2, what="both handled")
            outcomes = conn.execute("select n.payload->>'email', d.status from deliveries d join notifications n"
                                    " on n.id = d.notification_id where d.player_id = %s order by d.id",
                                    (ada.id,)).fetchall()
    assert outcomes == [("old@example.org", "suppressed"), ("new@example.org", "delivered")]
    assert [m["To"] for m in mailbox.messages] == ["new@example.org"]


def test_an_address_is_used_only_once_confirmed_and_its_link_works_once(callers, mailbox, notifier, monkeypatch):
    monkeypatch.setenv("BOARDLOG_SMTP_URL", mailbox.url)
    ada = callers(1)[0]
    token = confirmed(ada, mailbox, "ada@example.org")
    again = ada.client.get(f"/v1/notifications/confirm?token={token}")
    assert again.status_code == 409 and again.json["type"].endswith("/link-used")
    forged = ada.client.post("/v1/notifications/confirm?token=" + "x" * 43)
    assert forged.status_code == 404 and forged.json["type"].endswith("/link-unknown")
    assert ada.client.get("/v1/notifications/confirm").status_code == 422


def test_a_confirmation_link_expires_and_then_confirms_nothing(callers, mailbox, notifier, monkeypatch):
    monkeypatch.setenv("BOARDLOG_EMAIL_TOKEN_HOURS", "0.0001")  # 0.36 s
    ada = callers(1)[0]
    assert ada.call("PATCH", "/v1/players/me/notifications", json={"email": "late@example.org"}).status_code == 200
    # Its own mail: a loaded machine may deliver a mail of the test before into this one's mailbox.
    mail = wait_until(lambda: [m for m in mailbox.messages if m["To"] == "late@example.org"],
                      what="the confirmation mail")[-1]
    token = LINK.search(mail.get_body(("plain",)).get_content()).group(1)
    time.sleep(0.5)
    expired = ada.client.get(f"/v1/notifications/confirm?token={token}")
    assert expired.status_code == 409 and expired.json["type"].endswith("/link-expired")
    assert ada.call("GET", "/v1/players/me/notifications").json["email_confirmed"] is False


@pytest.mark.parametrize("address", ["not an address", "a@b", "@example.org", "a@@example.org", "<a@example.org>",
                                     "a@example.org\r\nBcc: x@example.org", "a" * 250 + "@example.org"])
def test_an_address_that_is_not_an_address_is_a_422_and_changes_nothing(callers, mailbox, address):
    ada = callers(1)[0]
    response = ada.call("PATCH", "/v1/players/me/notifications", json={"email": address})
    assert response.status_code == 422, response.json
    assert ada.call("GET", "/v1/players/me/notifications").json["email"] is None
    assert mailbox.messages == []


def test_without_an_smtp_server_no_address_can_be_set_and_the_answer_says_why(callers, notify_env):
    ada = callers(1)[0]
    response = ada.call("PATCH", "/v1/players/me/notifications", json={"email": "ada@example.org"})
    assert response.status_code == 503 and "BOARDLOG_SMTP_URL" in response.json["detail"]
    assert ada.call("GET", "/v1/players/me/notifications").json["email"] is None


def mailed_turn(callers, mailbox, game_service):
    """Ada and Bob, both with confirmed addresses, start a game: the player to
    act first is mailed. (ada, bob, the game's id, the mail.)"""
    ada, bob = callers(2)
    confirmed(ada, mailbox, "ada@example.org")
    confirmed(bob, mailbox, "bob@example.org")
    game_id = started_game(game_service, [ada.id, bob.id])
    mail = wait_until(lambda: [m for m in mailbox.messages if m["Subject"].startswith("Your turn")],
                      what="a your-turn mail")[0]
    return ada, bob, game_id, mail


def test_your_turn_mail_has_text_and_html_and_a_one_click_unsubscribe_that_works_once(
        callers, mailbox, notifier, game_service, fresh_url):
    ada, bob, game_id, mail = mailed_turn(callers, mailbox, game_service)
    text = mail.get_body(("plain",)).get_content()
    assert mail["Subject"] == "Your turn in Cronberg" and text.startswith("It is your turn in Cronberg.")
    assert str(game_id) in text.split("Play: ", 1)[1], "the game's id only in its link"
    assert "<a href=" in mail.get_body(("html",)).get_content()
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    url = mail["List-Unsubscribe"].strip("<>")
    path = url[url.index("/v1/"):]
    assert ada.client.get(path).status_code == 200 and "<form" in ada.client.get(path).text, "GET changes nothing"
    one_click = ada.client.post(path, data="List-Unsubscribe=One-Click",
                                content_type="application/x-www-form-urlencoded")
    assert one_click.status_code == 200, one_click.json
    who = ada if mail["To"] == "ada@example.org" else bob
    assert who.call("GET", "/v1/players/me/notifications").json["email_turns"] == "off"
    reused = ada.client.post(path, data="List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded")
    assert reused.status_code == 409 and reused.json["type"].endswith("/link-used")


def test_your_turn_mails_link_signs_its_reader_in_on_the_game_once(
        callers, mailbox, notifier, game_service, api):
    ada, bob, game_id, mail = mailed_turn(callers, mailbox, game_service)
    (link, linked_game, code), = signin_links(mail)
    assert link.startswith("http://127.0.0.1:8000/#/games/") and linked_game == str(game_id)
    assert f'href="{link}"' in mail.get_body(("html",)).get_content()
    reader = ada if mail["To"] == "ada@example.org" else bob
    signed_in = api.post("/v1/sign-in", json={"code": code})
    assert signed_in.status_code == 201, signed_in.json
    assert (signed_in.json["player_id"], signed_in.json["game_id"]) == (reader.id, str(game_id))
    again = api.post("/v1/sign-in", json={"code": code})
    assert again.status_code == 409 and again.json["type"].endswith("/sign-in-code-used")


def test_with_a_play_url_mails_link_to_the_operators_frontend(
        callers, mailbox, notifier, game_service, api, monkeypatch):
    monkeypatch.setenv("BOARDLOG_PLAY_URL", "https://play.example.org/games/{game_id}#code={code}")
    _, _, game_id, mail = mailed_turn(callers, mailbox, game_service)
    text = mail.get_body(("plain",)).get_content()
    code = re.search(rf"https://play\.example\.org/games/{game_id}#code=([A-Za-z0-9_\-]+)", text).group(1)
    assert api.post("/v1/sign-in", json={"code": code}).status_code == 201


def test_at_most_one_mail_per_game_per_interval_and_none_while_the_player_was_just_active(
        callers, mailbox, notifier, game_service, fresh_url):
    import random

    from domain import playout
    from domain.engine import rng_for

    ada, bob = callers(2)
    confirmed(ada, mailbox, "ada@example.org", turns="always")
    confirmed(bob, mailbox, "bob@example.org", turns="idle")
    game_id = started_game(game_service, [ada.id, bob.id])
    for _ in range(6):
        rules, session = game_service.load(game_id)
        seat = sorted(rules.to_act(session.state))[0]
        command = playout.random_command(rules, session.state, seat, rng_for(b"m", session.version))
        game_service.act(game_id, session.players[seat], command.to_json())
    wait_until(lambda: len(statuses(fresh_url, ada.id)) >= 2 and all(s != "pending" for s, _ in statuses(fresh_url, ada.id))
               and all(s != "pending" for s, _ in statuses(fresh_url, bob.id)), what="every mail decided")
    ada_mails = statuses(fresh_url, ada.id)
    assert [s for s, _ in ada_mails].count("delivered") == 1
    assert all("at most one mail per game" in r for s, r in ada_mails if s == "suppressed")
    bob_mails = statuses(fresh_url, bob.id)
    # His first turn came before he had acted: its mail goes if decided before his move, and is kept back
    # as "active" if decided after it (he is at the screen then). Every later one follows a move of his.
    first, *later = bob_mails
    assert first == ("delivered", None) or first[0] == "suppressed" and "active" in first[1]
    assert later and all(s == "suppressed" and "active" in r for s, r in later), \
        "Bob acted in this game a moment before each later turn: no mail while he is at the screen"
    bobs = 1 if first[0] == "delivered" else 0
    assert len([m for m in mailbox.messages if m["Subject"].startswith("Your turn")]) == 1 + bobs


def test_a_player_who_only_joined_a_game_gets_its_first_your_turn_mail_with_the_default_idle_setting(
        callers, mailbox, notifier, game_service, fresh_url):
    # Given Bob, mailed only when idle (the default), who joined Ada's game a moment ago and did nothing else
    ada, bob = callers(2)
    confirmed(bob, mailbox, "bob@example.org", turns="idle")
    game_id = started_game(game_service, [ada.id, bob.id])
    # When the game comes to Bob's seat (Ada moves until it does)
    for _ in range(20):
        rules, session = game_service.load(game_id)
        seats = sorted(rules.to_act(session.state))
        if session.players.get(seats[0]) == bob.id:
            break
        command = playout.random_command(rules, session.state, seats[0], rng_for(b"j", session.version))
        game_service.act(game_id, session.players[seats[0]], command.to_json())
    # Then his first "your turn" mail goes out: taking a seat is not being at the table
    wait_until(lambda: statuses(fresh_url, bob.id) and all(s != "pending" for s, _ in statuses(fresh_url, bob.id)),
               what="Bob's mail decided")
    first_status, first_reason = statuses(fresh_url, bob.id)[0]
    assert first_status == "delivered", f"Bob's first turn mail was {first_status}: {first_reason}"
    assert [m for m in mailbox.messages if m["To"] == "bob@example.org" and m["Subject"].startswith("Your turn")]


def test_the_daily_digest_lists_the_games_waiting_and_replaces_the_per_turn_mails(
        callers, mailbox, notify_env, game_service, fresh_url):
    from workers.notify.delivery import Deliverer

    ada, bob = callers(2)
    with running_notifier(fresh_url):  # for the confirmation mail; the digest is sent below, by hand
        confirmed(ada, mailbox, "ada@example.org")
    assert ada.call("PATCH", "/v1/players/me/notifications", json={"digest": True}).json["digest"] is True
    for _ in range(20):  # the first player is drawn at random: until a game waits on Ada
        game_id = started_game(game_service, [ada.id, bob.id])
        rules, session = game_service.load(game_id)
        if session.players[sorted(rules.to_act(session.state))[0]] == ada.id:
            break
    deliverer = Deliverer(fresh_url, concurrency=1)
    try:
        assert deliverer.digests() == 1
        assert deliverer.digests() == 0, "one a day"
    finally:
        deliverer.close()
    digest = [m for m in mailbox.messages if "wait on you" in m["Subject"]][-1]
    assert str(game_id) in digest.get_body(("plain",)).get_content()
    assert digest["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    (link, linked_game, code), = signin_links(digest)
    assert linked_game == str(game_id) and f'href="{link}"' in digest.get_body(("html",)).get_content()
    signed_in = ada.client.post("/v1/sign-in", json={"code": code})
    assert signed_in.status_code == 201 and signed_in.json["player_id"] == ada.id


def test_messages_reach_mail_only_counted_in_the_daily_digest_never_one_mail_each(
        callers, mailbox, notify_env, game_service, fresh_url):
    from api.service.talk import Talk
    from workers.notify.delivery import Deliverer

    ada, bob = callers(2)
    with running_notifier(fresh_url):
        confirmed(ada, mailbox, "ada@example.org")
    assert ada.call("PATCH", "/v1/players/me/notifications", json={"digest": True}).json["digest"] is True
    game_id = started_game(game_service, [ada.id, bob.id])
    for n in range(3):
        Talk(game_service).send(game_id, bob.id, "table", f"note {n}")
    before = len(mailbox.messages)
    with running_notifier(fresh_url):  # it notifies of the messages, and sends digests when due
        time.sleep(3)
    deliverer = Deliverer(fresh_url, concurrency=1)
    try:
        deliverer.digests()  # unless the notifier sent today's already
    finally:
        deliverer.close()
    mails = mailbox.messages[before:]
    assert [m["Subject"] for m in mails] == ["1 game(s) wait on you and 3 unread message(s)"] or \
        [m["Subject"] for m in mails] == ["3 unread message(s)"], "one digest, and no mail for a message"
    text = mails[0].get_body(("plain",)).get_content()
    assert "3 in Cronberg: http" in text and str(game_id) not in text.split("http")[0], "its title, then its link"
    assert "note" not in text, "a digest counts messages; it never carries them"


def test_a_mail_server_that_is_down_gets_retries_then_a_dead_letter_and_the_notifier_goes_on(
        callers, mailbox, notify_env, game_service, fresh_url, monkeypatch):
    ada, bob = callers(2)
    with running_notifier(fresh_url):
        confirmed(ada, mailbox, "ada@example.org")
        confirmed(bob, mailbox, "bob@example.org")
    monkeypatch.setenv("BOARDLOG_SMTP_URL", f"smtp://127.0.0.1:{closed_port()}")
    running = Notifier(fresh_url, concurrency=2).start()
    try:
        started_game(game_service, [ada.id, bob.id])
        wait_until(lambda: any(s == "dead" for p in (ada.id, bob.id) for s, _ in statuses(fresh_url, p)),
                   what="a dead letter")
        with psycopg.connect(fresh_url) as conn:
            attempts = conn.execute("select a.attempt, a.error from delivery_attempts a join deliveries d"
                                    " on d.id = a.delivery_id where d.status = 'dead' order by a.id").fetchall()
        assert [a for a, _ in attempts] == [1, 2, 3, 4] and all("Connection refused" in e for _, e in attempts)
        who = ada if statuses(fresh_url, ada.id) and statuses(fresh_url, ada.id)[0][0] == "dead" else bob
        (dead,) = who.call("GET", "/v1/players/me/notifications/mail", query_string={"status": "dead"}).json[
            "deliveries"]
        assert [a["attempt"] for a in dead["log"]] == [1, 2, 3, 4] and dead["kind"] == "turn"
        other = bob if who is ada else ada
        assert other.call("POST", f"/v1/players/me/notifications/mail/{dead['id']}/redeliver").status_code == 404
        monkeypatch.setenv("BOARDLOG_SMTP_URL", mailbox.url)  # back up: the dead letter and the next game's mail go
        assert who.call("POST", f"/v1/players/me/notifications/mail/{dead['id']}/redeliver").status_code == 202
        wait_until(lambda: any(m["X-Boardlog-Notification"] == dead["notification_id"] for m in mailbox.messages),
                   what="the dead letter, redelivered")
        before = len(mailbox.messages)
        started_game(game_service, [bob.id, ada.id])
        wait_until(lambda: len(mailbox.messages) > before, what="a mail once the server is back")
    finally:
        running.close()
