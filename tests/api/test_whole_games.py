"""Whole games through HTTP: players register, create, join, start, and play
by polling their views and picking from their legal commands until the
standings appear."""

from __future__ import annotations

import random
import uuid

import pytest

from domain import games
from domain.engine import resolve_options
from tests.api.conftest import play_until_over, started_game


def options_for(name: str, seats: int) -> dict:
    """Options that give the game this many seats (the count option differs by game)."""
    rules = games.REGISTRY[name]
    if len(rules.seats(resolve_options(rules.options, {}))) == seats:
        return {}
    for option in rules.options:
        if option.kind != "int" or option.minimum is None or option.maximum is None:
            continue
        for value in range(option.minimum, min(option.maximum, 10) + 1):
            try:
                if len(rules.seats(resolve_options(rules.options, {option.name: value}))) == seats:
                    return {option.name: value}
            except Exception:
                continue
    pytest.skip(f"{name} cannot seat {seats}")


def play_whole_game(players, service, name, seats, seed):
    table = players(seats)
    game_id = started_game(table, name, options_for(name, seats))
    play_until_over(table, game_id, random.Random(seed), max_steps=20_000)
    assert table[0].view(game_id).json["status"] == "scoring"
    service.score(uuid.UUID(game_id))
    final = table[0].view(game_id).json
    assert final["status"] == "finished" and final["outcome"]
    rules = games.REGISTRY[name]
    assert {s["seat"] for s in final["standings"]} == set(rules.seats(resolve_options(rules.options, options_for(name, seats))))
    return game_id, final


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_whole_game_of_cronberg_is_played_over_http(players, service, seats):
    _, final = play_whole_game(players, service, "cronberg", seats, seed=seats)
    assert len(final["standings"]) == seats


@pytest.mark.parametrize("name", sorted(set(games.REGISTRY) - {"cronberg"}))
def test_a_whole_game_with_three_seats_is_played_over_http(players, service, name):
    play_whole_game(players, service, name, 3, seed=7)
