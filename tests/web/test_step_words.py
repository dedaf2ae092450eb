"""Every step of a composed move speaks words: at each game's first decision
of its host (against bots), each first choice is followed to the sentence
with its Confirm, and no button of any step on the way shows an id where a
name exists, a UUID, a slug (a word joined by - or _), null, or JSON: the
value a button sends is never what it says, unless it is a number; and
the composer's buttons, "So far", question and sentence name what the data
files and the seats name (composing.Named), never their ids."""

from __future__ import annotations

import re

import pytest

from .composing import DATA, UUID, Named, names_not_ids, words_not_data
from .conftest import api
from .test_boards import GAMES
from .test_readable_board import DESKTOP, at_a_decision

FIRST_CHOICES = 6  # first-step choices followed to their sentence, per game
STEPS = 12  # the most steps of one move

BUTTONS = """() => [...document.querySelectorAll("#choices button")].map((b) => [b.innerText.trim(), b.dataset.value ?? null])"""


def data_in(text: str, value: str | None) -> str | None:
    """What of a step button's text is data and not words, or None."""
    for pattern, what in ((UUID, "a UUID"), (DATA, "null or JSON"), (re.compile(r"_"), "a slug with _")):
        if pattern.search(text):
            return what
    if value and re.search(r"[a-z]", value):
        if re.search(r"[-_]", value) and value in text:
            return f"the slug it sends, {value!r}"
        if text == value and re.fullmatch(r"[a-z][a-z0-9]*", value):  # "p1", "taverne": an id, where a name exists
            return f"the id it sends, {value!r}, not a name"
    return None


def checked_step(page, where_seen: list, named: Named) -> None:
    """The step shown: its buttons say words and names; the table's text holds no data either."""
    where = page.get_attribute("#composer", "data-where")
    where_seen.append(where)
    words_not_data(page)
    names_not_ids(page, named)
    if where == "buttons":
        shown = page.evaluate(BUTTONS)
        wrong = [(text, value, why) for text, value in shown if (why := data_in(text, value))]
        assert not wrong, f"step buttons that show data: {wrong} in\n{page.inner_text('#composer')}"


def choose(page, n: int) -> None:
    where = page.get_attribute("#composer", "data-where")
    if where == "buttons":
        page.locator("#choices button").nth(n).click()
    else:
        page.locator(f"#{'board' if where == 'board' else 'hand'} .candidate").nth(n).dispatch_event("click")


def choices(page) -> int:
    where = page.get_attribute("#composer", "data-where")
    return page.locator("#choices button" if where == "buttons" else f"#{'board' if where == 'board' else 'hand'} .candidate").count()


def test_a_button_that_shows_data_is_caught():
    assert data_in("p1", "p1") and data_in("first-aid-kit", "first-aid-kit") and data_in("line null", None)
    assert data_in("take_judgment", "take_judgment") and data_in("taverne", "taverne") and data_in("25daebcd-0c1e-4a8e-9b7e-1f2a3b4c5d6e", None)
    assert not data_in("Ada", "p1") and not data_in("3", "3") and not data_in("First aid kit", "first-aid-kit")
    assert not data_in("Sir Aldric", "Sir Aldric")  # a value that is itself a name


@pytest.mark.parametrize("game", GAMES)
def test_no_step_button_of_a_composed_move_shows_an_id_a_uuid_a_slug_or_null(game, person, base_url):
    watched, page, game_id, token = at_a_decision(person, base_url, game, DESKTOP)
    _, view = api(base_url, "GET", f"/v1/games/{game_id}/view", token=token)
    named = Named.of(base_url, game, view.get("names") or {})
    where_seen: list = []
    first = choices(page)
    assert first, page.inner_text("#composer")
    for n in range(min(first, FIRST_CHOICES)):
        checked_step(page, where_seen, named)
        choose(page, n)
        for _ in range(STEPS):
            if page.get_attribute("#composer", "data-step") == "confirm":
                break
            checked_step(page, where_seen, named)
            choose(page, 0)
        assert page.get_attribute("#composer", "data-step") == "confirm", page.inner_text("#composer")
        words_not_data(page)  # the sentence to confirm
        names_not_ids(page, named)
        for _ in range(STEPS + 2):  # back to the decision's first step
            if not page.locator("#compose-back").count():
                break
            page.click("#compose-back")
    assert watched.console_errors == []
