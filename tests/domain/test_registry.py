import dataclasses
from dataclasses import dataclass

import pytest

from domain import games
from domain.engine import Event, resolve_options
from domain.games.cronberg import RULES as cronberg
from domain.games.example import RULES as example
from domain.kit.shape import Bool, Int, Obj, Str


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


# Bad input: the registry names the game and what is wrong with it.

def registering(*candidates):
    with pytest.raises(games.RegistryError) as refused:
        games.registered(candidates)
    return str(refused.value)


def test_a_game_registered_twice_is_refused():
    message = registering(cronberg, cronberg)
    assert "cronberg is registered twice" in message


def test_two_games_of_one_name_are_refused():
    message = registering(cronberg, dataclasses.replace(cronberg, title="Another Cronberg"))
    assert "cronberg is the name of two different games" in message


def test_two_names_the_api_cannot_tell_apart_are_refused():
    message = registering(dataclasses.replace(cronberg, name="city-walls"), dataclasses.replace(cronberg, name="city_walls"))
    assert "city_walls and city-walls clash" in message and "CityWalls" in message


@pytest.mark.parametrize("declaration", games.DECLARED)
def test_a_game_missing_a_declared_property_is_refused_by_name(declaration):
    message = registering(dataclasses.replace(cronberg, **{declaration: None}))
    assert message.startswith(f"cronberg does not declare {declaration}:")


def test_a_game_without_bots_is_refused():
    assert registering(dataclasses.replace(cronberg, bots={})).startswith("cronberg does not declare bots")


def test_a_view_declaration_whose_top_object_is_not_the_view_is_refused():
    player = cronberg.view_shape.fields["players"].item
    message = registering(dataclasses.replace(cronberg, view_shape=player))
    assert message.startswith("cronberg's view declaration is an Obj named 'Player', not the view")
    assert "not the view" in registering(dataclasses.replace(cronberg, view_shape=Str("a view")))


def test_a_standing_detail_that_is_not_the_game_s_own_detail_is_refused():
    message = registering(dataclasses.replace(cronberg, standing_detail=cronberg.view_shape))
    assert message.startswith("cronberg's standing detail declaration is an Obj named 'View', not Obj(\"StandingDetail\"")
    engine_s = Obj("StandingDetail", "a detail", {"resigned": Bool("resigned"), "walls": Int("walls built")})
    message = registering(dataclasses.replace(cronberg, standing_detail=engine_s))
    assert message.startswith("cronberg's standing detail declares resigned, which the engine adds")


def test_a_game_whose_message_takes_an_engine_event_s_name_is_refused():
    @dataclass(frozen=True)
    class GameOver(Event):
        winner: str

    message = registering(dataclasses.replace(cronberg, events=(*cronberg.events, GameOver)))
    assert message.startswith("cronberg names a message GameOver, which is an engine event's name")


def test_the_example_game_would_be_accepted_but_is_not_hosted():
    assert games.registered([cronberg, example])["example"] is example
    assert "example" not in games.REGISTRY


def test_the_registry_refuses_what_is_not_a_kit_game_naming_it():
    import types

    from domain.games import RegistryError, registered

    with pytest.raises(RegistryError, match="old-style is a SimpleNamespace, not a domain.kit.Game"):
        registered([types.SimpleNamespace(name="old-style")])
