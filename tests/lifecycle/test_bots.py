"""Bots decide from their seat's view and legal commands only, with
randomness from the game's seed."""

from __future__ import annotations

import random

import pytest

from domain import games as registry
from domain import session as sessions
from domain.engine import rng_for
from domain.lifecycle import bots

from .support import started

GAMES = sorted(registry.REGISTRY)


class Spy:
    """Records what it is handed, and reads nothing else."""

    def __init__(self):
        self.calls = []

    def choose(self, view, legal_commands, rng):
        self.calls.append((view, legal_commands))
        return legal_commands[-1]


@pytest.mark.parametrize("game", GAMES)
def test_a_bot_is_handed_exactly_its_seat_s_view_and_legal_commands(game):
    table = started(game, {"players": 3} if game != "coronation" else {"detective_seats": 2})
    spy = Spy()
    for _ in range(20):
        seat = sorted(table.to_act)[0]
        command = bots.decide_for(table.rules, table.session.state, seat, spy, random.Random(0))
        view, legal = spy.calls[-1]
        assert view == table.rules.view(table.session.state, seat)
        assert list(legal) == table.rules.legal_commands(table.session.state, seat)
        assert command == legal[-1]
        table.move(seat)


class StateProbe:
    """A bot that tries to reach past its view: the view it gets is a plain
    dict, so there is no state object on it to read."""

    def choose(self, view, legal_commands, rng):
        assert isinstance(view, dict)
        assert not any(hasattr(view, name) for name in ("state", "route", "lind_at", "deck"))
        return legal_commands[0]


@pytest.mark.parametrize("kind", ["random", "heuristic"])
def test_coronation_bots_choose_the_same_whatever_lind_s_hidden_route_when_their_view_is_the_same(kind):
    """The leak proof for bots: two games whose detectives' views and legal
    commands are equal but whose Lind stands elsewhere give a detective bot
    the same choice, for every bot kind the game offers."""
    if kind not in bots.kinds("coronation"):
        pytest.skip(f"coronation has no {kind} bot")
    from dataclasses import replace

    table = started("coronation", {"detective_seats": 1})
    rng = random.Random(7)
    while not (table.session.state.phase == "detectives" and table.session.state.lind_at is not None
               and table.session.state.turn >= 2):
        table.move(rng=rng)
    state = table.session.state
    elsewhere = next(loc for loc in range(1, 93) if loc != state.lind_at and loc not in state.detective_locations)
    moved = replace(state, lind_at=elsewhere)
    rules, seat = table.rules, "detective-1"
    assert rules.view(moved, seat) == rules.view(state, seat)
    assert rules.legal_commands(moved, seat) == rules.legal_commands(state, seat)
    assert rules.view(moved, "lind") != rules.view(state, "lind")
    bot = bots.make("coronation", kind)
    for n in range(10):
        assert bots.decide_for(rules, state, seat, bot, random.Random(n)) == \
            bots.decide_for(rules, moved, seat, bot, random.Random(n))


def test_a_bot_choosing_an_illegal_command_is_an_error_not_a_move():
    table = started("cronberg", {"players": 2})

    class Cheat:
        def choose(self, view, legal_commands, rng):
            return "take every tile"

    with pytest.raises(ValueError, match="not a legal command"):
        bots.decide_for(table.rules, table.session.state, sorted(table.to_act)[0], Cheat(), random.Random(0))


def test_a_bot_s_randomness_comes_from_the_game_s_seed_seat_and_version():
    a = bots.bot_rng(b"seed", "p1", 5).random()
    assert a == bots.bot_rng(b"seed", "p1", 5).random()
    assert a not in (bots.bot_rng(b"seed", "p2", 5).random(), bots.bot_rng(b"seed", "p1", 6).random(),
                     bots.bot_rng(b"other", "p1", 5).random())


@pytest.mark.parametrize("game", GAMES)
def test_every_game_offers_a_random_bot_and_unknown_kinds_are_refused(game):
    assert "random" in bots.kinds(game)
    with pytest.raises(KeyError, match="no bot"):
        bots.make(game, "oracle")


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_heuristic_bot_that_plays_whole_games_with_legal_commands(game):
    assert bots.best_kind(game) == "heuristic"
    for seed in range(2):
        table = started(game, {"players": 3} if game != "coronation" else {"detective_seats": 2})
        players = {seat: bots.make(game, "heuristic" if n % 2 == 0 else "random")
                   for n, seat in enumerate(table.session.seats)}
        for step in range(20_000):
            if table.session.status != "active":
                break
            seat = sorted(table.to_act)[0]
            command = bots.decide_for(table.rules, table.session.state, seat, players[seat],
                                      bots.bot_rng(table.seed, seat, table.session.version))
            table.apply(sessions.play(table.rules, table.session, seat, command,
                                      rng_for(table.seed, table.session.version), table.seed))
        assert table.session.status == "scoring", f"{game} did not end"
