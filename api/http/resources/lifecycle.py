"""A seat's life in a running game: resign, abort, invites (a private
lobby's seats, or a replacement for a seat a bot plays) and rematches."""

from __future__ import annotations

import marshmallow as ma
from flask import url_for
from flask.views import MethodView
from flask_smorest import Blueprint

from .. import access
from ..auth import BEARER, current_player
from ..context import service
from ..contract import declare
from ...service.games import parse_game_id
from ...service.idempotency import replay_headers
from .games import GameAnswerSchema, answered, summary_json
from ..contract import takes_idempotency_key
from ..idempotency import idempotency_key

blp = Blueprint("lifecycle", __name__, url_prefix="/v1/games",
                description="Resign, abort, invite a player or a replacement, ask for a rematch")

class InviteRequestSchema(ma.Schema):
    """The seat an invite code opens."""

    seat = ma.fields.String(
        load_default=None, allow_none=True,
        metadata={"description": "in the lobby, the seat the invitee takes (any free seat when absent); in a running "
                                 "game, the seat a bot plays that the invitee takes over (required)"},
    )


class InviteSchema(ma.Schema):
    """A single-use invite code: give it to the player you invite, who redeems it."""

    game_id = ma.fields.UUID(required=True, metadata={"description": "the game it opens a seat of"})
    seat = ma.fields.String(allow_none=True, required=True, metadata={
        "description": "the seat it opens; null: any free seat of the lobby"})
    code = ma.fields.String(required=True, metadata={"description": "single use; shown once (only its sha256 is kept)"})


class RedeemSchema(ma.Schema):
    """The invite code to redeem."""

    code = ma.fields.String(required=True, validate=ma.validate.Length(1, 200),
                            metadata={"description": "an invite code from the game's host"})


def _member(game_id) -> str:
    """The caller, who must be one of a private game's players to learn it
    exists (api/http/access.py); redeeming an invite code needs only the code."""
    player = current_player()
    access.check_cheaply(game_id, player)
    return player


def _once(operation_id: str):
    """The operation's documentation: an optional Idempotency-Key, as for commands."""
    return blp.doc(security=BEARER, operationId=operation_id, **takes_idempotency_key())


@blp.route("/<game_id>/resign")
class Resign(MethodView):
    @_once("resignSeat")
    @blp.response(200, GameAnswerSchema)
    @declare(blp, "not-permitted", "wrong-status", "idempotency-key-reused")
    def post(self, game_id):
        """Resign your seat. What follows is the game's to say (its rules'
        docstring): the other side wins a two-sided game; in a multiplayer game
        you rank last and a bot plays your turns."""
        gid = parse_game_id(game_id)
        return answered(service().seat_life.resign_once(gid, _member(gid), idempotency_key(), summary_json), 200)


@blp.route("/<game_id>/abort")
class Abort(MethodView):
    @_once("abortGame")
    @blp.response(200, GameAnswerSchema)
    @declare(blp, "not-permitted", "wrong-status", "idempotency-key-reused")
    def post(self, game_id):
        """End a running game with no result, before every seat has acted once."""
        gid = parse_game_id(game_id)
        return answered(service().seat_life.abort_once(gid, _member(gid), idempotency_key(), summary_json), 200)


@blp.route("/<game_id>/invites")
class Invites(MethodView):
    @_once("createInvite")
    @blp.arguments(InviteRequestSchema)
    @blp.response(201, InviteSchema)
    @declare(blp, "not-permitted", "wrong-status", "invite-spent", "lobby-refused", "idempotency-key-reused")
    def post(self, body, game_id):
        """A single-use invite code (host only): to a seat of the lobby (the
        only way into a private game), or to take over a seat a bot plays."""
        gid = parse_game_id(game_id)
        answer = service().seat_life.invite_once(gid, _member(gid), body["seat"], idempotency_key())
        return answered(InviteSchema().dump(answer), 201, replay_headers(answer))


@blp.route("/<game_id>/invites/redeem")
class Redeem(MethodView):
    @_once("redeemInvite")
    @blp.arguments(RedeemSchema)
    @blp.response(200, GameAnswerSchema)
    @declare(blp, "invite-invalid", "invite-spent", "wrong-status", "lobby-refused", "idempotency-key-reused")
    def post(self, body, game_id):
        """Take the seat an invite code opens: a lobby seat, or a seat a bot
        plays (you then see everything that seat has seen)."""
        gid = parse_game_id(game_id)
        answer = service().seat_life.redeem_once(gid, current_player(), body["code"], idempotency_key(), summary_json)
        return answered(answer, 200)


@blp.route("/<game_id>/rematch")
class Rematch(MethodView):
    @_once("createRematch")
    @blp.response(201, GameAnswerSchema)
    @declare(blp, "not-permitted", "wrong-status", "idempotency-key-reused")
    def post(self, game_id):
        """A new game with the same seats, options and bots and a new seed;
        you host it at your seat, every other seat is kept for its player.
        A game has one rematch: asking again (you or another player) is a
        409 naming it; a repeat with the first request's Idempotency-Key
        answers the same new game."""
        gid = parse_game_id(game_id)
        answer = service().seat_life.rematch_once(gid, _member(gid), idempotency_key(), summary_json)
        return answered(answer, 201, {"Location": url_for("games.Game", game_id=answer["id"])})
