"""Options typed per game: each game's `{Game}Options` schema holds its own
options and the engine's, each typed and bounded, and no option the server
records itself; `CreateGame` is a union on `game`; a refused option is an
`invalid-option` problem naming it and listing every option the game takes."""

from __future__ import annotations

import pytest

from api.http import option_names
from api.processes.openapi_doc import document
from domain import games as registry
from domain.lifecycle.standings import OUTCOME_FOLLOWS_STANDINGS

ENGINE_OPTIONS = {"turn_seconds", "visibility", "abandon_after", "bots", "time_bank_seconds",
                  "time_increment_seconds", "time_cap_seconds", "deadline_per_seat", "absences", "takebacks",
                  "spectators_read_table"}
INVALID_OPTION = "https://boardlog.dev/problems/invalid-option"


def camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("-"))


@pytest.fixture(scope="module")
def schemas():
    return document()["components"]["schemas"]


@pytest.mark.parametrize("game", sorted(registry.REGISTRY))
def test_each_games_options_schema_holds_its_own_options_and_the_engines_and_nothing_else(schemas, game):
    options = schemas[f"{camel(game)}Options"]
    own = {entry["name"] for entry in option_names.catalogue(game, registry.REGISTRY[game].catalogue()["options"])}
    assert set(options["properties"]) == own | ENGINE_OPTIONS
    assert OUTCOME_FOLLOWS_STANDINGS not in options["properties"]
    assert options["additionalProperties"] is False
    for name, schema in options["properties"].items():
        assert schema.get("description"), name
        assert "type" in schema or "anyOf" in schema, name
        kinds = schema.get("type") or [part.get("type") for part in schema["anyOf"]]
        if "integer" in kinds:
            assert "minimum" in schema and "maximum" in schema, name


def test_the_engines_options_carry_their_bounds(schemas):
    options = schemas["CronbergOptions"]["properties"]
    assert (options["time_bank_seconds"]["minimum"], options["time_bank_seconds"]["maximum"]) == (60, 90 * 86400)
    assert (options["abandon_after"]["minimum"], options["abandon_after"]["maximum"]) == (0, 100)
    assert options["deadline_per_seat"]["type"] == "boolean"
    assert "private" in str(options["visibility"])
    assert options["bots"]["additionalProperties"]["enum"][0] == "random"


def test_creating_a_game_is_a_union_on_the_game_each_with_its_own_options(schemas):
    union = schemas["CreateGame"]
    assert union["discriminator"]["propertyName"] == "game"
    for game in registry.REGISTRY:
        member = f"#/components/schemas/{camel(game)}CreateGame"
        assert union["discriminator"]["mapping"][game] == member and {"$ref": member} in union["oneOf"]
        schema = schemas[f"{camel(game)}CreateGame"]
        assert schema["properties"]["game"]["enum"] == [game]
        assert schema["properties"]["options"]["$ref"] == f"#/components/schemas/{camel(game)}Options"
        assert schema["additionalProperties"] is False


def test_create_game_takes_the_create_game_union_as_its_body():
    body = document()["paths"]["/v1/games"]["post"]["requestBody"]
    assert body["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/CreateGame"}


def _refused(player, game, options):
    response = player.post("/v1/games", json={"game": game, "options": options})
    assert response.status_code == 422, response.json
    assert response.json["type"] == INVALID_OPTION and response.json["title"] == "Invalid option"
    return response.json


def test_a_misspelled_option_is_an_invalid_option_naming_it_and_every_option_the_game_takes(players):
    (ada,) = players(1)
    problem = _refused(ada, "cronberg", {"player": 2})
    assert problem["option"] == "player"
    for name in ["players", "rounds", *ENGINE_OPTIONS]:
        assert name in problem["detail"], name
    assert OUTCOME_FOLLOWS_STANDINGS not in problem["detail"]


def test_a_value_out_of_bounds_or_of_the_wrong_type_is_an_invalid_option_with_its_path(players):
    (ada,) = players(1)
    assert _refused(ada, "cronberg", {"players": 9})["option"] == "players"
    assert _refused(ada, "cronberg", {"players": "two"})["option"] == "players"
    assert _refused(ada, "cronberg", {"rounds": 0})["option"] == "rounds"
    assert _refused(ada, "cronberg", {"turn_seconds": 0})["option"] == "turn_seconds"
    assert _refused(ada, "cronberg", {"visibility": "secret"})["option"] == "visibility"
    assert _refused(ada, "cronberg", {"abandon_after": -1})["option"] == "abandon_after"
    assert _refused(ada, "cronberg", {"time_bank_seconds": 10})["option"] == "time_bank_seconds"
    assert _refused(ada, "cronberg", {"time_increment_seconds": 5})["option"] == "time_increment_seconds"
    assert _refused(ada, "cronberg", {"time_bank_seconds": 600, "time_cap_seconds": 300})["option"] == "time_cap_seconds"
    assert _refused(ada, "cronberg", {"deadline_per_seat": "yes"})["option"] == "deadline_per_seat"
    assert _refused(ada, "coronation", {"players": 7})["option"] == "players"


def test_a_refused_bot_names_its_seat_in_the_path(players):
    (ada,) = players(1)
    problem = _refused(ada, "cronberg", {"players": 2, "bots": {"p9": "random"}})
    assert problem["option"] == "bots.p9" and "bots" in problem["detail"]
    assert _refused(ada, "cronberg", {"players": 2, "bots": {"p2": "genius"}})["option"] == "bots.p2"
    assert _refused(ada, "cronberg", {"players": 2, "bots": {"p1": "random"}})["option"] == "bots.p1"
    assert _refused(ada, "cronberg", {"bots": ["p2"]})["option"] == "bots"


def test_a_games_own_refusal_of_its_options_is_an_invalid_option(players):
    (ada,) = players(1)
    problem = _refused(ada, "court-of-miracles", {"players": 2, "first_player": 4})
    assert problem["option"] == "first_player"


def test_an_option_refusal_is_declared_for_creating_a_game():
    responses = document()["paths"]["/v1/games"]["post"]["responses"]
    assert INVALID_OPTION in responses["422"]["x-problem-types"]
