"""The web client knows no game by name: what it draws of a game (its hand,
its board, its choices) comes from the game's declarations in the contract,
so a game added to the registry needs no change to the client. No browser:
the modules' code (their comments left out) is read for every game's name,
slug and title, and for the name of a view's schema (CronbergView)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from domain import games as registry

STATIC = Path(__file__).resolve().parents[2] / "api" / "web" / "static"
# Files allowed to name a game, and why: none (boards are drawn by their declared kind).
EXEMPT: dict[str, str] = {}


def code_of(text: str) -> str:
    """The JavaScript without its comments (a `//` inside a string such as a URL stays)."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"(^|\s)//.*$", r"\1", text, flags=re.M)


def names_of(game) -> set[str]:
    camel = "".join(part.capitalize() for part in game.name.split("-"))
    return {game.name, game.name.replace("-", "_"), game.name.replace("-", " "), game.title, camel}


def named_games(text: str) -> list[str]:
    code = code_of(text).lower()
    return sorted({name for game in registry.REGISTRY.values() for name in names_of(game)
                   if re.search(rf"(?<![\w-]){re.escape(name.lower())}(?![\w-])", code)})


@pytest.mark.parametrize("module", sorted(path.name for path in STATIC.glob("*.js")))
def test_no_client_module_names_a_game(module):
    if module in EXEMPT:
        pytest.skip(EXEMPT[module])
    named = named_games((STATIC / module).read_text())
    assert not named, f"{module} names {', '.join(named)}: draw from the game's declarations, not its name"


def test_a_module_that_branches_on_a_game_s_name_is_caught():
    assert named_games('if (game === "court-of-miracles") return [];') == ["court-of-miracles"]
    assert named_games('/** @type {Schemas["CronbergView"]} */ const view = x; // Cronberg\'s') == []
    assert named_games('const url = "http://example.org/x"; if (game === "the-coil") {}') == ["the-coil"]


def kinds_drawn() -> set[str]:
    """The board kinds board_games.js draws: the keys of its KINDS."""
    text = code_of((STATIC / "board_games.js").read_text())
    body = text[text.index("export const KINDS = {"):]
    return set(re.findall(r'^  "?([a-z][a-z-]*)"?\(view, files, file(?:, who)?\) \{', body, flags=re.M))


def test_every_hosted_game_declares_a_board_of_a_kind_the_web_client_draws():
    kinds = kinds_drawn()
    assert len(kinds) >= 5, kinds
    declared = {name: game.board and game.board.kind for name, game in registry.REGISTRY.items()}
    assert all(declared.values()), f"games that declare no BOARD_DRAWING (shapes.py): {declared}"
    assert set(declared.values()) <= kinds, f"kinds the client does not draw: {set(declared.values()) - kinds}"
    # Each kind is named for what it draws, not for a game.
    assert not [kind for kind in kinds if named_games(f'"{kind}"')], kinds
