"""Mail from the page, in a real browser against ``boardlog serve`` mailing
through a real SMTP server: a player gives his address and picks when he is
mailed on the settings page; the confirmation and unsubscribe links of the
mails land on pages that say what happened and what to do next."""

from __future__ import annotations

import re

from tests.support.waiting import wait_until

from .conftest import api
from .test_mail_signin import base_url, mailbox  # noqa: F401 (fixtures: a server that mails through a mailbox)

CONFIRM = re.compile(r"https?://\S+/v1/notifications/confirm\?token=[A-Za-z0-9_\-]+")


def registered_on_the_page(person, name: str):
    watched = person()
    page = watched.open("/")
    page.fill("#register-name", name)
    page.press("#register-name", "Enter")
    page.wait_for_selector("#create")
    return watched, page


def test_a_player_gives_and_confirms_his_address_and_picks_his_mail_on_the_settings_page(person, mailbox):  # noqa: F811
    # Given a player who registered on the page
    watched, page = registered_on_the_page(person, "Mailer")
    # When he opens the settings, gives his address, picks "always" and saves
    page.click("a[href='#/settings']")
    page.wait_for_selector("#settings")
    assert "You gave no address" in page.inner_text("#settings-email-state")
    page.fill("#settings-email", "mailer@example.org")
    page.check("input[name=email_turns][value=always]")
    page.click("#settings button[type=submit]")
    # Then the page says a link was mailed, and the address waits for it
    page.wait_for_selector("#settings-said:has-text('A confirmation link was mailed to mailer@example.org')")
    assert "Waiting for you to open the link" in page.inner_text("#settings-email-state")
    mail = wait_until(lambda: [m for m in mailbox.messages if m["To"] == "mailer@example.org"], 60,
                      "the confirmation mail")[-1]
    link = CONFIRM.search(mail.get_body(("plain",)).get_content()).group(0)
    # When he opens the mail's link in the browser
    answer = page.goto(link)
    # Then a page, not JSON, says the address is confirmed and how he will be mailed
    assert answer.status == 200 and answer.headers["content-type"].startswith("text/html")
    assert page.inner_text("h1") == "Your address is confirmed"
    assert "mailer@example.org" in page.inner_text("main") and "each time a game waits on you" in page.inner_text("main")
    # And his settings show it confirmed, with his choice kept
    page.click("a:has-text('Your mail settings')")
    page.wait_for_selector("#settings")
    assert "mailer@example.org (confirmed)" in page.inner_text("#settings-email-state")
    assert page.is_checked("input[name=email_turns][value=always]")
    # When he opens the same link again
    again = page.goto(link)
    # Then the page says it did nothing, why, and what to do
    assert again.status == 409 and page.inner_text("h1") == "This confirmation link did nothing"
    assert "already used" in page.inner_text("main") and "Nothing more is needed" in page.inner_text("main")
    assert [e for e in watched.console_errors if "409" not in e] == [], "the second opening's 409 is the only error"


def test_a_mails_unsubscribe_link_lands_on_a_page_whose_button_says_it_is_done(person, mailbox, base_url):  # noqa: F811
    # Given a player mailed each turn, in a game against a bot that waits on him
    status, player = api(base_url, "POST", "/v1/players", {"name": "leaver"})
    api(base_url, "PATCH", "/v1/players/me/notifications", {"email": "leaver@example.org", "email_turns": "always"},
        token=player["token"])
    mail = wait_until(lambda: [m for m in mailbox.messages if m["To"] == "leaver@example.org"], 60, "the confirmation")[-1]
    page = person().open("/")
    page.goto(CONFIRM.search(mail.get_body(("plain",)).get_content()).group(0))
    _, made = api(base_url, "POST", "/v1/games", {"game": "cronberg", "options": {"bots": {"p2": "random"}}},
                  token=player["token"])
    api(base_url, "POST", f"/v1/games/{made['id']}/start", {}, token=player["token"])
    turn = wait_until(lambda: [m for m in mailbox.messages if m["To"] == "leaver@example.org"
                               and m["Subject"].startswith("Your turn")], 60, "a your-turn mail")[0]
    # When he opens its unsubscribe link and presses the button
    page.goto(turn["List-Unsubscribe"].strip("<>"))
    assert page.inner_text("h1") == "Unsubscribe"
    page.click("button[type=submit]")
    # Then a page says he is unsubscribed, and the API agrees
    page.wait_for_selector("h1:has-text('You are unsubscribed')")
    assert "leaver@example.org" in page.inner_text("main")
    _, prefs = api(base_url, "GET", "/v1/players/me/notifications", token=player["token"])
    assert prefs["email_turns"] == "off" and prefs["digest"] is False


