"""The caller's bearer tokens: list, create, revoke one, revoke all.

A revoked token is refused at once by the process that revoked it and by
every other API process within BOARDLOG_TOKEN_CACHE_SECONDS (10 s by
default; see api/service/players.py). The streams it opened end within the
same bound (at once in this process), their last message a ``token-revoked``
problem; the stream tickets issued for it open nothing any more.
"""

from __future__ import annotations

import marshmallow as ma
from flask import g
from flask.views import MethodView
from flask_smorest import Blueprint

from ..auth import BEARER, current_player
from ..context import service, streams
from ..contract import declare
from ..idempotency import idempotent
from ...service.players import MAX_LIVE_TOKENS

blp = Blueprint("tokens", __name__, url_prefix="/v1/players/me/tokens",
                description="Your bearer tokens: one per device or frontend, each revocable")



class TokenSchema(ma.Schema):
    """One of your live bearer tokens: its id and label, never the token itself."""

    id = ma.fields.UUID(required=True, metadata={
        "description": "the token's id: DELETE /v1/players/me/tokens/{id} revokes it"})
    label = ma.fields.String(required=True, metadata={"description": "your name for it, such as the device"})
    created_at = ma.fields.DateTime(required=True, metadata={"description": "when it was created (UTC)"})
    current = ma.fields.Boolean(required=True, metadata={"description": "the token this request was sent with"})


class NewTokenSchema(TokenSchema):
    """A token just created, with the bearer token itself (shown this once)."""

    token = ma.fields.String(required=True, metadata={"description": "the bearer token; shown only this once, keep it"})


class TokenListSchema(ma.Schema):
    """Your live tokens, the ones that still open the API."""

    tokens = ma.fields.List(ma.fields.Nested(TokenSchema), required=True,
                            metadata={"description": "each live token, oldest first"})


class CreateTokenSchema(ma.Schema):
    """The label of the token to create."""

    label = ma.fields.String(load_default="", validate=ma.validate.Length(max=80), metadata={
        "example": "phone", "description": "your name for it, such as the device; at most 80 characters"})


class RevokedAllSchema(ma.Schema):
    """Every token you held revoked, and the one new token you hold now."""

    revoked = ma.fields.Integer(required=True, metadata={"description": "how many tokens were revoked"})
    token = ma.fields.Nested(NewTokenSchema, required=True, metadata={"description": "the one token you now hold"})


def _shown(row: dict) -> dict:
    return {**row, "current": str(row["id"]) == g.get("token_id")}


@blp.route("")
class Tokens(MethodView):
    @blp.doc(operationId="listTokens", security=BEARER)
    @blp.response(200, TokenListSchema)
    def get(self):
        """Your live tokens (never the tokens themselves: only their ids and labels)."""
        player = current_player()
        return {"tokens": [_shown(row) for row in service().players.tokens(player)]}

    @idempotent(secret=True)
    @blp.doc(operationId="createToken", security=BEARER)
    @blp.arguments(CreateTokenSchema)
    @blp.response(201, NewTokenSchema)
    @declare(blp, "too-many-tokens")
    def post(self, body):
        """A new token beside the ones you hold (rotate: create, switch over, revoke the old one)."""
        player = current_player()
        return _shown(service().players.create_token(player, body["label"]))


@blp.route("/<token_id>")
class Token(MethodView):
    @blp.doc(operationId="revokeToken", security=BEARER)
    @blp.response(204)
    @declare(blp, "token-not-found")
    def delete(self, token_id):
        """Revoke one of your tokens (the one you are using, too, if you name it)."""
        player = current_player()
        _end_streams([service().players.revoke(player, token_id)])
        return None


@blp.route("/revoke-all")
class RevokeAll(MethodView):
    @blp.doc(operationId="revokeAllTokens", security=BEARER)
    @blp.arguments(CreateTokenSchema)
    @blp.response(200, RevokedAllSchema)
    def post(self, body):
        """After a leak: revoke every token you hold, this one included, and get one new token in exchange."""
        player = current_player()
        revoked, token = service().players.revoke_all(player, body["label"] or "after revoking all")
        _end_streams(revoked)
        return {"revoked": len(revoked), "token": {**token, "current": False}}


def _end_streams(token_ids) -> None:
    """This process's streams opened with these tokens end now (the other
    processes' within the revocation bound, see api/http/streaming.py)."""
    if streams() is not None:
        streams().tokens_revoked(token_ids)
