"""The rules catalogue: games, seats, options and command schemas, and the
games' data files (boards, cards, tiles) by the sha256 games record."""

from __future__ import annotations

import marshmallow as ma
from flask import Response, current_app, request
from flask.views import MethodView
from flask_smorest import Blueprint

from domain import games as registry
from domain.games import data_files
from domain.kit.names import KINDS
from domain.lifecycle import bots

from .. import game_schemas, option_names
from ..contract import declare
from ...service.errors import NotFound

blp = Blueprint("rules", __name__, url_prefix="/v1/rules", description="What games are hosted and how to play them")


class OptionSchema(ma.Schema):
    """An option a host may give when creating a game (CreateGame's options)."""

    name = ma.fields.String(required=True, metadata={"description": "the option's key in CreateGame's options"})
    kind = ma.fields.String(required=True, metadata={
        "enum": ["int", "bool", "choice"],
        "description": "its type: int (a whole number within minimum and maximum), bool (true or false), "
                       "choice (one of choices)"})
    default = ma.fields.Raw(allow_none=True, required=True, metadata={
        "description": "the value a game takes when the host gives none, of the option's kind; null for "
                       "an int option means none (its description says what that does)"})
    description = ma.fields.String(required=True, metadata={"description": "what the option does, for a host"})
    minimum = ma.fields.Integer(metadata={"description": "the smallest value allowed (int options with a bound)"})
    maximum = ma.fields.Integer(metadata={"description": "the largest value allowed (int options with a bound)"})
    choices = ma.fields.List(ma.fields.String(), metadata={"description": "the values allowed (choice options)"})
    deprecated = ma.fields.Boolean(metadata={"description": "an old name, still taken; use the one its description names"})


class RulesVersionSchema(ma.Schema):
    """One version of a game's rules that this server plays."""

    version = ma.fields.Integer(required=True, metadata={
        "description": "the rules version, from 1, as GameSummary.rules_version names it"})
    change = ma.fields.String(required=True, metadata={"description": "what this version changed"})


class ColourSchema(ma.Schema):
    """Where the data gives a named thing its colour."""

    field = ma.fields.String(required=True, metadata={
        "description": "the field of the thing's entry holding its colour (as CSS writes it, such as \"white\" or "
                       "\"#d1495b\"), or with table the id of the entry of table whose colour it is"})
    table = ma.fields.String(metadata={
        "description": "a list of the same file whose entries (matched by their id) give the colour in their "
                       "colour or color field, such as a game's nations"})
    data = ma.fields.String(metadata={
        "description": "with list: the file whose list holds the thing's entry with field (matched by the Names' "
                       "key), when that is not the Names' own list"})
    list = ma.fields.String(metadata={"description": "the key of that file whose entries those are"})


class NamesSchema(ma.Schema):
    """What a command field's value names (each value, for a list), and where a client finds it drawn."""

    kind = ma.fields.String(required=True, validate=ma.validate.OneOf(KINDS), metadata={
        "enum": list(KINDS), "description": "place (of the board: choose it by clicking it there), card (of the "
                                            "hand: choose it there), seat (a player) or piece"})
    what = ma.fields.String(required=True, metadata={"description": "what it is, in the game's words, such as "
                                                                    "\"triangle\" or \"plot card\""})
    data = ma.fields.String(metadata={"description": "the data file listing such things (GET /v1/rules/{game}/data/"
                                                     "{file}); absent for a thing the view alone gives (a seat)"})
    list = ma.fields.String(metadata={"description": "the key of that file whose entries they are"})
    key = ma.fields.String(required=True, metadata={"description": "the entry's field equal to the command's value"})
    label = ma.fields.String(required=True, metadata={"description": "the entry's field a person reads"})
    colour = ma.fields.Nested(ColourSchema, metadata={
        "description": "where the data gives the thing its colour; absent where it gives none (a client colours "
                       "it as it likes)"})


class HandSchema(ma.Schema):
    """Where a seat finds its own cards in its view."""

    field = ma.fields.String(required=True, metadata={
        "description": "the view's key holding the list of the seat's cards: dots for nesting, {seat} for the "
                       "viewer's own seat (as in \"players.{seat}.hand\")"})
    names = ma.fields.Nested(NamesSchema, required=True, metadata={"description": "what each card of it names"})


class BoardSchema(ma.Schema):
    """How a client draws the game's board."""

    kind = ma.fields.String(required=True, metadata={
        "description": "the kind of drawing, such as \"triangle-grid\" or \"numbered-map\": a client draws every "
                       "game of a kind it knows with the same code (the reference client's kinds are listed in "
                       "docs/game-authors.md); a kind it does not know, it shows as the seats"})
    data = ma.fields.String(metadata={"description": "the data file whose places the board draws and whose extent "
                                                     "(GET /v1/rules/{game}/data) frames it"})


