"""Each game's board, in a real browser, drawn from the data files the API
serves (exactly those the game's GameCreated names by sha256) and the view;
the hand with the cards' names and texts from the data; the log in the
events' own sentences. One short look per game: no game is played."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest

from domain.games import REGISTRY

from .conftest import api

# Every hosted game that declares a board; what is expected of a board is said per kind of board.
GAMES = sorted(name for name, rules in REGISTRY.items() if rules.board is not None)
BOARD = {name: REGISTRY[name].board for name in GAMES}
KINDS = ("triangle-grid", "numbered-map", "neighbourhoods", "terrain-map", "card-table")


def known_kind(game: str) -> str:
    kind = BOARD[game].kind
    assert kind in KINDS, (f"{game}'s board is of kind {kind!r}, which these tests do not know: say what its data "
                           "names and its legend shows in tests/web/test_boards.py and test_readable_board.py")
    return kind


def places_in_the_data(game: str, files: dict[str, dict], players: int) -> list[str]:
    """The names the data gives each place a board draws, in the data's order."""
    kind, data = known_kind(game), files[BOARD[game].data]
    if kind == "triangle-grid":
        return [c["id"] for c in data["crossings"]]
    if kind == "numbered-map":
        return [location["name"] for location in data["locations"]]
    if kind == "neighbourhoods":
        return [n["name"] for n in data["neighbourhoods"]]
    if kind == "terrain-map":
        return [place["name"] for place in data["places"]]
    return [f"p{n + 1}" for n in range(len(data["layout"]["table"][str(players)]))]


def a_game_against_bots(base_url: str, game: str, name: str) -> tuple[str, str]:
    _, player = api(base_url, "POST", "/v1/players", {"name": name})
    _, rules = api(base_url, "GET", f"/v1/rules/{game}")
    bots = {seat: "random" for seat in rules["default_seats"][1:]}
    status, made = api(base_url, "POST", "/v1/games", {"game": game, "options": {"bots": bots}}, token=player["token"])
    assert status == 201, made
    assert api(base_url, "POST", f"/v1/games/{made['id']}/start", {}, token=player["token"])[0] == 200
    return made["id"], player["token"]


def data_files_of(base_url: str, game: str, game_id: str) -> dict[str, tuple[str, dict]]:
    """{name: (sha256, parsed file)} for the files the game's GameCreated records."""
    _, feed = api(base_url, "GET", f"/v1/games/{game_id}/events?after=0&limit=1")
    created = feed["events"][0]
    assert created["type"] == "GameCreated"
    files = {}
    for name, digest in created["data"]["data_files"].items():
        with urllib.request.urlopen(f"{base_url}/v1/rules/{game}/data/{digest}", timeout=10) as response:
            files[name] = (digest, json.loads(response.read()))
    return files


def open_table(person, base_url: str, game_id: str, token: str | None):
    watched = person()
    page = watched.open("/")
    if token:
        page.evaluate("([token]) => localStorage.setItem('boardlog.token', token)", [token])
    page.goto(f"{base_url}/#/{'games' if token else 'watch'}/{game_id}")
    page.wait_for_selector('#board svg[data-drawn-from="data"]')
    return watched, page


# The place each kind draws for its data's own places (the kind its games' commands name first).
MAIN_PLACE = {"triangle-grid": "crossing", "numbered-map": "location", "neighbourhoods": "neighbourhood",
              "terrain-map": "place", "card-table": "seat"}


@pytest.mark.parametrize("game", GAMES)
def test_each_games_board_is_drawn_from_the_data_files_its_game_was_created_with(game, person, base_url, artifacts):
    game_id, token = a_game_against_bots(base_url, game, f"boards-{game}")
    watched, page = open_table(person, base_url, game_id, token)
    files = data_files_of(base_url, game, game_id)
    fetched = [url.split("?")[0] for url in watched.requests]
    for name, (digest, _) in files.items():
        assert f"{base_url}/v1/rules/{game}/data/{digest}" in fetched, f"{name} was not fetched by its sha256"
    assert page.get_attribute("#board svg", "data-files").split() == [digest for digest, _ in files.values()]

    _, view = api(base_url, "GET", f"/v1/games/{game_id}/view", token=token)
    # The data's own places ("what:id", the kind each game's commands name first); triangles, lines and regions are places too.
    drawn = page.eval_on_selector_all(f"#board svg [data-place^='{MAIN_PLACE[known_kind(game)]}:']",
                                      "(places) => places.map((p) => [p.dataset.place.split(':').slice(1).join(':'), p.dataset.name])")
    expected = places_in_the_data(game, {name: parsed for name, (_, parsed) in files.items()}, len(view["view"].get("seats", [])))
    if known_kind(game) == "card-table":  # a seat's card is named after its nation once it has one
        assert [place for place, _ in drawn] == expected
    else:
        assert [name for _, name in drawn] == expected, "one element per place of the data file, named as the data names it"

    logged = page.eval_on_selector_all("#log li", "(items) => items.map((li) => [Number(li.dataset.version), li.textContent])")
    assert logged, "the log shows the game's events"
    _, feed = api(base_url, "GET", f"/v1/games/{game_id}/events?after={logged[0][0] - 1}&limit=100", token=token)
    sentences = {event["version"]: event["text"] for event in feed["events"]}
    assert all(text == f"v{version} · {sentences[version]}" for version, text in logged), logged[:3]

    if game == "court-of-miracles":  # the hand's Plot cards by their names and texts in cards.json
        plots = {plot["card"]: plot for plot in files["cards.json"][1]["plots"]}
        hand = next(p for p in view["view"]["players"] if p["seat"] == view["seat"])["hand"]
        shown = page.inner_text("#hand")
        assert hand and all(plots[card]["name"] in shown and plots[card]["text"] in shown for card in hand), shown

    # The board, the hand, the moves and the log (not the whole page: the view's tree below runs for metres).
    page.locator("#table .layout").screenshot(path=str(artifacts / f"board-{game}.png"))
    assert watched.console_errors == [] and watched.foreign_requests == []


