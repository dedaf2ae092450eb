"""Players: registration and the inbox."""

from __future__ import annotations

import marshmallow as ma
from flask.views import MethodView
from flask_smorest import Blueprint

from ..auth import BEARER, current_player
from ..context import service
from ..contract import SHARED
from ..service import readmodels

blp = Blueprint("players", __name__, url_prefix="/v1/players", description="Register, and see the games waiting on you")


class RegistrationSchema(ma.Schema):
    name = ma.fields.String(required=True, validate=ma.validate.Length(min=1, max=80), metadata={"example": "Ada"})


class PlayerSchema(ma.Schema):
    id = ma.fields.UUID(required=True)
    name = ma.fields.String(required=True)
    token = ma.fields.String(
        required=True, metadata={"description": "the bearer token; shown only this once, keep it"}
    )


class MeSchema(ma.Schema):
    id = ma.fields.UUID(required=True)
    name = ma.fields.String(required=True)
    created_at = ma.fields.DateTime(required=True, metadata={"description": "when the player registered"})


class InboxGameSchema(ma.Schema):
    id = ma.fields.UUID(required=True)
    game = ma.fields.String(required=True)
    status = ma.fields.String(required=True, metadata={SHARED: "GameStatus"})
    version = ma.fields.Integer(required=True)
    seat = ma.fields.String(required=True)
    your_turn = ma.fields.Boolean(required=True, metadata={"description": "the game waits on you"})
    to_act = ma.fields.List(ma.fields.String(), required=True)
    deadline = ma.fields.DateTime(allow_none=True, metadata={"description": "when your turn times out"})
    outcome = ma.fields.String(allow_none=True)
    updated_at = ma.fields.DateTime(required=True)


class InboxSchema(ma.Schema):
    waiting = ma.fields.Integer(required=True, metadata={"description": "how many games wait on you"})
    games = ma.fields.List(ma.fields.Nested(InboxGameSchema), required=True)


@blp.route("")
class Players(MethodView):
    @blp.doc(operationId="registerPlayer")
    @blp.arguments(RegistrationSchema)
    @blp.response(201, PlayerSchema)
    def post(self, registration):
        """Register a player and receive a bearer token (shown once)."""
        player_id, token = service().players.register(registration["name"])
        return {"id": player_id, "name": registration["name"], "token": token}


@blp.route("/me")
class Me(MethodView):
    @blp.doc(security=BEARER, operationId="getCurrentPlayer")
    @blp.response(200, MeSchema)
    def get(self):
        """Who the token belongs to."""
        player = current_player()
        with service().pool.connection() as conn:
            return readmodels.player(conn, player)


@blp.route("/me/inbox")
class Inbox(MethodView):
    @blp.doc(security=BEARER, operationId="getInbox")
    @blp.response(200, InboxSchema)
    def get(self):
        """Every game you sit in; those waiting on you first, soonest deadline first."""
        player = current_player()
        with service().pool.connection() as conn:
            rows = readmodels.inbox(conn, player)
        return {"waiting": sum(1 for row in rows if row["your_turn"]), "games": rows}