class RulesSchema(ma.Schema):
    """A hosted game: its seats, its options and the commands its players send."""

    name = ma.fields.String(required=True, metadata={
        "description": "the game's API name: CreateGame's game, and the {game} of /v1/rules/{game}"})
    title = ma.fields.String(required=True, metadata={"description": "the game's name, for people"})
    ranking = ma.fields.String(required=True, metadata={
        "description": "how the final standings rank the seats and break ties, in a sentence for players (a "
                       "frontend says it beside equal scores and shared places)"})
    min_seats = ma.fields.Integer(required=True, metadata={"description": "the fewest seats a game of it has"})
    max_seats = ma.fields.Integer(required=True, metadata={"description": "the most seats a game of it has"})
    default_seats = ma.fields.List(ma.fields.String(), required=True, metadata={
        "description": "the seats of a game created with the default options, in the game's order"})
    options = ma.fields.List(ma.fields.Nested(OptionSchema), required=True, metadata={
        "description": "every option a host may give (bots aside): the game's own, then the engine's"})
    commands = ma.fields.List(ma.fields.String(), required=True, metadata={
        "description": "the types of the game's commands (a command's `type`), alphabetically"})
    rules_version = ma.fields.Integer(required=True, metadata={"description": "the version new games are created under"})
    rules_versions = ma.fields.List(
        ma.fields.Nested(RulesVersionSchema), required=True,
        metadata={"description": "every version this server plays; a game keeps the one it was created under"},
    )
    command_schemas = ma.fields.Dict(metadata={"description": "JSON schema of each command, by type"})
    field_names = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.Nested(NamesSchema), required=True, metadata={
        "description": "what each command field that names something names, as \"Type.field\" (each command "
                       "type's own): the same as that property's x-boardlog-names in the command's schema; a "
                       "field not listed is plain data"})
    hand = ma.fields.Nested(HandSchema, allow_none=True, required=True, metadata={
        "description": "where a seat's own cards are in its view (as the game's View schema's x-boardlog-hand); "
                       "null for a game without a hand"})
    board = ma.fields.Nested(BoardSchema, allow_none=True, required=True, metadata={
        "description": "how a client draws the board: its kind of drawing and data file; null for a game without "
                       "a board"})
    bots = ma.fields.List(ma.fields.String(), metadata={"description": "bot kinds for option bots ({seat: kind})"})


class CatalogueSchema(ma.Schema):
    """Every game this server hosts."""

    games = ma.fields.List(ma.fields.Nested(RulesSchema), required=True, metadata={
        "description": "each hosted game, by name (without command_schemas: GET /v1/rules/{game} has them)"})


TURN_SECONDS = option_names.TURN_SECONDS


def describe(rules, with_schemas: bool) -> dict:
    from domain.engine import resolve_options

    entry = rules.catalogue()
    entry["options"] = option_names.every_option(rules.name)
    entry["bots"] = list(bots.kinds(rules.name))
    entry["default_seats"] = list(rules.seats(resolve_options(rules.options, {})))
    entry["field_names"] = game_schemas.named_fields(rules)
    entry["hand"] = rules.hand.to_json() if rules.hand is not None else None
    entry["board"] = rules.board.to_json() if rules.board is not None else None
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
        return describe(_rules_or_404(game), True)


class DataExtentSchema(ma.Schema):
    """The rectangle every point of a data file lies in, in the file's units."""

    x_min = ma.fields.Float(required=True, metadata={"description": "the smallest x any point of the file may have"})
    y_min = ma.fields.Float(required=True, metadata={"description": "the smallest y (the top edge, y growing downwards)"})
    x_max = ma.fields.Float(required=True, metadata={"description": "the largest x (the board's width from x_min)"})
    y_max = ma.fields.Float(required=True, metadata={"description": "the largest y (the bottom edge)"})


class DataCoordinatesSchema(ma.Schema):
    """How to read the points (x, y) of a data file."""

    units = ma.fields.String(required=True, metadata={"description": "what one unit of x and y is"})
    x_axis = ma.fields.String(required=True, metadata={"description": "which way x grows"})
    y_axis = ma.fields.String(required=True, metadata={"description": "which way y grows (downwards on every board)"})
    origin = ma.fields.String(required=True, metadata={"description": "where x = 0, y = 0 is"})
    extent = ma.fields.Nested(DataExtentSchema, allow_none=True, required=True, metadata={
        "description": "the rectangle every point lies in: the board's size; null where positions are relative "
                       "to a centre rather than on a sheet"})
    where = ma.fields.String(required=True, metadata={"description": "which fields of the file hold points"})


