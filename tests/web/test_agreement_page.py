"""Ending a game by agreement on the table: two people at a Cronberg table,
one proposes, the other reads the proposal by names and answers it with the
page's buttons; each page follows through its stream alone."""

from __future__ import annotations

from .accessibility import serious_violations
from .composing import two_at_a_table, words_not_data


def violations(page) -> list[str]:
    """axe's serious findings but the log's own (its scrolling region is table.js's, and not this section's)."""
    return [found for found in serious_violations(page) if not found.endswith(" at #log")]


def at_the_table(person, base_url):
    """Ada and Brune at a started Cronberg table, in pages axe may run in."""
    return two_at_a_table(lambda: person(bypass_csp=True), base_url, "cronberg")


def test_ada_proposes_ending_as_it_stands_and_brune_accepting_ends_it_for_both_with_the_standings(person, base_url):
    (ada, host), (brune, guest), _ = at_the_table(person, base_url)
    # Ada opens the proposal's choices with the keyboard, each ending said in a sentence
    host.focus("#agreement-propose")
    host.keyboard.press("Enter")
    host.wait_for_selector("#agreement-form")
    assert "no result" in host.inner_text("label[for=agreement-cancelled] + p")
    assert "ranked by the game's own score" in host.inner_text("label[for=agreement-as-it-stands] + p")
    assert violations(host) == [], "the choice of an ending"
    host.check("#agreement-as-it-stands")
    host.click("#agreement-send")
    host.wait_for_selector("#agreement-withdraw")
    # Brune's page learns of it from its stream: who proposed what, who accepted, who has not
    guest.wait_for_selector("#agreement-accept")
    assert guest.inner_text("#agreement-proposal") == "Ada proposes to end the game as it stands, ranked by its score now."
    assert guest.inner_text("#agreement-accepted") == "Accepted: Ada."
    assert guest.inner_text("#agreement-waiting") == "Waiting for: Brune."
    assert guest.locator("#agreement-decline").is_visible()
    assert violations(guest) == [], "an open proposal"
    words_not_data(guest)
    guest.click("#agreement-accept")
    for page in (host, guest):
        page.wait_for_selector('#table[data-status="finished"] #standings')
        outcome = page.inner_text("#agreement-outcome")
        assert outcome.startswith("Ended by agreement of its players, as it stands:")
        assert outcome in page.inner_text("#status"), "the section says the game's own outcome sentence"
        standings = page.inner_text("#standings")
        assert "Ada" in standings and "Brune" in standings
        assert not page.locator("#agreement-propose, #agreement-accept").count(), "nothing left to propose or answer"
        words_not_data(page)
    assert violations(host) == [], "a game ended by agreement"
    for watched in (ada, brune):
        assert watched.console_errors == []


def test_brune_declining_ada_s_proposal_to_cancel_leaves_the_game_going_on_for_both(person, base_url):
    (ada, host), (brune, guest), _ = at_the_table(person, base_url)
    host.click("#agreement-propose")
    host.check("#agreement-cancelled")
    host.click("#agreement-send")
    guest.wait_for_selector("#agreement-decline")
    assert guest.inner_text("#agreement-proposal") == "Ada proposes to cancel the game, with no result."
    guest.click("#agreement-decline")
    for page in (host, guest):
        page.wait_for_selector("#agreement-ended")
        assert page.inner_text("#agreement-ended") == "Brune declined Ada's proposal: the game goes on."
        page.wait_for_selector("#agreement-propose")
        assert page.get_attribute("#table", "data-status") == "active"
        assert not page.locator("#agreement-outcome").count()
    for watched in (ada, brune):
        assert watched.console_errors == []
