"""Two people at one table, in browser contexts of their own, making every
move by composed choices only: a button of the step, a highlighted place of
the board or card of the hand, then Confirm. What each decision cost
(steps, clicks, buttons per step) is measured as it goes."""

from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass, field

import pytest

from .conftest import api

PlaywrightError = pytest.importorskip("playwright.sync_api", reason="playwright is in the [test] extras").Error

MAX_BUTTONS = 12
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)
DATA = re.compile(r"\bnull\b|\bundefined\b|\bNone\b|[\[\]{}]")
REFUSED = tuple(f"Failed to load resource: the server responded with a status of {status}" for status in (409, 422))


def unexplained_errors(page, game: str) -> list[str]:
    """The console's errors but, in a simultaneous game, the refusal of a move
    another seat's move made stale as it was confirmed (the page redraws with
    the sentence: test_a_refused_move_redraws_the_table_at_the_new_version_with_the_refusal)."""
    from domain import games

    raced = REFUSED if games.get(game).traits.simultaneous else ()
    return [error for error in page.console_errors if not (raced and error.startswith(raced))]


@dataclass
class Measured:
    """Per decision, the clicks it took; per step, the buttons it showed; per
    decision too, when step is given ``legal``, the legal commands it had: the
    buttons of the flat list the client showed before it composed moves."""

    clicks: list[int] = field(default_factory=list)
    buttons: list[int] = field(default_factory=list)
    where: dict[str, int] = field(default_factory=dict)
    flat: list[int] = field(default_factory=list)
    begun: dict = field(default_factory=dict)  # page: the legal commands of the decision it composes

    def summary(self) -> dict:
        clicks = sorted(self.clicks) or [0]
        flat = sorted(self.flat) or [0]
        return {"decisions": len(self.clicks), "clicks_median": clicks[len(clicks) // 2], "clicks_max": clicks[-1],
                "buttons_max": max(self.buttons or [0]), "steps_by_where": self.where,
                **({"flat_median": flat[len(flat) // 2], "flat_max": flat[-1]} if self.flat else {})}


def register(person, name: str):
    page = person.open("/")
    page.fill("#register-name", name)
    page.press("#register-name", "Enter")
    page.wait_for_selector("#create")
    return page


def words_not_data(page, with_log: bool = False) -> None:
    """What a person reads on the table (the raw view stays closed): no null, no JSON, no UUID.
    The log's sentences are the server's (each event's `text`): checked with_log only."""
    text = page.evaluate("""(withLog) => {
        const table = document.querySelector("#table").cloneNode(true);
        if (!withLog) table.querySelector("#log")?.remove();
        table.querySelector("#view-details")?.remove();
        document.body.append(table);
        const text = table.innerText;
        table.remove();
        return text;
    }""", with_log)
    assert not UUID.search(text), f"a UUID on the table: {UUID.search(text)[0]!r} in\n{text[:3000]}"
    found = DATA.search(text)
    assert not found, f"data on the table: {found[0]!r} near {text[max(0, found.start() - 200):found.end() + 200]!r}"


def spoken(value: str) -> str:
    """As compose.js's spoken: "grande-cour" → "grande cour", "HideLind" → "Hide Lind"."""
    return re.sub(r"[_-]+", " ", re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", value))


@dataclass
class Named:
    """What the page can call by name, from what it has: every entry of the game's data files
    (GET /v1/rules/{game}/data) with a name and an id (``id``, or the key the catalogue's
    field_names read it by) that reads otherwise, and the seats' players (the envelope's names).
    A composer's button, its "So far" and its sentence show the names, never these ids."""

    names: dict[str, set[str]]  # id → the names entries with that id carry
    seats: dict[str, str]  # seat → its player's name

    @classmethod
    def of(cls, base_url: str, game: str, seats: dict[str, str]) -> Named:
        _, rules = api(base_url, "GET", f"/v1/rules/{game}")
        keys = {"id"} | {names.get("key", "id") for names in (rules.get("field_names") or {}).values()
                         if names.get("label", "name") != names.get("key", "id")}
        _, listing = api(base_url, "GET", f"/v1/rules/{game}/data")
        names: dict[str, set[str]] = {}

        def walk(found) -> None:
            if isinstance(found, dict):
                named = found.get("name")
                for key in keys & found.keys():
                    if isinstance(named, str) and isinstance(found[key], str) and found[key] != named:
                        names.setdefault(found[key], set()).add(named)
                for value in found.values():
                    walk(value)
            elif isinstance(found, list):
                for value in found:
                    walk(value)

        for file in listing["files"]:
            walk(api(base_url, "GET", file["url"])[1])
        return cls(names, {seat: name for seat, name in seats.items() if seat != name})

    def ids_in(self, text: str, value: str | None = None) -> str | None:
        """What of a composer's text is an id where a name exists, or None. ``value``: what the button sends.
        A button that sends an id with a name says that name. In any text, after taking out the names it
        holds: no seat (its player's name is shown), no id written as a slug ("grande-cour", "celestos-01",
        "plus_one", and their spoken forms "Grande cour", "Plus one") or reading otherwise than its name
        ("westward" for Westward Gaze). A one-word id that is its name in other letters ("taverne", Taverne)
        is caught on a button only: in a sentence it may be the word."""
        if value in self.names and not any(name in text for name in self.names[value]):
            return f"the id it sends, {value!r}, not its name ({' or '.join(sorted(self.names[value]))})"
        words = text
        for name in sorted({*self.seats.values(), *(n for names in self.names.values() for n in names)}, key=len, reverse=True):
            words = words.replace(name, " ")
        for seat in self.seats:
            if re.search(rf"(?<![\w'-]){re.escape(seat)}(?![\w'-])", words):
                return f"the seat {seat!r}, not its player ({self.seats[seat]})"
        for id_, names in self.names.items():
            slug = bool(re.search(r"[-_0-9]|[a-z][A-Z]", id_))
            for form in {id_, spoken(id_), spoken(id_)[:1].upper() + spoken(id_)[1:]}:
                if form.isdigit() or (not slug and any(form.lower() == name.lower() for name in names)):
                    continue
                if re.search(rf"(?<![\w'-]){re.escape(form)}(?![\w'-])", words):
                    return f"the id {id_!r} (as {form!r}), not its name ({' or '.join(sorted(names))})"
        return None


COMPOSER_TEXTS = """() => [...document.querySelectorAll("#composer button.choice")]
    .map((b) => [b.innerText.trim(), b.dataset.value ?? null])
    .concat([...document.querySelectorAll("#compose-so-far, #compose-sentence, #composer .question")].map((p) => [p.innerText.trim(), null]))"""


def names_not_ids(page, named: Named) -> None:
    """The composer's buttons, its "So far", its question and its sentence show names, not ids (Named.ids_in)."""
    wrong = [(text, why) for text, value in page.evaluate(COMPOSER_TEXTS) if (why := named.ids_in(text, value))]
    assert not wrong, f"the composer shows ids where names exist: {wrong} in\n{page.inner_text('#composer')}"


def step(page, rng: random.Random, measured: Measured, pending: dict, legal=None, words: bool = True,
         named: Named | None = None) -> bool:
    """Take one step of the decision the page is composing, if it composes one: True when a step was taken.
    ``legal(page, version)``, if given, counts the legal commands of the decision as it begins; ``words`` checks the
    table's text at every step; ``named`` the composer's, for ids where names exist."""
    # The step's kind and where it is asked, read at once: a newer view may redraw the composer between two reads.
    shown = page.evaluate("""() => { const c = document.querySelector("#composer");
        return c ? [c.dataset.step, c.dataset.where || null, document.querySelector("#table").dataset.version] : null; }""")
    if not shown:
        return False
    kind, where, version = shown
    if words:
        words_not_data(page)
    if named is not None:
        names_not_ids(page, named)
    if legal is not None and measured.begun.get(page, (None,))[0] != version:  # a decision begins, or a newer view came
        measured.begun[page] = (version, legal(page, int(version)))
    if kind == "confirm":
        if page.locator("#compose-confirm[disabled]").count():
            return False  # sent: the answer is on its way
        page.locator("#compose-confirm:not([disabled])").click(timeout=3000)
        measured.clicks.append(pending.pop(page, 0) + 1)
        if page in measured.begun:
            measured.flat.append(measured.begun.pop(page)[1])
        return True
    measured.where[where] = measured.where.get(where, 0) + 1
    if where == "buttons":
        buttons = page.locator("#choices button")
        count = buttons.count()
        measured.buttons.append(count)
        assert 0 < count <= MAX_BUTTONS, f"{count} choice buttons at one step: " + page.inner_text("#composer")
        buttons.nth(rng.randrange(count)).click(timeout=3000)
    else:
        measured.buttons.append(page.locator("#choices button").count())
        candidates = page.locator(f"#{'board' if where == 'board' else 'hand'} .candidate")
        count = candidates.count()
        assert count, f"a {where} step with nothing highlighted: " + page.inner_text("#composer")
        chosen = candidates.nth(rng.randrange(count))
        # Half by the keyboard (Tab to it, Enter), half by the pointer.
        if rng.random() < 0.5:
            chosen.focus(timeout=3000)
            page.keyboard.press("Enter")
        else:
            chosen.dispatch_event("click")
    pending[page] = pending.get(page, 0) + 1
    return True


def compose_to_confirm(page) -> None:
    """The first choice of each step, up to the sentence and its Confirm."""
    while page.get_attribute("#composer", "data-step") != "confirm":
        where = page.get_attribute("#composer", "data-where")
        if where == "buttons":
            page.locator("#choices button").first.click()
        else:
            page.locator(f"#{'board' if where == 'board' else 'hand'} .candidate").first.dispatch_event("click")


def two_at_a_table(person, base_url, game: str, options: dict | None = None, bank: str | None = None):
    """Ada creates a game for two without bots (``bank``: each seat's time bank, in seconds, under "more options");
    Brune opens it and takes the other seat with the page's button; Ada starts it."""
    ada, brune = person(), person()
    host = register(ada, "Ada")
    host.select_option("#create-game", game)
    host.fill("#create-players", "2")
    host.uncheck("#create-bots")
    for name, value in (options or {}).items():
        host.fill(f"#option-{name}", value)
    if bank:
        host.click("#more-options summary")
        host.fill("#create-bank", bank)
    host.click("#create button[type=submit]")
    host.wait_for_selector("#table")
    game_id = host.url.rsplit("/", 1)[-1]
    guest = register(brune, "Brune")
    guest.goto(f"{base_url}/#/games/{game_id}")
    guest.click("#join")
    guest.wait_for_selector("#table[data-status=lobby]")
    host.click("#start", timeout=15000)
    for page in (host, guest):
        page.wait_for_selector('#table[data-status="active"]')
    return (ada, host), (brune, guest), game_id


def picture(page, path) -> None:
    """A screenshot of the table as a player reads it: with its stream live (the test server's short
    streams reconnect every few seconds, and a picture once showed "Reconnecting…"), else as it is."""
    try:
        page.wait_for_selector("#stream-state:text-matches('^(Live|The game is over)\\.$')", timeout=10_000)
    except PlaywrightError:
        pass  # a table whose stream stays away is pictured so: the picture says it
    page.screenshot(path=str(path), full_page=True)


def play(pages, rng: random.Random, measured: Measured, *, decisions: int | None, seconds: float, base_url, game_id, token,
         screenshot=None, shot_at: int = 3, named: Named | None = None):
    """Steps on whichever page composes, until the standings (decisions None) or that many decisions;
    `screenshot` (a path) takes a picture of the first page mid-decision, after shot_at decisions;
    `named` checks at every step that the composer shows names, not ids."""
    pending: dict = {}
    deadline = time.monotonic() + seconds
    while True:
        if all(page.locator("#standings").count() for page in pages):
            if screenshot:  # a game too short for a decision mid-way: its end
                picture(pages[0], screenshot)
            return
        if decisions is not None and len(measured.clicks) >= decisions:
            return
        if time.monotonic() > deadline:
            _, now = api(base_url, "GET", f"/v1/games/{game_id}/view", token=token)
            raise AssertionError(f"no end after {seconds} s and {len(measured.clicks)} decisions; the API is at "
                                 f"{now['version']} ({now['status']}), to act {now['to_act']}; the pages say: "
                                 + " | ".join(page.inner_text("#commands-area")[:300] for page in pages))
        # Mid-decision, and where it is made on the board or in the hand if it ever is (else at any step).
        if screenshot and len(measured.clicks) >= shot_at and pending.get(pages[0]) and (
                len(measured.clicks) >= shot_at * 2 or pages[0].locator("#composer[data-where=board], #composer[data-where=hand]").count()):
            picture(pages[0], screenshot)
            screenshot = None
        moved = False
        for page in pages:
            try:
                moved = step(page, rng, measured, pending, named=named) or moved
            except PlaywrightError:  # redrawn under the pointer by a newer view: look again
                continue
        if not moved:
            pages[0].wait_for_timeout(40)
