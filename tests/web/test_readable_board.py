"""A board people can read, and a table played by keyboard and on a phone,
in a real browser, for each of the five games at a decision of its host (a
game created through the API, against bots): every place drawn is named and
labelled on the board, no two labels overlap, a legend says what the data's
colours and kinds mean, the hand's cards are pictures with their names from
the data; axe finds nothing serious on the table at a desktop's size and a
phone's; on a phone a decision fits in about two screens without scrolling
sideways, and the board enlarged pans in its frame with readable labels; a whole decision is made by the keyboard alone and accepted."""

from __future__ import annotations

import pytest

from tests.support.waiting import wait_until

from .accessibility import serious_violations
from .conftest import api
from .test_boards import BOARD, GAMES, a_game_against_bots, data_files_of, known_kind

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def at_a_decision(person, base_url: str, game: str, viewport: dict):
    """The host's table, composing his first decision (axe runs in it: the context bypasses the page's CSP)."""
    game_id, token = a_game_against_bots(base_url, game, f"readable-{game}")
    watched = person(viewport=viewport, bypass_csp=True)
    page = watched.open("/")
    page.evaluate("([token]) => localStorage.setItem('boardlog.token', token)", [token])
    page.goto(f"{base_url}/#/games/{game_id}")
    page.wait_for_selector('#board svg[data-drawn-from="data"]')
    page.wait_for_selector("#composer", timeout=20000)
    return watched, page, game_id, token


def spoken(text: str) -> str:
    return text.replace("_", " ").replace("-", " ")


def what_the_legend_says(game: str, files: dict[str, dict]) -> list[str]:
    """What each game's data gives a colour or a sign to: the legend must name each."""
    kind, data = known_kind(game), files[BOARD[game].data]
    if kind == "triangle-grid":
        return [spoken(triangle) for triangle in {t["kind"] for t in data["triangles"]}]
    if kind == "numbered-map":
        return [spoken(loc["instrument"]) for loc in data["locations"] if loc["instrument"]]
    if kind == "neighbourhoods":
        return [spoken(spot["effect"]) for n in data["neighbourhoods"] for spot in n["spots"]]
    if kind == "terrain-map":
        places = data["places"]
        return [p["kind"] for p in places] + [f"{p['counter']} adventure" for p in places if p.get("counter")]
    return [nation["name"] for nation in data["nations"]]


UNLABELLED = """(board) => [...board.querySelectorAll("[data-place]")].filter((place) => {
    const named = place.getAttribute("aria-label") || place.querySelector("title")?.textContent || "";
    const label = board.querySelector(`text[data-for="${CSS.escape(place.dataset.place)}"]`);
    const seen = label && getComputedStyle(label).visibility !== "hidden" && label.getBoundingClientRect().width > 0;
    return !named.trim() || !seen || !label.textContent.trim();
  }).map((place) => place.dataset.place)"""

OVERLAPPING = """(board) => {
    const boxes = [...board.querySelectorAll("svg text")].filter((t) => getComputedStyle(t).visibility !== "hidden")
      .map((t) => [t.textContent, t.getBoundingClientRect()]).filter(([, r]) => r.width > 0 && r.height > 0);
    const found = [];
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
      const [a, p] = boxes[i], [b, q] = boxes[j];
      if (p.left < q.right - 0.5 && q.left < p.right - 0.5 && p.top < q.bottom - 0.5 && q.top < p.bottom - 0.5) found.push(`${a} / ${b}`);
    }
    return found;
  }"""


@pytest.mark.parametrize("game", GAMES)
def test_at_a_decision_every_place_is_labelled_apart_a_legend_says_what_the_data_means_and_axe_finds_nothing_serious(game, person, base_url):
    watched, page, game_id, token = at_a_decision(person, base_url, game, DESKTOP)
    files = {name: parsed for name, (_, parsed) in data_files_of(base_url, game, game_id).items()}

    assert page.locator("#board [data-place]").count() > 0
    assert page.eval_on_selector("#board", UNLABELLED) == [], "places without a name or a visible label"
    assert page.eval_on_selector("#board", OVERLAPPING) == [], "labels drawn over each other"
    legend = page.inner_text("#legend")
    assert [said for said in what_the_legend_says(game, files) if said.lower() not in legend.lower()] == [], legend
    # A place pointed at is said in full below the board (a dense board writes numbers, not every name).
    place = page.locator("#board [data-place]").last
    place.dispatch_event("pointerover")
    assert place.get_attribute("data-name") in page.inner_text("#board-caption")
    # A candidate of the step (a place to click) is named by the step's question and the place's name.
    for named in page.eval_on_selector_all("#board .candidate", "(places) => places.map((p) => [p.getAttribute('aria-label'), p.dataset.name])"):
        assert named[1] in named[0], named

    _, rules = api(base_url, "GET", f"/v1/rules/{game}")
    cards = page.eval_on_selector_all("#hand [data-card]", """(cards) => cards.map((c) => {
        const picture = c.querySelector("svg.card");
        return [picture?.getAttribute("aria-label"), picture?.querySelector("text")?.textContent]; })""")
    if rules.get("hand") and cards:  # each card a picture, named and titled as the data file the catalogue names
        names = rules["hand"]["names"]
        entries = files[names["data"]][names["list"]]
        known = {str(entry[names.get("label", "name")]) for entry in entries}
        if names.get("label", "name") == names.get("key", "id"):  # a thing known by its number: "Building 5"
            known = {f"{names['what'].capitalize()} {label}" for label in known}
        assert all(title in known and spoken and spoken.startswith(title) for spoken, title in cards), cards

    assert serious_violations(page) == []
    assert watched.console_errors == []


