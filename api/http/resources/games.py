"""Games in the lobby and their public summaries."""

from __future__ import annotations

import marshmallow as ma
from flask import jsonify, url_for
from flask.views import MethodView
from flask_smorest import Blueprint

from domain import games as registry
from domain.engine import InvalidOption

from .. import access, option_names
from ..auth import BEARER, OPTIONAL_BEARER, current_player
from ..game_contract import ref
from ..http_conventions import next_page
from ..context import service
from ..contract import SHARED, declare
from ...service import readmodels
from ...service.errors import NotFound
from ...service.games import parse_game_id
from ...service.idempotency import replay_headers
from ...service.player_names import seats_named
from .keys import receipt_field
from ..contract import takes_idempotency_key
from ..idempotency import idempotency_key
from ..idempotency import idempotent

blp = Blueprint("games", __name__, url_prefix="/v1/games", description="Create, list, join, leave and start games")

MAX_OFFSET = 1_000_000
STATUSES = ("lobby", "active", "scoring", "finished", "cancelled")
# What a game's summary and a player's inbox say alike.
STATUS_TEXT = ("lobby (seats being taken), active (being played), scoring (over, standings being recorded), "
               "finished, or cancelled (ended with no result)")
TO_ACT_TEXT = "the seats whose command the game waits for; empty unless it is active"
OUTCOME_TEXT = ("the result in an English sentence once the game is over (or why it was aborted), its seats "
                "named by their players' names as in the view's envelope; null before")
UPDATED_TEXT = "when its last event was recorded (UTC)"


class CreateGameArgs(ma.Schema):
    """What POST /v1/games parses; the document shows the body as
    ``CreateGame`` (api/http/game_contract.py), one schema per game on ``game``,
    whose options are the game's own and the engine's."""

    game = ma.fields.String(required=True, validate=ma.validate.Length(1, 100))
    options = ma.fields.Dict(keys=ma.fields.String(), load_default=dict)
    seat = ma.fields.String(load_default=None, allow_none=True)


CREATE_GAME_BODY = {"required": True, "content": {"application/json": {"schema": ref("CreateGame")}}}


class JoinSchema(ma.Schema):
    """The seat to take in a game's lobby."""

    seat = ma.fields.String(load_default=None, allow_none=True, metadata={"description": "a free seat; the first free by default"})


class ContributionSchema(ma.Schema):
    """Your seat's contribution to the game's randomness (openapi/verifying-a-game.md, section 4.2)."""

    contribution = ma.fields.String(
        required=True,
        validate=[
            ma.validate.Length(2, 128, error="a contribution is 1 to 64 bytes: 2 to 128 hex digits"),
            ma.validate.Regexp(r"^(?:[0-9a-fA-F]{2})+$",
                               error="a contribution is written in hex, two digits a byte (0-9, a-f)"),
        ],
        metadata={"description": "1 to 64 bytes of your choice, in hex (recorded in lowercase); mixed with the "
                                 "server's committed seed into the key every draw of the game comes from",
                  "example": "5f3a9c0d2e7b41a8"},
    )


class SeatSchema(ma.Schema):
    """A taken seat and the player who holds it."""

    seat = ma.fields.String(required=True, metadata={"description": "the seat's name, one of the game's seats"})
    player = ma.fields.UUID(required=True, metadata={"description": "the id of the player who holds it"})
    name = ma.fields.String(required=True, metadata={"description": "that player's name, as registered"})


class GameSummarySchema(ma.Schema):
    """A game's public summary: who sits where, its status, who is to act and until when."""

    id = ma.fields.UUID(required=True, metadata={"description": "the game's id, as in /v1/games/{id}"})
    game = ma.fields.String(required=True, metadata={"description": "the game's API name (GET /v1/rules lists them)"})
    status = ma.fields.String(required=True, metadata={
        "enum": list(STATUSES), SHARED: "GameStatus", "description": STATUS_TEXT})
    host = ma.fields.UUID(required=True, metadata={
        "description": "the id of the player who hosts it (who may start it and invite); another seated player "
                       "when the host leaves the lobby"})
    options = ma.fields.Dict(required=True, metadata={
        "description": "every option the game was created with, defaults filled in, under their current names "
                       "(GET /v1/rules/{game} describes each)"})
    version = ma.fields.Integer(required=True, metadata={"description": "how many events the game has; the ETag of its views"})
    rules_version = ma.fields.Integer(
        required=True, metadata={"description": "the version of the game's rules it is played under, for ever "
                                                "(GET /v1/rules lists each game's versions)"})
    seats = ma.fields.List(ma.fields.Nested(SeatSchema), required=True,
                           metadata={"description": "the taken seats, each with the player who holds it"})
    free_seats = ma.fields.List(ma.fields.String(), required=True,
                                metadata={"description": "the seats nobody holds yet, in the game's order"})
    to_act = ma.fields.List(ma.fields.String(), required=True, metadata={"description": TO_ACT_TEXT})
    deadline = ma.fields.DateTime(allow_none=True, metadata={
        "description": "the next moment a seat to act times out (or an absent seat is back), UTC; null when no "
                       "clock runs (no turn_seconds or time bank, a paused game, nobody to act)"})
    outcome = ma.fields.String(allow_none=True, metadata={"description": OUTCOME_TEXT})
    bots = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.String(),
                          metadata={"description": "seats a bot plays, and its kind"})
    visibility = ma.fields.String(metadata={
        "enum": ["public", "private"],
        "description": "public: listed, anyone may join; private: shown to its players only, joined by invite code"})
    rematch = ma.fields.UUID(allow_none=True, metadata={"description": "this finished game's rematch, once asked for"})
    created_at = ma.fields.DateTime(required=True, metadata={"description": "when the game was created (UTC)"})
    updated_at = ma.fields.DateTime(required=True, metadata={
        "description": f"{UPDATED_TEXT}; GET /v1/games lists the latest first"})


