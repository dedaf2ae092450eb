"""Moves composed one part at a time, in a real browser: two people, each in
a browser context of their own, play through the page by composed choices
only (a step's buttons, the board's highlighted places, the hand's cards, then
Confirm). At every step: at most 12 choice buttons, no null, JSON or UUID on
the table, and no id where a name exists on the composer's buttons, its "So
far" or its sentence (a seat's player by name, a thing by its data file's
name); both players see their hands from their first view of the game.

All five games are played whole, to their standings, at two seats:
Cronberg, The Court of Miracles and The Coil with their rules as they are
(they have no option that shortens a game, nor a variant in their rulebooks:
about 60 to 100 decisions each), Coronation to its 3rd turn (last_turn) and
Runebound with 1 round of doom (doom_rounds). The Coil is the longest (about
two minutes on two busy cores), the whole file about five."""

from __future__ import annotations

import json
import random

import pytest

from .composing import (
    Measured,
    Named,
    compose_to_confirm,
    play,
    register,
    two_at_a_table,
    unexplained_errors,
    words_not_data,
)
from .conftest import api
from .test_web_client import create_against_bots

# Each game's options for a short whole game, where the game has them.
WHOLE = {"cronberg": {}, "coronation": {"last_turn": "3"}, "runebound": {"doom_rounds": "1"},
         "court-of-miracles": {}, "the-coil": {}}
SECONDS = 420


def hand_declared(base_url, game: str) -> dict | None:
    _, rules = api(base_url, "GET", f"/v1/rules/{game}")
    return rules.get("hand")


def the_hand_is_drawn(page, hand: dict) -> None:
    """Each card the page's view holds at the declared hand's field is drawn in "Your hand"."""
    envelope = json.loads(page.get_attribute("#table", "data-view"))
    found = envelope["view"]
    for part in hand["field"].split("."):
        part = envelope["seat"] if part == "{seat}" else part
        found = next((x for x in found if x.get("seat") == part), None) if isinstance(found, list) else found.get(part)
    key = hand["names"].get("key", "id")
    values = {str(card[key] if isinstance(card, dict) else card) for card in found or []}
    drawn = set(page.eval_on_selector_all("#hand [data-card]", "(cards) => cards.map((c) => c.dataset.card)"))
    assert values <= drawn, f"cards of the view not drawn in the hand: {values - drawn}"


@pytest.mark.timeout(SECONDS + 120)
@pytest.mark.parametrize("game", WHOLE)
def test_two_people_play_by_composed_choices_only(person, base_url, artifacts, game):
    (ada, host), (brune, guest), game_id = two_at_a_table(person, base_url, game, WHOLE[game])
    pages = [host, guest]
    # Both players' hands from their first view of the game: Brune took his seat on this page, without reloading it.
    hand = hand_declared(base_url, game)
    for page in pages:
        page.wait_for_selector("#composer, #commands-area p.muted")  # drawn with the data and the catalogue
        if hand:
            page.wait_for_selector("#hand-section:not([hidden])")
            the_hand_is_drawn(page, hand)
        else:  # a game that declares no hand shows none, not an empty one
            assert page.locator("#hand-section").is_hidden()
    measured = Measured()
    # Each step's buttons, "So far" and sentence name things and players as the page can: no ids where names exist.
    _, summary = api(base_url, "GET", f"/v1/games/{game_id}", token=ada.token())
    named = Named.of(base_url, game, {seat["seat"]: seat["name"] for seat in summary["seats"] if seat.get("name")})
    assert set(named.seats.values()) == {"Ada", "Brune"}, summary["seats"]
    play(pages, random.Random(f"{game}-composed"), measured, decisions=None,
         seconds=SECONDS, base_url=base_url, game_id=game_id, token=ada.token(), screenshot=artifacts / f"composing-{game}.png",
         named=named)
    if hand:
        for page in pages:
            the_hand_is_drawn(page, hand)
    # The log names players by name where the server names them (the envelope's `names`, the events' texts).
    envelope = json.loads(host.get_attribute("#table", "data-view"))
    if envelope.get("names"):
        for page in pages:
            words_not_data(page, with_log=True)
        assert "Ada" in host.inner_text("#log") and "Brune" in host.inner_text("#log")
    assert max(measured.buttons or [0]) <= 12
    (artifacts / f"composing-{game}.json").write_text(json.dumps(measured.summary()))
    print(game, measured.summary())
    # Two people composing at once in a simultaneous phase (The Coil's, Coronation's detectives).
    for watched in (ada, brune):
        assert unexplained_errors(watched, game) == []


def test_an_id_where_a_name_exists_is_caught():
    named = Named({"grande-cour": {"La Grande Cour des Miracles"}, "taverne": {"Taverne"}, "plus_one": {"Surge"},
                   "priest": {"Defrocked priest"}, "westward": {"Westward Gaze"}}, {"p1": "Ada", "p2": "Brune"})
    assert named.ids_in("taverne", "taverne") and named.ids_in("Grande cour", "grande-cour")
    assert named.ids_in("Move to grande-cour.") and named.ids_in("Play Plus one.") and named.ids_in("So far: player p2")
    assert named.ids_in("Westward") and named.ids_in("Choose a card: priest", None)
    assert not named.ids_in("Taverne", "taverne") and not named.ids_in("La Grande Cour des Miracles", "grande-cour")
    assert not named.ids_in("Ada plays Surge on the Defrocked priest in the taverne.") and not named.ids_in("3", "3")
    assert not named.ids_in("Brune", "p2") and not named.ids_in("Westward Gaze", "westward")


def test_a_refused_move_redraws_the_table_at_the_new_version_with_the_refusal(person, base_url):
    """Ada composes a move while the same move is made elsewhere (her token, through the API) and the
    page has not heard of it (its stream is held): Confirm is refused, and the table shows the game
    as it now is, with the server's sentence."""
    ada = person()
    page = register(ada, "Ada")
    game_id, token = create_against_bots(page, "cronberg"), ada.token()
    page.wait_for_selector("#composer")
    page.route("**/stream?*", lambda route: None)  # held: the page hears nothing more
    page.reload()
    page.wait_for_selector("#composer")
    compose_to_confirm(page)
    _, legal = api(base_url, "GET", f"/v1/games/{game_id}/legal-commands", token=token)
    status, _ = api(base_url, "POST", f"/v1/games/{game_id}/commands", legal["commands"][0], token=token)
    assert status in (200, 201, 202)
    _, now = api(base_url, "GET", f"/v1/games/{game_id}/view", token=token)
    page.click("#compose-confirm")
    page.wait_for_selector("#refusal")
    assert page.inner_text("#refusal").startswith("The move was refused: ")
    assert int(page.get_attribute("#table", "data-version")) >= now["version"]


@pytest.mark.parametrize("game", ["cronberg", "coronation"])
def test_a_decision_fits_on_about_two_phone_screens(person, artifacts, game):
    phone = person(viewport={"width": 390, "height": 844})
    page = register(phone, "Ada")
    create_against_bots(page, game)
    page.wait_for_selector("#composer")
    height = page.evaluate("document.documentElement.scrollHeight")
    page.screenshot(path=str(artifacts / f"composing-phone-{game}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert height <= 2.1 * 844, f"the table at one decision is {height} px tall on a phone"
