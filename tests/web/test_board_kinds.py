"""A game added later whose package declares a board of a kind the web client
already draws (BOARD_DRAWING, the catalogue's `board`) gets its board drawn
with no change to the client: a server whose registry also holds
"walled-city" (tests/support/board_kind_hosted: Cronberg's rules and data
under another name, a game the client's code never names) draws its table's
board, every place of its data file, and its legend."""

from __future__ import annotations

from pathlib import Path

import pytest

from eventstore.servers import temporary_database

from .conftest import _served, api
from .test_boards import a_game_against_bots, data_files_of

HOSTED = Path(__file__).resolve().parents[1] / "support" / "board_kind_hosted"


@pytest.fixture(scope="module")
def base_url(database_url, redis_url, tmp_path_factory):
    """``boardlog serve`` and its worker hosting "walled-city" beside the other games."""
    with temporary_database(database_url, prefix="boardlog_kinds") as own_database:
        yield from _served(own_database, redis_url, tmp_path_factory, pythonpath=HOSTED)


def test_a_new_game_of_a_known_board_kind_is_drawn_with_no_change_to_the_client(person, base_url):
    # Given a game the client's code does not name, declaring a kind it draws
    _, rules = api(base_url, "GET", "/v1/rules/walled-city")
    assert rules["board"] == {"kind": "triangle-grid", "data": "board.json"}
    game_id, token = a_game_against_bots(base_url, "walled-city", "kinds")
    # When its host opens the table
    watched = person()
    page = watched.open("/")
    page.evaluate("([token]) => localStorage.setItem('boardlog.token', token)", [token])
    page.goto(f"{base_url}/#/games/{game_id}")
    page.wait_for_selector('#board svg[data-drawn-from="data"]')
    # Then its board is drawn from its data file: every crossing and triangle, named, and its legend
    board = data_files_of(base_url, "walled-city", game_id)["board.json"][1]
    crossings = page.eval_on_selector_all('#board [data-place^="crossing:"]', "(places) => places.map((p) => p.dataset.name)")
    assert crossings == [c["id"] for c in board["crossings"]]
    assert page.locator('#board [data-place^="triangle:"]').count() == len(board["triangles"])
    assert page.get_attribute("#board svg", "aria-label") == "the board of A Walled City"
    assert "the city wall" in page.inner_text("#legend")
    assert watched.console_errors == []
