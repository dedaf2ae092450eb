"""Whole games through HTTP: players register, create, join, start, and play
by polling their views and picking from their legal commands until the
standings appear."""

from __future__ import annotations

import random

import pytest

from api.http.app import create_app
from api.audit.offline_audit import audit_lines
from api.service.games import GameService
from domain import games
from domain.engine import resolve_options
from tests.api.conftest import Player, play_until_over, started_game
from workers.runner import make_worker
from api.service.scheduling import RQScheduler
from tests.support.seeds import TEST_SEEDS


@pytest.fixture
def scored_app(event_store, redis):
    """The API with the real scheduler: ended games are scored by an RQ worker."""
    return create_app({"RATE_LIMIT_PER_MINUTE": 0}, service=GameService(event_store, RQScheduler(redis), seeds=TEST_SEEDS), redis=redis)


@pytest.fixture
def worker_env(monkeypatch, database_url, redis_url):
    """The job functions find the test's servers in the environment."""
    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("REDIS_URL", redis_url)


@pytest.fixture
def table(scored_app):
    client = scored_app.test_client()
    return lambda count: [Player(client, f"whole-{n}") for n in range(1, count + 1)]


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


def play_whole_game(table, redis, database_url, name, seats, seed):
    players = table(seats)
    game_id = started_game(players, name, options_for(name, seats))
    play_until_over(players, game_id, random.Random(seed), max_steps=20_000)
    assert players[0].view(game_id).json["status"] == "scoring"
    make_worker(redis, database_url, in_process=True).work(burst=True)
    final = players[0].view(game_id).json
    assert final["status"] == "finished" and final["outcome"]
    rules = games.REGISTRY[name]
    assert {s["seat"] for s in final["standings"]} == set(rules.seats(resolve_options(rules.options, options_for(name, seats))))
    # Played under the newest rules version, and verified under it, online and offline.
    assert final["rules_version"] == rules.version
    audit = players[0].get(f"/v1/games/{game_id}/audit").json
    assert audit["chain"]["ok"] and audit["rerun"]["ok"], audit["rerun"]
    ok, report = audit_lines(players[0].get(f"/v1/games/{game_id}/export").get_data(as_text=True).splitlines())
    assert ok and f"rules: {name} version {rules.version}" in "\n".join(report), report
    return game_id, final


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_whole_game_of_cronberg_is_played_over_http_and_scored_by_the_worker(table, redis, database_url, worker_env, seats):
    _, final = play_whole_game(table, redis, database_url, "cronberg", seats, seed=seats)
    assert len(final["standings"]) == seats


@pytest.mark.parametrize("name", sorted(set(games.REGISTRY) - {"cronberg"}))
def test_a_whole_game_with_three_seats_is_played_over_http_and_scored_by_the_worker(
    table, redis, database_url, worker_env, name
):
    play_whole_game(table, redis, database_url, name, 3, seed=7)
