"""Bots decide from their seat's view and legal commands only, with
randomness from the game's seed."""

from __future__ import annotations

import random

import pytest

from domain import games as registry
from tests.support.hosted import short
from domain import session as sessions
from domain.engine import rng_for
from domain.lifecycle import bots

from .support import started

GAMES = sorted(registry.REGISTRY)


def _up_to_three(game: str) -> int:
    """Three seats, so that a bot plays beside two others, or all a smaller game has."""
    return min(3, registry.REGISTRY[game].max_seats)


class Spy:
    """Records what it is handed, and reads nothing else."""

    def __init__(self):
        self.calls = []

    def choose(self, view, legal_commands, rng):
        self.calls.append((view, legal_commands))
        return legal_commands[-1]


@pytest.mark.parametrize("game", GAMES)
def test_a_bot_is_handed_exactly_its_seat_s_view_and_legal_commands(game):
    table = started(game, short(game, _up_to_three(game)))
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
        table = started(game, short(game, _up_to_three(game)))
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


@pytest.mark.parametrize("kind", ["random", "heuristic"])
def test_the_coil_bots_choose_the_same_when_everything_their_seat_may_not_know_is_drawn_again(kind):
    """The games' own leak tests re-randomise what a seat may not know; where
    the seat's view and legal commands stay the same, so does its bot's choice."""
    from tests.games.the_coil.test_views_and_leaks import RULES, _positions, _rerandomise

    bot, compared = bots.make("the-coil", kind), 0
    for state, _ in _positions(3, seed=4, every=5):
        for seat in sorted(RULES.to_act(state)):
            other = _rerandomise(state, seat, random.Random(compared))
            if RULES.view(other, seat) != RULES.view(state, seat) or \
                    RULES.legal_commands(other, seat) != RULES.legal_commands(state, seat):
                continue  # pragma: no cover (the leak test proves they are equal)
            compared += 1
            assert bots.decide_for(RULES, state, seat, bot, random.Random(seat)) == \
                bots.decide_for(RULES, other, seat, bot, random.Random(seat))
    assert compared > 5


@pytest.mark.parametrize("kind", ["random", "heuristic"])
def test_coronation_detective_bots_choose_the_same_whatever_lind_s_hidden_route(kind):
    from tests.games.coronation.test_leak import _rerandomised_state

    table = started("coronation", {"detective_seats": 2})
    rules, bot, rng, compared = table.rules, bots.make("coronation", kind), random.Random(3), 0
    while table.session.status == "active" and compared < 30:
        state = table.session.state
        for seat in sorted(s for s in table.to_act if s != "lind"):
            other = _rerandomised_state(state, random.Random(compared))
            if rules.view(other, seat) != rules.view(state, seat):
                continue  # pragma: no cover
            compared += 1
            assert bots.decide_for(rules, state, seat, bot, random.Random(compared)) == \
                bots.decide_for(rules, other, seat, bot, random.Random(compared))
        table.move(rng=rng)
    assert compared >= 10
