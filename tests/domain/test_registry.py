import pytest

from domain import games
from domain.engine import resolve_options
from domain.session import ENGINE_EVENT_TYPES


@pytest.mark.parametrize("name", sorted(games.REGISTRY))
def test_no_game_reuses_a_name_of_the_engines_events(name):
    rules = games.REGISTRY[name]
    clashes = ENGINE_EVENT_TYPES & (set(rules.event_codec.classes) | set(rules.command_codec.classes))
    assert not clashes


@pytest.mark.parametrize("name", sorted(games.REGISTRY))
def test_every_game_declares_its_catalogue_and_default_seats(name):
    rules = games.REGISTRY[name]
    assert rules.name == name and rules.title
    seats = rules.seats(resolve_options(rules.options, {}))
    assert rules.min_seats <= len(seats) <= rules.max_seats
    assert len(set(seats)) == len(seats)


def test_the_registry_hosts_the_games_by_api_name():
    assert "cronberg" in games.REGISTRY
    assert games.get("chess") is None