@pytest.mark.parametrize("game", GAMES)
def test_on_a_phone_a_decision_fits_in_about_two_screens_without_sideways_scrolling_its_labels_apart_and_axe_finds_nothing_serious(game, person, base_url):
    watched, page, _, _ = at_a_decision(person, base_url, game, PHONE)
    height, width = page.evaluate("[document.documentElement.scrollHeight, document.documentElement.scrollWidth]")
    assert width <= PHONE["width"], "the page scrolls sideways"
    assert page.eval_on_selector("#board svg", "(svg) => svg.getBoundingClientRect().right") <= PHONE["width"]
    assert height <= 2.1 * PHONE["height"], f"a decision is {height} px tall on a phone"
    if page.locator("#hand [data-card]").count() > 2:  # the hand a row of its own that scrolls sideways, not the page
        assert page.eval_on_selector("#hand", "(hand) => hand.scrollWidth > hand.clientWidth")
    # The question asked right under the board it is answered on, the hand after it.
    top = "(section) => section.hidden ? null : [section.getBoundingClientRect().top, section.getBoundingClientRect().bottom]"
    board, move, hand = (page.eval_on_selector(f"#{name}-section", top) for name in ("board", "move", "hand"))
    assert board[1] <= move[0] and (hand is None or move[1] <= hand[0]), (board, move, hand)
    assert page.eval_on_selector("#board", OVERLAPPING) == [], "labels drawn over each other on the board made small"
    assert serious_violations(page) == []
    assert watched.console_errors == []


SMALLEST_LABEL = """(board) => Math.min(...[...board.querySelectorAll("svg text[data-for]")]
    .filter((t) => getComputedStyle(t).visibility !== "hidden").map((t) => t.getBoundingClientRect().height).filter((h) => h > 0))"""


@pytest.mark.parametrize("game", GAMES)
def test_on_a_phone_the_board_enlarged_pans_in_its_frame_its_labels_read_at_a_fingers_size(game, person, base_url, artifacts):
    watched, page, _, _ = at_a_decision(person, base_url, game, PHONE)
    small = page.eval_on_selector("#board", SMALLEST_LABEL)
    page.click("#board-zoom")
    assert page.get_attribute("#board-zoom", "aria-pressed") == "true"
    large = page.eval_on_selector("#board", SMALLEST_LABEL)
    assert large >= 2 * small and large >= 8, f"the smallest label is {small:.1f} px, enlarged {large:.1f} px"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], "the page, not the board, scrolls sideways"
    assert page.eval_on_selector("#board", "(board) => board.scrollWidth > board.clientWidth")
    page.screenshot(path=str(artifacts / f"board-enlarged-{game}.png"))
    if page.locator("#board .candidate").count():  # a place chosen on the enlarged board takes the step
        step = page.get_attribute("#composer", "data-step")
        page.locator("#board .candidate").last.click()
        wait_until(lambda: page.get_attribute("#composer", "data-step") != step, 10, "the step to be taken")
    assert serious_violations(page) == []
    page.click("#board-zoom")
    assert page.eval_on_selector("#board", SMALLEST_LABEL) == pytest.approx(small, abs=0.5)
    assert watched.console_errors == []


FOCUSABLE_CHOICE = """() => { const at = document.activeElement;
    return !!at && (at.matches("#compose-confirm") || at.matches("#choices button") || at.matches("#board .candidate, #hand .candidate")); }"""


# A focused button is outlined; a focused place of the board is stroked in the turn's colour (style.css).
SHOWN_FOCUS = """() => { const style = getComputedStyle(document.activeElement);
    return style.outlineStyle !== "none" || style.stroke === "rgb(240, 180, 41)"; }"""


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_decision_is_made_by_the_keyboard_alone_and_the_server_accepts_it(game, person, base_url):
    watched, page, game_id, token = at_a_decision(person, base_url, game, DESKTOP)
    seat = api(base_url, "GET", f"/v1/games/{game_id}/view", token=token)[1]["seat"]
    before = int(page.get_attribute("#table", "data-version"))
    for _ in range(12):  # a step at a time: Tab to the first choice it offers, Enter
        confirming = page.get_attribute("#composer", "data-step") == "confirm"
        for _ in range(300):
            page.keyboard.press("Tab")
            if page.evaluate(FOCUSABLE_CHOICE):
                break
        else:
            raise AssertionError("no choice of the step is reached with Tab: " + page.inner_text("#composer"))
        assert page.evaluate(SHOWN_FOCUS), "the focus is not shown"
        page.keyboard.press("Enter")
        if confirming:
            break
    else:
        raise AssertionError("no Confirm after 12 steps: " + page.inner_text("#composer"))

    def moved() -> bool:
        _, feed = api(base_url, "GET", f"/v1/games/{game_id}/events?after={before}&limit=100", token=token)
        return any(event.get("seat") == seat for event in feed["events"])

    wait_until(moved, 20, "the move made by keyboard to be in the game's events")
    assert page.locator("#refusal").count() == 0
    assert watched.console_errors == []
