"""Every answer of a whole game, of each game, is an instance of the schema
the document gives its operation: views, legal commands, command results and
the feed, checked with a JSON Schema validator against the served document."""

from __future__ import annotations

import random
import uuid

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry

from api.http.game_schemas import camel
from domain import games
from tests.api.conftest import Player, started_game
from tests.games.conformance.playouts import short_options

DOCUMENT = "urn:boardlog-openapi"


class Contract:
    def __init__(self, spec: dict):
        self.spec = spec
        self.registry = Registry().with_resource(DOCUMENT, _resource(spec))
        self.validators: dict[str, Draft202012Validator] = {}

    def check(self, component: str, instance) -> None:
        if component not in self.validators:
            schema = {"$ref": f"{DOCUMENT}#/components/schemas/{component}"}
            self.validators[component] = Draft202012Validator(schema, registry=self.registry)
        validator = self.validators[component]
        errors = [_deepest(error) for error in validator.iter_errors(instance)]
        assert not errors, f"{component}: " + "; ".join(
            f"{list(e.absolute_path)}: {e.message[:300]}" for e in errors[:5])


def _deepest(error):
    """The innermost cause of a failed anyOf/oneOf, which names the field."""
    while error.context:
        error = max(error.context, key=lambda e: len(e.absolute_path))
    return error


def _resource(spec):
    from referencing.jsonschema import DRAFT202012

    return DRAFT202012.create_resource(spec)


@pytest.fixture(scope="module")
def contract(app):
    return Contract(app.test_client().get("/v1/openapi.json").json)


@pytest.mark.parametrize("name", sorted(games.REGISTRY))
def test_every_answer_of_a_whole_game_matches_the_documented_schemas(client, service, contract, name):
    # Every registered game at its fewest seats, with the options of its shortest golden game (no table to add a game to).
    count = games.REGISTRY[name].min_seats
    options = short_options(games.REGISTRY[name])
    players = [Player(client, f"typed-{name}-{n}") for n in range(count)]
    game_id = started_game(players, name, options)
    prefix = camel(name)
    _played_checking(contract, players, game_id, prefix, random.Random(name))
    _scored_checking(client, service, contract, players[0], game_id, prefix)


@pytest.mark.parametrize("name", sorted(games.REGISTRY))
def test_the_standings_of_a_game_with_a_resigned_seat_match_the_game_s_standing_schema(client, service, contract, name):
    count = games.REGISTRY[name].min_seats
    players = [Player(client, f"resigning-{name}-{n}") for n in range(count)]
    game_id = started_game(players, name, short_options(games.REGISTRY[name]))
    assert players[0].post(f"/v1/games/{game_id}/resign").status_code == 200
    prefix = camel(name)
    _played_checking(contract, players[1:], game_id, prefix, random.Random(name),
                     bots=lambda version: service.bots.play_bots(uuid.UUID(game_id), version))
    standings = _scored_checking(client, service, contract, players[1], game_id, prefix)
    assert {"resigned": True} in [standing["detail"] for standing in standings]


def _played_checking(contract, players, game_id, prefix, rng, bots=None) -> None:
    """Random legal commands until the game is over, every answer checked;
    ``bots(version)``: the bots' turn, as a worker plays it, when no player is to act."""
    for _ in range(20_000):
        moved = False
        for player in players:
            view = player.view(game_id).json
            contract.check(f"{prefix}ViewResponse", view)
            if view["status"] != "active":
                return
            if view["seat"] in view["to_act"]:
                legal = player.get(f"/v1/games/{game_id}/legal-commands").json
                contract.check(f"{prefix}LegalCommandsResponse", legal)
                answer = player.act(game_id, rng.choice(legal["commands"]))
                assert answer.status_code == 200, answer.json
                contract.check(f"{prefix}CommandResponse", answer.json)
                moved = True
        if not moved and bots is not None:
            moved = bots(view["version"])
        assert moved, f"nobody moved at version {view['version']}: {view['to_act']} to act"


def _scored_checking(client, service, contract, player, game_id, prefix) -> list:
    """The game scored, then its view (typed standings) and feed (typed GameScored), to a seat and to a spectator."""
    service.score(uuid.UUID(game_id))
    spectator = client.get(f"/v1/games/{game_id}/view").json
    contract.check(f"{prefix}ViewResponse", spectator)
    contract.check("ViewResponse", spectator)  # the union the operation answers, told apart by game
    assert spectator["status"] == "finished" and spectator["standings"]
    types = []
    for reader in [player, None]:
        after = 0
        while True:
            page = (reader.get if reader else client.get)(f"/v1/games/{game_id}/events?after={after}&limit=1000").json
            contract.check(f"{prefix}FeedResponse", page)
            if not page["events"]:
                break
            types += [event["type"] for event in page["events"]]
            after = page["next_after"]
    assert "GameScored" in types
    return spectator["standings"]
