"""Takebacks with consent: ask to take back your last move, or answer another seat's ask."""

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

blp = Blueprint("takebacks", __name__, url_prefix="/v1/games",
                description="Take back your last move, when the other players consent")


class TakebackStateSchema(ma.Schema):
    """A game's open takeback request, if any, after your answer."""

    game_id = ma.fields.UUID(required=True, metadata={"description": "the game's id"})
    version = ma.fields.Integer(required=True, metadata={"description": "the game's version now"})
    takeback = ma.fields.Dict(allow_none=True, required=True, metadata={
        "description": "the open request, or null: {seat, version (the one it returns to), accepted (seats)}"})
    returned_to = ma.fields.Integer(allow_none=True, required=True, metadata={
        "description": "when this answer completed a takeback: the version whose state the game is in again"})


def _member(game_id) -> str:
    player = current_player()
    access.check_cheaply(game_id, player)
    return player


def _state(game_id, session, returned_to=None) -> dict:
    request = session.life.takeback
    shown = None if request is None else {"seat": request.seat, "version": request.version,
                                          "accepted": sorted(request.accepted)}
    return {"game_id": game_id, "version": session.version, "takeback": shown, "returned_to": returned_to}


@blp.route("/<game_id>/takeback")
class Takeback(MethodView):
    @idempotent
    @blp.doc(operationId="askTakeback", security=BEARER)
    @blp.response(200, TakebackStateSchema)
    @declare(blp, "not-permitted", "wrong-status", "nothing-to-take-back")
    def post(self, game_id):
        """Ask to take back your last move: only while no other seat has acted
        since, and only a move that drew no randomness and whose events every
        viewer sees as they are (409 nothing-to-take-back says why not)."""
        gid = parse_game_id(game_id)
        return _state(gid, service().takebacks.ask_takeback(gid, _member(gid)))


@blp.route("/<game_id>/takeback/accept")
class AcceptTakeback(MethodView):
    @idempotent
    @blp.doc(operationId="acceptTakeback", security=BEARER)
    @blp.response(200, TakebackStateSchema)
    @declare(blp, "not-permitted", "wrong-status", "nothing-to-take-back")
    def post(self, game_id):
        """Accept another seat's takeback; when every other player has, the game returns to the version before that move."""
        gid = parse_game_id(game_id)
        player = _member(gid)
        session = service().takebacks.accept_takeback(gid, player)
        returned = session.life.takeback is None
        return _state(gid, session, _returned_to(gid) if returned else None)


@blp.route("/<game_id>/takeback/refuse")
class RefuseTakeback(MethodView):
    @idempotent
    @blp.doc(operationId="refuseTakeback", security=BEARER)
    @blp.response(200, TakebackStateSchema)
    @declare(blp, "not-permitted", "wrong-status", "nothing-to-take-back")
    def post(self, game_id):
        """Refuse another seat's takeback: the request ends, the move stands."""
        gid = parse_game_id(game_id)
        return _state(gid, service().takebacks.refuse_takeback(gid, _member(gid)))


def _returned_to(game_id) -> int | None:
    """The version the last TakenBack of the game returned to."""
    return service().takebacks.last_taken_back(game_id)
