"""Every answer of a whole game, of each game, is an instance of the schema
the document gives its operation: views, legal commands, command results and
the feed, checked with a JSON Schema validator against the served document."""

from __future__ import annotations

import random

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry

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
def test_every_answer_of_a_whole_game_matches_the_documented_schemas(client, contract, name):
    # Every registered game at its fewest seats, with the options of its shortest golden game (no table to add a game to).
    count = games.REGISTRY[name].min_seats
    options = short_options(games.REGISTRY[name])
    players = [Player(client, f"typed-{name}-{n}") for n in range(count)]
    game_id = started_game(players, name, options)
    rng = random.Random(name)
    prefix = "".join(part.capitalize() for part in name.split("-"))
    for _ in range(20_000):
        moved = False
        for player in players:
            view = player.view(game_id).json
            contract.check(f"{prefix}ViewResponse", view)
            if view["status"] != "active":
                break
            if view["seat"] in view["to_act"]:
                legal = player.get(f"/v1/games/{game_id}/legal-commands").json
                contract.check(f"{prefix}LegalCommandsResponse", legal)
                answer = player.act(game_id, rng.choice(legal["commands"]))
                assert answer.status_code == 200, answer.json
                contract.check(f"{prefix}CommandResponse", answer.json)
                moved = True
        else:
            assert moved
            continue
        break
    spectator = client.get(f"/v1/games/{game_id}/view").json
    contract.check(f"{prefix}ViewResponse", spectator)
    contract.check("ViewResponse", spectator)  # the union the operation answers, told apart by game
    for player in [players[0], None]:
        after = 0
        while True:
            page = (player.get if player else client.get)(f"/v1/games/{game_id}/events?after={after}&limit=1000").json
            contract.check(f"{prefix}FeedResponse", page)
            if not page["events"]:
                break
            after = page["next_after"]
