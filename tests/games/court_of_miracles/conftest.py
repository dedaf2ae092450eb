"""A small table builder for The Court of Miracles tests.

``table(...)`` replays a real GameSetUp and TurnBegan, then sets the given
facts on the state (hands, coins, rogues out of play, board, controllers...)."""

from __future__ import annotations

import random
import types
from dataclasses import replace

import pytest

from domain.games import VERSIONS
from domain.games.court_of_miracles import RULES
from domain.games.court_of_miracles import messages as m
from domain.games.court_of_miracles.data import INDEX, PLOT_DECK
from domain.games.court_of_miracles.state import Turn


def table(players=3, first="p1", pile=None, bag=("brute", "swordsman", "courtesan"), hands=None, coins=None,
          supply=None, board=None, controllers=None, king=0, lines=None, phase="place", discards=(),
          reserve=None, parked=None, rules_version=None, **turn):
    """``rules_version``: the rules the game was created under (the newest if None)."""
    seats = tuple(f"p{i}" for i in range(1, players + 1))
    pile = tuple(PLOT_DECK) if pile is None else tuple(pile)
    rules = VERSIONS[RULES.name][rules_version] if rules_version else RULES
    s = rules.replay([m.GameSetUp(seats, first, pile, tuple(bag)), m.TurnBegan(first)])
    for seat, cards in (hands or {}).items():
        s = s.with_player(seat, hand=tuple(cards))
    for seat, amount in (coins or {}).items():
        s = s.with_player(seat, coins=amount)
    for seat, kinds in (supply or {}).items():
        s = s.with_player(seat, supply=tuple(sorted(kinds)))
    for seat, ls in (lines or {}).items():
        s = s.with_player(seat, lines=tuple(sorted(ls)))
    for seat, value in (parked or {}).items():
        s = s.with_player(seat, right_hand_parked=value)
    rows = [list(row) for row in s.board]
    for (n, spot), occupant in (board or {}).items():
        rows[INDEX[n]][spot - 1] = occupant
    ctrl = list(s.controllers)
    for n, seat in (controllers or {}).items():
        ctrl[INDEX[n]] = seat
    s = replace(s, board=tuple(tuple(r) for r in rows), controllers=tuple(ctrl), king=king, phase=phase,
                discards=tuple(discards), turn=replace(Turn(), **turn))
    if reserve is not None:
        s = replace(s, reserve=reserve)
    return s


def decide(state, seat, command, seed=0):
    return RULES.decide(state, seat, command, random.Random(seed))


def run(state, seat, command, seed=0):
    """The state after the command (its events folded in)."""
    return RULES.replay(decide(state, seat, command, seed), state)


def kinds(events):
    return [type(e).__name__ for e in events]


def of(events, cls):
    return [e for e in events if isinstance(e, cls)]


@pytest.fixture
def cm():
    return types.SimpleNamespace(table=table, decide=decide, run=run, kinds=kinds, of=of, m=m, RULES=RULES)