class GameAnswerSchema(GameSummarySchema):
    """The answer of a lobby or lifecycle command: the summary, and the
    signed head of the version the command made."""

    receipt = receipt_field("the version this command made")


class GameListArgs(ma.Schema):
    game = ma.fields.String(validate=ma.validate.OneOf(sorted(registry.REGISTRY)) if registry.REGISTRY else None)
    status = ma.fields.String(validate=ma.validate.OneOf(STATUSES))
    player = ma.fields.UUID()
    limit = ma.fields.Integer(load_default=50, validate=ma.validate.Range(1, 200))
    offset = ma.fields.Integer(load_default=0, validate=ma.validate.Range(0, MAX_OFFSET))


class GameListSchema(ma.Schema):
    """A page of the games you may see; a Link header names the next page."""

    games = ma.fields.List(ma.fields.Nested(GameSummarySchema), required=True,
                           metadata={"description": "this page of the games listed, most recently moved first"})
    total = ma.fields.Integer(required=True, metadata={
        "description": f"how many games the query lists in all pages, counted up to {readmodels.TOTAL_CAP:,}: "
                       f"{readmodels.TOTAL_CAP:,} means that many or more (see total_capped)"})
    total_capped = ma.fields.Boolean(required=True, metadata={
        "description": f"true when the count stopped at {readmodels.TOTAL_CAP:,}: there may be more games"})


def _answer(gid, session) -> dict:
    """The summary after a lobby command, with the receipt of the version it made."""
    return {**summary(gid), "receipt": service().heads.receipt_for(gid, session)}


def summary(game_id) -> dict:
    with service().pool.connection() as conn:
        return summary_on(conn, game_id)


def summary_on(conn, game_id) -> dict:
    """The summary as ``conn`` sees it (in a transaction: with what it wrote)."""
    row = readmodels.game_summary(conn, game_id)
    if row is None:
        raise NotFound(f"no game {game_id}")
    return _shaped(row)


def summary_json(conn, game_id) -> dict:
    """The summary as answered, JSON-ready: what an Idempotency-Key stores."""
    return GameSummarySchema().dump(summary_on(conn, game_id))


def new_game_json(conn, game_id) -> dict:
    """A new game's answer, JSON-ready: its summary and the receipt of its
    first version (new games' heads hide, api/service/receipts.py)."""
    answer = summary_json(conn, game_id)
    return {**answer, "receipt": service().heads.receipt(game_id, answer["version"])}


def answered(body: dict, status: int, headers: dict | None = None):
    """``body`` is already shaped by its schema (the first answer and its
    replays alike), so it goes out as it is."""
    return jsonify(body), status, {**replay_headers(body), **(headers or {})}


def _shaped(row: dict) -> dict:
    """A summary row with every seat accounted for and the options' current names.
    A game of rules this installation no longer hosts is shown as stored, with
    no seat to offer: one such game must not break every listing it is on."""
    taken = {seat["seat"] for seat in row["seats"]}
    rules = registry.REGISTRY.get(row["game"])
    every = rules.seats(row["options"]) if rules is not None else ()
    outcome = row["outcome"] and seats_named(
        {seat["seat"]: seat["name"] for seat in row["seats"]}, row["bots"] or {}).say(row["outcome"])
    return {**row, "options": option_names.outgoing(row["game"], row["options"]), "outcome": outcome,
            "free_seats": [seat for seat in every if seat not in taken]}