def test_a_revoked_token_lands_on_a_lobby_that_says_what_happened_and_the_ways_back_in(person, base_url):  # noqa: F811
    # Given a player signed in on the page, whose tokens are all revoked elsewhere
    watched, page = registered_on_the_page(person, "Revoked")
    status, _ = api(base_url, "POST", "/v1/players/me/tokens/revoke-all", {}, token=watched.token())
    assert status in (200, 201)
    # When he opens his settings
    page.click("a[href='#/settings']")
    # Then he lands on the lobby, which says he was signed out and what to do, beside the ways to sign in
    page.wait_for_selector("#lapsed")
    said = page.inner_text("#lapsed")
    assert "You were signed out" in said and "revoked" in said and "newest mail" in said and "paste a token" in said
    assert page.locator("#sign-in").is_visible() and watched.token() is None


def test_an_expired_sign_in_link_lands_on_a_page_that_says_so_and_the_ways_in(person, base_url):  # noqa: F811
    # Given a mail's sign-in link whose code the server answers as expired (its problem document, as the API words it)
    watched = person()
    page = watched.open("/")
    page.route("**/v1/sign-in", lambda route: route.fulfill(status=409, content_type="application/problem+json", body=(
        '{"type": "https://boardlog.dev/problems/sign-in-code-expired", "title": "Sign-in code expired",'
        ' "status": 409, "detail": "this sign-in link has expired: a mail\'s link signs in for a limited time"}')))
    game_id = "6f1c2a9e-3b7d-4c55-9a1e-2d7f0b8c4e11"
    # When its reader opens it
    page.goto(f"{base_url}/#/games/{game_id}?signin=old-code")
    # Then the page says it expired, that a newer mail brings a new one, and links the ways in
    page.wait_for_selector("#signin-refused")
    assert "has expired" in page.inner_text("#signin-refused") and "new one" in page.inner_text("#signin-refused")
    assert page.locator("a[href='#/']").count() and page.locator(f"a[href='#/games/{game_id}']").count()
    assert "signin=" not in page.url


def test_a_player_picks_when_he_is_reminded_before_a_deadline_on_each_channel_of_the_settings_page(person, base_url):  # noqa: F811
    # Given a player who registered on the page, reminded by default 12 hours and 1 hour before on every channel
    watched, page = registered_on_the_page(person, "Reminded")
    page.click("a[href='#/settings']")
    page.wait_for_selector("#reminders")
    assert page.is_checked("#reminders-mail input[value='43200']") and page.is_checked("#reminders-mail input[value='3600']")
    assert "12 hours before" in page.inner_text("#reminders-mail") and "1 day before" in page.inner_text("#reminders-push")
    # When he wants no mail the hour before, a push the day before, and nothing on his webhooks; and saves
    page.uncheck("#reminders-mail input[value='3600']")
    page.check("#reminders-push input[value='86400']")
    for box in page.query_selector_all("#reminders-webhook input:checked"):
        box.uncheck()
    page.click("#reminders button[type=submit]")
    page.wait_for_selector("#reminders-said:has-text('Saved')")
    # Then the API holds exactly that, and the page shows it again after a reload
    status, chosen = api(base_url, "GET", "/v1/players/me/reminders", token=watched.token())
    assert status == 200
    assert (chosen["mail"], chosen["push"], chosen["webhook"], chosen["stream"]) == (
        [43200], [86400, 43200, 3600], [], [43200, 3600])
    page.reload()
    page.wait_for_selector("#reminders")
    assert not page.is_checked("#reminders-mail input[value='3600']")
    assert page.is_checked("#reminders-push input[value='86400']")
    assert not page.query_selector_all("#reminders-webhook input:checked")
    assert watched.console_errors == []