# Everything the board and its legend say: their words, the places' names and their tooltips.
BOARD_WORDS = """() => [...document.querySelectorAll("#board svg text, #board svg title, #legend li")].map((e) => e.textContent)
    .concat([...document.querySelectorAll("#board [aria-label], #board [data-name]")].flatMap((e) => [e.getAttribute("aria-label"), e.dataset.name]))
    .filter(Boolean)"""


@pytest.mark.parametrize("game", GAMES)
def test_the_board_and_its_legend_call_each_seat_by_its_players_name_never_by_its_id(game, person, base_url):
    game_id, token = a_game_against_bots(base_url, game, f"named-{game}")
    watched, page = open_table(person, base_url, game_id, token)
    _, view = api(base_url, "GET", f"/v1/games/{game_id}/view", token=token)
    page.wait_for_selector(f'#table[data-version="{view["version"]}"]')
    said = page.evaluate(BOARD_WORDS)
    seats = [seat for seat in view["names"] if seat != view["names"][seat]]
    shown = [(seat, words) for words in said for seat in seats if re.search(rf"(?<![\w-]){re.escape(seat)}(?![\w-])", words)]
    assert shown == [], "seat ids on the board where a player's name exists"
    if any(key in page.inner_text("#legend") for key in ("seat", "player")) or known_kind(game) in ("triangle-grid", "neighbourhoods"):
        assert f"named-{game}" in page.inner_text("#legend"), page.inner_text("#legend")  # the host's colour, by his name
    assert watched.console_errors == []


def test_a_games_data_is_fetched_once_for_all_its_tables_and_spectators_see_the_board_too(person, base_url):
    first, _ = a_game_against_bots(base_url, "cronberg", "boards-once")
    second, _ = a_game_against_bots(base_url, "cronberg", "boards-twice")
    watched, page = open_table(person, base_url, first, None)
    page.evaluate("([id]) => { location.hash = `#/watch/${id}`; }", [second])
    page.wait_for_selector(f'#table[data-view*="{second}"] #board svg[data-drawn-from="data"]')
    files = [url for url in watched.requests if "/v1/rules/cronberg/data/" in url]
    assert len(files) == len(set(files)) == 2, files  # board.json and tiles.json, each once
    assert watched.console_errors == []


def test_a_replays_board_is_drawn_from_the_data_files_loaded_once_for_every_step(person, base_url):
    game_id, token = a_game_against_bots(base_url, "coronation", "boards-replay")
    files = data_files_of(base_url, "coronation", game_id)
    watched = person()
    page = watched.open("/")
    page.evaluate("([token]) => localStorage.setItem('boardlog.token', token)", [token])
    page.goto(f"{base_url}/#/replay/{game_id}")
    from_data = 'svg[data-drawn-from="data"]'
    board = f"#replay {from_data}"
    page.wait_for_selector(board)
    drawn = page.eval_on_selector_all(f"{board} [data-place^='location:']", "(places) => places.map((p) => p.dataset.name)")
    assert drawn == places_in_the_data("coronation", {name: parsed for name, (_, parsed) in files.items()}, 0), \
        "one element per place of the data file, named as the data names it"
    assert page.get_attribute(board, "data-files").split() == [digest for digest, _ in files.values()]

    last = int(page.get_attribute("#replay", "data-at"))
    earlier = next(version for version in range(last - 1, 0, -1)
                   if (answer := api(base_url, "GET", f"/v1/games/{game_id}/view?at={version}", token=token))[0] == 200
                   and answer[1]["view"])
    page.fill("#replay-at", str(earlier))
    page.click("#replay-jump")
    page.wait_for_selector(f'#replay[data-at="{earlier}"] {from_data}')
    page.click("#replay-last")
    page.wait_for_selector(f'#replay[data-at="{last}"] {from_data}')
    fetched = [url for url in watched.requests if "/v1/rules/coronation/data/" in url]
    assert sorted(fetched) == sorted({url for url in fetched}) and len(fetched) == len(files), fetched
    assert watched.console_errors == [] and watched.foreign_requests == []


def test_a_lobby_still_loading_when_a_table_is_opened_does_not_draw_over_its_board(person, base_url):
    """The lobby's last request answers after the reader followed a link to a
    table: the lobby is not drawn over the table (it once was, in CI, and the
    spectator saw the lobby where he had asked for the board)."""
    game_id, _ = a_game_against_bots(base_url, "cronberg", "boards-late-lobby")
    watched = person()
    held = []
    watched.page.route("**/v1/games?status=active*", lambda route: held.append(route))
    page = watched.open("/")
    page.evaluate("([id]) => { location.hash = `#/watch/${id}`; }", [game_id])
    page.wait_for_selector('#board svg[data-drawn-from="data"]')
    assert held, "the lobby asked for the games being played before the table opened"
    with page.expect_response("**/v1/games?status=active*"):
        held[0].continue_()
    page.wait_for_timeout(500)  # the lobby's answer is read and, before the fix, drawn
    assert page.locator("#watch-title").count() == 0, "the lobby was drawn over the table"
    assert page.locator('#board svg[data-drawn-from="data"]').count() == 1
    assert watched.console_errors == []
