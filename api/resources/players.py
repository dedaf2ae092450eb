"""Players: registration and the inbox."""

from __future__ import annotations

import marshmallow as ma
from flask.views import MethodView
from flask_smorest import Blueprint

from ..auth import BEARER, current_player
from ..context import service
from ..names import MAX_BYTES, MAX_CHARACTERS, BadName, normalise_name
from ..service import readmodels

blp = Blueprint("players", __name__, url_prefix="/v1/players", description="Register, and see the games waiting on you")


class PlayerName(ma.fields.String):
    """Trimmed, NFC, visible, bounded: see api/names.py."""

    def _deserialize(self, value, attr, data, **kwargs):
        try:
            return normalise_name(super()._deserialize(value, attr, data, **kwargs))
        except BadName as error:
            raise ma.ValidationError(str(error)) from None


class RegistrationSchema(ma.Schema):
    name = PlayerName(required=True, validate=ma.validate.Length(min=1, max=MAX_CHARACTERS), metadata={
        "example": "Ada",
        "description": f"trimmed and normalised to NFC; at most {MAX_CHARACTERS} characters and {MAX_BYTES} bytes "
                       "of UTF-8; no invisible, control or bidirectional-override characters"})


class PlayerSchema(ma.Schema):
    id = ma.fields.UUID(required=True)
    name = ma.fields.String(required=True)
    token = ma.fields.String(
        required=True, metadata={"description": "the bearer token; shown only this once, keep it"}
    )


class InboxGameSchema(ma.Schema):
    id = ma.fields.UUID(required=True)
    game = ma.fields.String(required=True)
    status = ma.fields.String(required=True)
    version = ma.fields.Integer(required=True)
    seat = ma.fields.String(required=True)
    your_turn = ma.fields.Boolean(required=True, metadata={"description": "the game waits on you"})
    to_act = ma.fields.List(ma.fields.String(), required=True)
    deadline = ma.fields.DateTime(allow_none=True, metadata={"description": "when your turn times out"})
    outcome = ma.fields.String(allow_none=True)
    updated_at = ma.fields.DateTime(required=True)
    rematch = ma.fields.UUID(allow_none=True, metadata={"description": "the rematch of this finished game, once a player "
                                                                      "asked for it: your seat there is kept for you"})


class InboxSchema(ma.Schema):
    waiting = ma.fields.Integer(required=True, metadata={"description": "how many games wait on you"})
    games = ma.fields.List(ma.fields.Nested(InboxGameSchema), required=True)


@blp.route("")
class Players(MethodView):
    @blp.arguments(RegistrationSchema)
    @blp.response(201, PlayerSchema)
    def post(self, registration):
        """Register a player and receive a bearer token (shown once)."""
        player_id, token = service().players.register(registration["name"])
        return {"id": player_id, "name": registration["name"], "token": token}


@blp.route("/me/inbox")
class Inbox(MethodView):
    @blp.doc(security=BEARER)
    @blp.response(200, InboxSchema)
    def get(self):
        """Every game you sit in; those waiting on you first, soonest deadline first."""
        player = current_player()
        with service().pool.connection() as conn:
            rows = readmodels.inbox(conn, player)
        return {"waiting": sum(1 for row in rows if row["your_turn"]), "games": rows}
