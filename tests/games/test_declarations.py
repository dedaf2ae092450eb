"""A game is assembled by convention from its package's modules
(domain.kit.assemble): its __init__ names it, the parts are found by name.
A package that lacks a part, or defines one twice, fails with a sentence
naming the part and the file it belongs in; every data file a game serves is
described in its package."""

from __future__ import annotations

import pytest

from domain import games
from domain.games.data_files import UNDESCRIBED, of
from domain.games.example import bot, rules, shapes, words
from domain.kit import Traits
from domain.kit.assemble import AssemblyError, assemble

EXAMPLE = dict(name="example", title="Example", min_seats=2, max_seats=3,
               traits=Traits(simultaneous=True, chance=True, hidden_information=True, teams=False))


def test_a_game_is_assembled_from_the_parts_its_modules_define():
    game = assemble("domain.games.example", **EXAMPLE)
    assert (game.decide.__module__, game.bots, game.sentences, game.view_shape) == (
        "domain.games.example.decide", bot.BOTS, words.SENTENCES, shapes.VIEW)
    assert game.data is not None and "cards.json" in game.data_paths()  # the *.json beside it are its data


def test_a_package_without_a_part_fails_naming_the_part_and_its_file(monkeypatch):
    monkeypatch.delattr(bot, "BOTS")
    with pytest.raises(AssemblyError, match=r"example declares no BOTS: put it in domain/games/example/bot.py"):
        assemble("domain.games.example", **EXAMPLE)


def test_a_part_defined_differently_in_two_modules_fails_naming_both(monkeypatch):
    monkeypatch.setattr(words, "OPTIONS", (), raising=False)
    with pytest.raises(AssemblyError, match=r"defines OPTIONS differently in rules.py, words.py: keep one "
                                            r"\(by convention in domain/games/example/rules.py\)"):
        assemble("domain.games.example", **EXAMPLE)
    assert rules.OPTIONS


@pytest.mark.parametrize("game", list(games.REGISTRY), ids=list(games.REGISTRY))
def test_every_data_file_a_game_serves_says_what_it_holds(game):
    undescribed = [f.name for f in of(game) if f.description == UNDESCRIBED]
    assert not undescribed, (f"{game} serves {', '.join(undescribed)} without saying what it holds: describe each in "
                             f"DATA_FILES in domain/games/{game.replace('-', '_')}/datafiles.py")
