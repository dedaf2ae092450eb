"""The rules catalogue: games, seats, options and command schemas."""

from __future__ import annotations

import marshmallow as ma
from flask import current_app
from flask.views import MethodView
from flask_smorest import Blueprint

from domain import games as registry
from domain.lifecycle import bots

from .. import game_schemas, option_names
from ..contract import declare
from ..service.errors import NotFound

blp = Blueprint("rules", __name__, url_prefix="/v1/rules", description="What games are hosted and how to play them")


class OptionSchema(ma.Schema):
    name = ma.fields.String(required=True)
    kind = ma.fields.String(required=True, metadata={"enum": ["int", "bool", "choice"]})
    default = ma.fields.Raw(allow_none=True, required=True)
    description = ma.fields.String(required=True)
    minimum = ma.fields.Integer()
    maximum = ma.fields.Integer()
    choices = ma.fields.List(ma.fields.String())
    deprecated = ma.fields.Boolean(metadata={"description": "an old name, still taken; use the one its description names"})


class RulesVersionSchema(ma.Schema):
    version = ma.fields.Integer(required=True)
    change = ma.fields.String(required=True, metadata={"description": "what this version changed"})


class RulesSchema(ma.Schema):
    name = ma.fields.String(required=True)
    title = ma.fields.String(required=True)
    min_seats = ma.fields.Integer(required=True)
    max_seats = ma.fields.Integer(required=True)
    default_seats = ma.fields.List(ma.fields.String(), required=True)
    options = ma.fields.List(ma.fields.Nested(OptionSchema), required=True)
    commands = ma.fields.List(ma.fields.String(), required=True)
    rules_version = ma.fields.Integer(required=True, metadata={"description": "the version new games are created under"})
    rules_versions = ma.fields.List(
        ma.fields.Nested(RulesVersionSchema), required=True,
        metadata={"description": "every version this server plays; a game keeps the one it was created under"},
    )
    command_schemas = ma.fields.Dict(metadata={"description": "JSON schema of each command, by type"})
    bots = ma.fields.List(ma.fields.String(), metadata={"description": "bot kinds for option bots ({seat: kind})"})


class CatalogueSchema(ma.Schema):
    games = ma.fields.List(ma.fields.Nested(RulesSchema), required=True)


TURN_SECONDS = option_names.TURN_SECONDS


def describe(rules, with_schemas: bool) -> dict:
    from domain.engine import resolve_options

    entry = rules.catalogue()
    entry["options"] = option_names.every_option(rules.name)
    entry["bots"] = list(bots.kinds(rules.name))
    entry["default_seats"] = list(rules.seats(resolve_options(rules.options, {})))
    if with_schemas:
        spec = current_app.extensions["boardlog"].api.spec.to_dict()
        schemas = spec.get("components", {}).get("schemas", {})
        entry["command_schemas"] = {
            name: schemas.get(schema.__name__, {}) for name, schema in game_schemas.command_schemas(rules.name).items()
        }
    return entry


@blp.route("")
class Catalogue(MethodView):
    @blp.doc(operationId="listRules")
    @blp.response(200, CatalogueSchema)
    def get(self):
        """Every hosted game."""
        return {"games": [describe(rules, False) for _, rules in sorted(registry.REGISTRY.items())]}


@blp.route("/<game>")
class GameRules(MethodView):
    @blp.doc(operationId="getRules")
    @blp.response(200, RulesSchema)
    @declare(blp, "unknown-game")
    def get(self, game):
        """One game: seats, options and the JSON schema of each command."""
        rules = registry.get(game)
        if rules is None:
            raise NotFound(f"no game called {game!r}; hosted games: {', '.join(sorted(registry.REGISTRY))}",
                           kind="unknown-game")
        return describe(rules, True)
