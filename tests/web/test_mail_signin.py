"""Signing in from a mail, in a real browser: a "your turn" mail, sent by the
notifier of ``boardlog serve`` through a real SMTP server (aiosmtpd, started
here), carries a link that signs its reader in on the device that opens it
and shows the game's table; the same link opened again is refused with a
sentence; the code reaches no server log."""

from __future__ import annotations

import os
import urllib.request

import pytest

from eventstore.servers import temporary_database
from tests.notify.conftest import Mailbox, signin_links
from tests.support.waiting import wait_until

from .conftest import _served, api


@pytest.fixture(scope="module")
def mailbox():
    box = Mailbox()
    yield box
    box.close()


@pytest.fixture(scope="module")
def base_url(database_url, redis_url, tmp_path_factory, mailbox):
    """``boardlog serve`` (its worker starts the notifier) mailing through ``mailbox``."""
    saved = os.environ.get("BOARDLOG_SMTP_URL")
    os.environ["BOARDLOG_SMTP_URL"] = mailbox.url
    try:
        with temporary_database(database_url, prefix="boardlog_web") as own_database:
            yield from _served(own_database, redis_url, tmp_path_factory)
    finally:
        if saved is None:
            os.environ.pop("BOARDLOG_SMTP_URL", None)
        else:
            os.environ["BOARDLOG_SMTP_URL"] = saved


def registered(base_url, mailbox, name: str) -> dict:
    """A player whose confirmed address gets every "your turn" mail."""
    status, player = api(base_url, "POST", "/v1/players", {"name": name})
    assert status == 201, player
    address = f"{name}@example.org"
    status, prefs = api(base_url, "PATCH", "/v1/players/me/notifications", {"email": address, "email_turns": "always"},
                        token=player["token"])
    assert status == 200, prefs
    mail = wait_until(lambda: [m for m in mailbox.messages if m["To"] == address], 60, "the confirmation mail")[-1]
    link = next(word for word in mail.get_body(("plain",)).get_content().split() if "/confirm?token=" in word)
    with urllib.request.urlopen(urllib.request.Request(link, method="POST"), timeout=10) as answer:
        assert answer.status == 200
    return {**player, "address": address}


def test_a_your_turn_mails_link_signs_its_player_in_once_and_shows_the_table(base_url, mailbox, person, tmp_path_factory):
    ada, bob = registered(base_url, mailbox, "ada"), registered(base_url, mailbox, "bob")
    status, game = api(base_url, "POST", "/v1/games", {"game": "cronberg", "options": {"players": 2}}, token=ada["token"])
    assert status == 201, game
    assert api(base_url, "POST", f"/v1/games/{game['id']}/join", {}, token=bob["token"])[0] == 200
    assert api(base_url, "POST", f"/v1/games/{game['id']}/start", token=ada["token"])[0] == 200
    mail = wait_until(lambda: [m for m in mailbox.messages if m["Subject"].startswith("Your turn")], 60,
                      "a your-turn mail")[0]
    reader = ada if mail["To"] == ada["address"] else bob
    (link, game_id, code), = signin_links(mail)
    assert link.startswith(base_url + "/#/games/") and game_id == game["id"]

    device = person()
    page = device.open(link[len(base_url):])
    page.wait_for_selector('#table[data-status="active"]')
    assert "signin" not in page.url and page.url.endswith(f"#/games/{game_id}"), "the code leaves the address bar"
    token = device.token()
    assert token and token != reader["token"], "a token of this device's own"
    assert api(base_url, "GET", "/v1/players/me", token=token)[1]["id"] == reader["id"]
    assert "Signed in as" in page.inner_text("#who")
    assert device.console_errors == [] and device.foreign_requests == []
    assert not any(code in url for url in device.requests), "no request the page made carries the code in its URL"

    again = person()  # the link forwarded, or opened on a second device
    page = again.open(link[len(base_url):])
    refusal = page.wait_for_selector("#signin-refused")
    assert "used already" in refusal.inner_text()
    assert page.locator('a[href="#/"]', has_text="Sign in another way").count() == 1
    assert again.token() is None and "signin" not in page.url

    def served_log() -> str:  # every serve's of this session (the request log is written in batches)
        text = "".join(path.read_text(errors="replace") for path in tmp_path_factory.getbasetemp().glob("web-serve*/serve.log"))
        return text if text.count("POST /v1/sign-in") >= 2 else ""

    assert code not in wait_until(served_log, 30, "the two sign-ins in the request log"), "the code reaches no server log"
