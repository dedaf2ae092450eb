"""Moves composed one part at a time, in a real browser: two people, each in
a browser context of their own, play through the page by composed choices
only (a step's buttons, the board's highlighted places, the hand's cards, then
Confirm). At every step: at most 12 choice buttons, no null, JSON or UUID on
the table; both players see their hands from their first view of the game.

Cronberg, Coronation (3 turns) and Runebound (1 round of doom) are played
to their standings; the two others for
DECISIONS decisions each, to keep the file's time modest on two cores (a
whole Court of Miracles or Coil game by two random people is several hundred
decisions)."""

from __future__ import annotations

import json
import random

import pytest

from .composing import Measured, play, two_at_a_table, words_not_data
from .conftest import api

WHOLE = {"cronberg": {}, "coronation": {"last_turn": "3"}, "runebound": {"doom_rounds": "1"}}
PARTLY = {"court-of-miracles": {}, "the-coil": {}}
DECISIONS = 24
SECONDS = 420


def hand_declared(base_url, game: str) -> bool:
    _, rules = api(base_url, "GET", f"/v1/rules/{game}")
    return bool(rules.get("hand"))


@pytest.mark.timeout(SECONDS + 120)
@pytest.mark.parametrize("game", [*WHOLE, *PARTLY])
def test_two_people_play_by_composed_choices_only(person, base_url, artifacts, game):
    (ada, host), (brune, guest), game_id = two_at_a_table(person, base_url, game, WHOLE.get(game, PARTLY.get(game)))
    pages = [host, guest]
    # Both players' hands from their first view of the game: Brune took his seat on this page, without reloading it.
    for page in pages:
        page.wait_for_selector("#hand-section:not([hidden])")
        if hand_declared(base_url, game):
            page.wait_for_selector("#hand li[data-card]")
    measured = Measured()
    play(pages, random.Random(f"{game}-composed"), measured, decisions=None if game in WHOLE else DECISIONS,
         seconds=SECONDS, base_url=base_url, game_id=game_id, token=ada.token(), screenshot=artifacts / f"composing-{game}.png")
    # The log names players by name where the server names them (the envelope's `names`, the events' texts).
    envelope = json.loads(host.get_attribute("#table", "data-view"))
    if envelope.get("names"):
        for page in pages:
            words_not_data(page, with_log=True)
        assert "Ada" in host.inner_text("#log") and "Brune" in host.inner_text("#log")
    assert max(measured.buttons or [0]) <= 12
    (artifacts / f"composing-{game}.json").write_text(json.dumps(measured.summary()))
    print(game, measured.summary())
    for watched in (ada, brune):
        assert watched.console_errors == []
