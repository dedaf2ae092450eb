"""What a game declares its ``visible`` hides (its package's redactions.py)
is what ``visible`` does, for every game; a declaration that misses or
invents a redaction fails, naming the field and the file to fix."""

from __future__ import annotations

import dataclasses

import pytest

from domain import games
from domain.kit.redaction import Redacted

from tests.games.conformance.playouts import GAMES
from tests.games.conformance.redactions import check_redactions_are_what_visible_does


@pytest.mark.parametrize("game", list(GAMES.values()), ids=list(GAMES))
def test_every_game_declares_exactly_what_its_visible_hides(game):
    check_redactions_are_what_visible_does(game)


def test_a_hidden_field_left_undeclared_fails_naming_it_and_the_file():
    cronberg = games.get("cronberg")
    with pytest.raises(AssertionError, match=r"visible hides RoundStarted.stack from p1 .*add 'RoundStarted': "
                                             r"Redacted\(hidden=\(\.\.\., 'stack'\)\) to REDACTED in "
                                             r"domain/games/cronberg/redactions.py"):
        check_redactions_are_what_visible_does(dataclasses.replace(cronberg, redacted={}))


def test_an_added_key_left_undeclared_fails_naming_it():
    cronberg = games.get("cronberg")
    with pytest.raises(AssertionError, match="visible adds stack_size to RoundStarted"):
        check_redactions_are_what_visible_does(
            dataclasses.replace(cronberg, redacted={"RoundStarted": Redacted(hidden=("stack",))}))


def test_a_field_declared_hidden_that_visible_shows_fails_naming_it():
    coil = games.get("the-coil")
    redacted = {**coil.redacted, "DeckShuffled": Redacted(hidden=("cards", "nation"))}
    with pytest.raises(AssertionError, match="declares DeckShuffled's nation hidden, but visible never hid"):
        check_redactions_are_what_visible_does(dataclasses.replace(coil, redacted=redacted))
