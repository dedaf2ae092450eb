"""A game added later gets its table from its declarations alone: a server
whose registry holds the example game (added by this test only, through
tests/support/example_hosted), on which two people play it through the page
by composed choices only, each card chosen in a hand drawn from the game's
data file, to its standings."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from domain import games
from domain.games.example import RULES as EXAMPLE
from eventstore.servers import temporary_database

from .composing import (
    Measured,
    play,
    two_at_a_table,
    unexplained_errors,
    words_not_data,
)
from .conftest import _served
from .test_composing import hand_declared, the_hand_is_drawn

EXAMPLE_HOSTED = Path(__file__).resolve().parents[1] / "support" / "example_hosted"
SECONDS = 120


@pytest.fixture(scope="module")
def base_url(database_url, redis_url, tmp_path_factory):
    """``boardlog serve`` and its worker hosting the example game beside the others."""
    with temporary_database(database_url, prefix="boardlog_example") as own_database:
        yield from _served(own_database, redis_url, tmp_path_factory, pythonpath=EXAMPLE_HOSTED)


@pytest.mark.timeout(SECONDS + 120)
def test_two_people_play_the_example_game_to_its_standings_by_cards_chosen_in_their_drawn_hands(person, base_url,
                                                                                                 monkeypatch):
    monkeypatch.setitem(games.REGISTRY, "example", EXAMPLE)  # this process's registry as the server's
    # Given the game in the lobby's catalogue, declared by its module alone
    hand = hand_declared(base_url, "example")
    assert hand, "the example game's rules declare a hand"
    (ada, host), (brune, guest), game_id = two_at_a_table(person, base_url, "example")
    pages = [host, guest]
    for page in pages:
        page.wait_for_selector("#hand-section:not([hidden])")
        the_hand_is_drawn(page, hand)
        # Drawn as cards with the names and texts of cards.json, never bare values.
        assert page.locator("#hand [data-card]").first.inner_text().strip() != page.locator("#hand [data-card]").first.get_attribute("data-card")
    # When both play each round by the composed choices only
    measured = Measured()
    play(pages, random.Random("example-composed"), measured, decisions=None, seconds=SECONDS,
         base_url=base_url, game_id=game_id, token=ada.token())
    # Then every card was chosen in the hand, at most 12 buttons ever showed, and the end reads as words
    assert measured.where.get("hand"), f"no card was chosen in the hand: {measured.summary()}"
    assert max(measured.buttons or [0]) <= 12
    assert len(measured.clicks) >= 6, f"three rounds for two players are six decisions: {measured.summary()}"
    for page in pages:
        words_not_data(page, with_log=True)
        standings = page.inner_text("#standings")
        assert "Ada" in standings and "Brune" in standings
    envelope = json.loads(host.get_attribute("#table", "data-view"))
    assert envelope["status"] == "finished"
    for watched in (ada, brune):
        assert unexplained_errors(watched, "example") == []