@blp.route("")
class Games(MethodView):
    @blp.doc(security=BEARER, operationId="createGame", requestBody=CREATE_GAME_BODY,
             **takes_idempotency_key())
    @blp.arguments(CreateGameArgs)
    @blp.response(201, GameAnswerSchema)
    @declare(blp, "unknown-game", "invalid-option", "lobby-refused", "idempotency-key-reused")
    def post(self, body):
        """Create a game in its lobby; the host takes a seat. Its options are
        the game's own and the engine's (the game's `{Game}Options`); one
        that is unknown, of the wrong type or out of bounds is an
        `invalid-option` problem naming it in `option`. With an
        Idempotency-Key, a repeat of the same body answers the game the
        first request created (one game, whatever the retries); the same
        key with another body is a 422 `idempotency-key-reused`."""
        player = current_player()
        try:
            options = option_names.incoming(body["game"], body["options"])
            answer = service().create_once(player, body, options, idempotency_key(), new_game_json)
        except InvalidOption as error:
            raise option_names.refused(body["game"], error) from None
        return answered(answer, 201, {"Location": url_for("games.Game", game_id=answer["id"])})

    @blp.doc(operationId="listGames")
    @blp.arguments(GameListArgs, location="query")
    @blp.response(200, GameListSchema)
    def get(self, args):
        """List public games (and the private ones you sit in), newest activity first; filter by game, status or player."""
        viewer = current_player(required=False)
        query = (args.get("game"), args.get("status"), args.get("player"))
        with service().pool.connection() as conn:
            rows = readmodels.list_games(conn, *query, args["limit"] + 1, args["offset"], viewer)
            total = readmodels.count_games(conn, *query, viewer)
        more, rows = len(rows) > args["limit"], rows[: args["limit"]]
        following = args["offset"] + args["limit"]
        headers = next_page(args, offset=following) if more and following <= MAX_OFFSET else {}
        return ({"games": [_shaped(row) for row in rows], "total": total,
                 "total_capped": total >= readmodels.TOTAL_CAP}, 200, headers)


@blp.route("/<game_id>")
class Game(MethodView):
    @blp.doc(operationId="getGame", security=OPTIONAL_BEARER)
    @blp.response(200, GameSummarySchema)
    def get(self, game_id):
        """A game's summary: seats, status, version, who is to act, deadline (a private game: its players only)."""
        gid = parse_game_id(game_id)
        answer = summary(gid)
        access.check_summary(answer, gid, current_player(required=False))
        return answer


@blp.route("/<game_id>/join")
class Join(MethodView):
    @idempotent
    @blp.doc(security=BEARER, operationId="joinGame")
    @blp.arguments(JoinSchema)
    @blp.response(200, GameAnswerSchema)
    @declare(blp, "lobby-refused", "not-permitted")
    def post(self, body, game_id):
        """Take a seat in a game's lobby."""
        gid = parse_game_id(game_id)
        player = current_player()
        access.check_cheaply(gid, player)  # a private game is no game to those not invited
        return _answer(gid, service().join(gid, player, body["seat"]))


@blp.route("/<game_id>/leave")
class Leave(MethodView):
    @idempotent
    @blp.doc(security=BEARER, operationId="leaveGame")
    @blp.response(200, GameAnswerSchema)
    @declare(blp, "lobby-refused", "not-seated")
    def post(self, game_id):
        """Give up your seat while the game is in its lobby."""
        gid = parse_game_id(game_id)
        player = current_player()
        access.check_cheaply(gid, player)
        return _answer(gid, service().leave(gid, player))


@blp.route("/<game_id>/start")
class Start(MethodView):
    @idempotent
    @blp.doc(security=BEARER, operationId="startGame")
    @blp.response(200, GameAnswerSchema)
    @declare(blp, "lobby-refused", "not-seated")
    def post(self, game_id):
        """Start the game (host only, every seat taken): deals and shuffles are recorded."""
        gid = parse_game_id(game_id)
        player = current_player()
        access.check_cheaply(gid, player)
        return _answer(gid, service().start(gid, player))


@blp.route("/<game_id>/contribution")
class Contribution(MethodView):
    @blp.doc(security=BEARER, operationId="contributeRandomness")
    @blp.arguments(ContributionSchema)
    @blp.response(200, GameAnswerSchema)
    @declare(blp, "lobby-refused", "seat-required", "contribution-made")
    def put(self, body, game_id):
        """Contribute to the game's randomness, in the lobby, once per seat
        (sending the same contribution again changes nothing): the server's
        committed seed alone then no longer decides any draw
        (openapi/verifying-a-game.md, section 4.2). Optional: a game whose
        players send nothing plays as before."""
        gid = parse_game_id(game_id)
        player = current_player()
        access.check_cheaply(gid, player)
        return _answer(gid, service().seat_life.contribute(gid, player, body["contribution"]))