class DataFileSchema(ma.Schema):
    """One data file of a game (a board, cards, tiles), which its games record by sha256."""

    name = ma.fields.String(required=True, metadata={"description": "the file's name, as GameCreated.data_files keys it"})
    sha256 = ma.fields.String(required=True, metadata={
        "description": "the sha256 of the file's bytes, in lowercase hex, as GameCreated.data_files records it: "
                       "GET /v1/rules/{game}/data/{sha256} serves exactly these bytes"})
    description = ma.fields.String(required=True, metadata={"description": "what the file holds, for a frontend author"})
    coordinates = ma.fields.Nested(DataCoordinatesSchema, allow_none=True, required=True, metadata={
        "description": "how to read the file's x, y; null for a file with no points"})
    rules_versions = ma.fields.List(ma.fields.Integer(), required=True, metadata={
        "description": "the installed rules versions that play with this very file"})
    size = ma.fields.Integer(required=True, metadata={"description": "the file's length in bytes"})
    url = ma.fields.String(required=True, metadata={"description": "where to fetch it (cacheable for ever)"})


class DataFilesSchema(ma.Schema):
    """A game's data files, for every installed rules version."""

    game = ma.fields.String(required=True, metadata={"description": "the game's API name"})
    files = ma.fields.List(ma.fields.Nested(DataFileSchema), required=True, metadata={
        "description": "every data file of every installed rules version, newest version's first"})


FOREVER = "public, max-age=31536000, immutable"
SHA256 = {"type": "string", "pattern": "^[0-9a-f]{64}$"}


def _rules_or_404(game: str):
    rules = registry.get(game)
    if rules is None:
        raise NotFound(f"no game called {game!r}; hosted games: {', '.join(sorted(registry.REGISTRY))}",
                       kind="unknown-game")
    return rules


def _listed(data_file) -> dict:
    return {**{key: getattr(data_file, key) for key in ("name", "sha256", "description", "rules_versions")},
            "coordinates": _plain(data_file.coordinates), "size": data_file.path.stat().st_size,
            "url": f"/v1/rules/{data_file.game}/data/{data_file.sha256}"}


def _plain(value):
    import dataclasses

    return dataclasses.asdict(value) if value is not None else None


@blp.route("/<game>/data")
class GameDataFiles(MethodView):
    @blp.doc(operationId="listGameData")
    @blp.response(200, DataFilesSchema)
    @declare(blp, "unknown-game")
    def get(self, game):
        """The game's data files (boards, cards, tiles): name, sha256, what each holds and how to read its coordinates."""
        _rules_or_404(game)
        return {"game": game, "files": [_listed(f) for f in data_files.of(game)]}


@blp.route("/<game>/data/<sha256>")
class GameDataFile(MethodView):
    @blp.doc(
        operationId="getGameData",
        parameters=[
            {"in": "path", "name": "sha256", "required": True, "schema": SHA256,
             "description": "the file's sha256, as a game's GameCreated.data_files records it"},
            {"in": "header", "name": "If-None-Match", "schema": {"type": "string"},
             "description": "the ETag you hold (the sha256 in quotes): 304, the file never changes"},
        ],
        responses={200: {
            "description": "the file's bytes exactly as hashed (JSON); Cache-Control: public, max-age=31536000, "
                           "immutable; ETag: the sha256 in quotes",
            "content": {"application/json": {"schema": {
                "type": "object", "additionalProperties": True,
                "description": "the data file; GET /v1/rules/{game}/data describes each one"}}},
            "headers": {"ETag": {"schema": {"type": "string"}, "description": "the sha256, quoted"},
                        "Cache-Control": {"schema": {"type": "string"}, "description": FOREVER}},
        }, 304: {"description": "you hold this file already (If-None-Match)"}},
    )
    @declare(blp, "unknown-game", "data-file-not-found")
    def get(self, game, sha256):
        """One data file by its sha256: the bytes a game that recorded it was played with."""
        _rules_or_404(game)
        found = data_files.find(game, sha256)
        content = found.read() if found is not None else None
        if content is None:
            there = data_files.of(game)
            raise NotFound(
                f"{game} has no data file with sha256 {sha256!r}; its files are "
                + ", ".join(f"{f.name} ({f.sha256})" for f in there)
                + " (GET /v1/rules/" + game + "/data)",
                kind="data-file-not-found", files=[{"name": f.name, "sha256": f.sha256} for f in there])
        headers = {"ETag": f'"{found.sha256}"', "Cache-Control": FOREVER}
        if request.if_none_match.contains_weak(found.sha256):  # If-None-Match compares weakly (RFC 9110); "*" too
            return Response(status=304, headers=headers)
        return Response(content, status=200, mimetype="application/json", headers=headers)
