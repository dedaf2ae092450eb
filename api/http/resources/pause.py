"""Pausing a running game by its players' agreement, and resuming it."""

from __future__ import annotations

import marshmallow as ma
from flask.views import MethodView
from flask_smorest import Blueprint

from .. import access
from ..auth import BEARER, current_player
from ..context import service
from ..contract import declare
from ..idempotency import idempotent
from ...service.games import parse_game_id
from domain.lifecycle import give as give_rules

blp = Blueprint("pause", __name__, url_prefix="/v1/games",
                description="Pause a game when all of its players agree; resume it when any of them asks")


class PauseStateSchema(ma.Schema):
    """Whether a game is paused, and who asked to pause it."""

    game_id = ma.fields.UUID(required=True, metadata={"description": "the game's id"})
    version = ma.fields.Integer(required=True, metadata={"description": "the game's version now"})
    paused = ma.fields.Boolean(required=True, metadata={"description": "no deadline runs, no bank falls, nobody moves"})
    pause_asked = ma.fields.List(ma.fields.String(), required=True,
                                 metadata={"description": "seats whose players asked to pause (until it is resumed)"})


def _member(game_id) -> str:
    player = current_player()
    access.check_cheaply(game_id, player)
    return player


def _state(game_id, session) -> dict:
    return {"game_id": game_id, "version": session.version, "paused": session.life.paused,
            "pause_asked": sorted(session.life.pause_asked)}


@blp.route("/<game_id>/pause")
class Pause(MethodView):
    @idempotent
    @blp.doc(operationId="askPause", security=BEARER)
    @blp.response(200, PauseStateSchema)
    @declare(blp, "not-permitted", "wrong-status")
    def post(self, game_id):
        """Ask to pause the game: when the last seat a player plays has asked,
        it is paused (recorded as PauseAsked, then GamePaused)."""
        gid = parse_game_id(game_id)
        return _state(gid, service().pauses.ask_pause(gid, _member(gid)))


class GiveTimeSchema(ma.Schema):
    """The seat to give time to, and how much."""

    seat = ma.fields.String(required=True, validate=ma.validate.Length(min=1, max=64), metadata={
        "description": "another seat of the game, to act now (not one of yours)"})
    seconds = ma.fields.Integer(strict=True, required=True, validate=ma.validate.Range(
        min=give_rules.LEAST_GIVEN_SECONDS, max=give_rules.MOST_GIVEN_SECONDS,
        error=f"give from {give_rules.LEAST_GIVEN_SECONDS} to {give_rules.MOST_GIVEN_SECONDS} seconds"), metadata={
        "description": f"its deadline moves this much later and its bank (if any) grows by it; a seat gives at most "
                       f"{give_rules.MOST_GIVEN_SECONDS} s (a day) in a game, all gifts together"})


class TimeGiftsSchema(ma.Schema):
    """The game after the gift: the clocks of each seat, as the view shows them."""

    game_id = ma.fields.UUID(required=True, metadata={"description": "the game's id"})
    version = ma.fields.Integer(required=True, metadata={"description": "the game's version now"})
    given = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.Integer(), required=True, metadata={
        "description": "seat -> the seconds its player has given others in this game"})


@blp.route("/<game_id>/time-gifts")
class GiveTime(MethodView):
    @idempotent
    @blp.doc(operationId="giveTime", security=BEARER)
    @blp.arguments(GiveTimeSchema)
    @blp.response(200, TimeGiftsSchema)
    @declare(blp, "not-permitted", "wrong-status")
    def post(self, gift, game_id):
        """Give another seat, to act now, more time on its deadline and bank
        (recorded as TimeGiven, shown to every player, checked by the audit)."""
        gid = parse_game_id(game_id)
        session = service().pauses.give_time(gid, _member(gid), gift["seat"], gift["seconds"])
        return {"game_id": gid, "version": session.version, "given": dict(session.life.given)}


@blp.route("/<game_id>/resume")
class Resume(MethodView):
    @idempotent
    @blp.doc(operationId="resumeGame", security=BEARER)
    @blp.response(200, PauseStateSchema)
    @declare(blp, "not-permitted", "wrong-status")
    def post(self, game_id):
        """Resume a paused game (any of its players may): the clocks run from now, the banks as they were."""
        gid = parse_game_id(game_id)
        return _state(gid, service().pauses.resume(gid, _member(gid)))
