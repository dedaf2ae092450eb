"""Signing in from a mail: the exchange of a mail link's sign-in code for a
bearer token of the player's own (api/service/signin.py).

No token is needed (that is the point); the request counts against the
client's address under BOARDLOG_RATE_LIMIT, as registration does, and a
code is 256 random bits: guessing one is hopeless at any rate.
"""

from __future__ import annotations

import marshmallow as ma
from flask.views import MethodView
from flask_smorest import Blueprint

from ..context import service, streams
from ..contract import declare
from ..idempotency import idempotent
from ...service import signin
from .tokens import NewTokenSchema

blp = Blueprint("sign-in", __name__, url_prefix="/v1/sign-in",
                description="Sign in on a device with the link of a \"your turn\" or digest mail")


class SignInCodeSchema(ma.Schema):
    """The sign-in code of a mail's link, as the page read it from the link's fragment."""

    code = ma.fields.String(required=True, validate=ma.validate.Length(min=1, max=signin.MAX_CODE_LENGTH), metadata={
        "description": "the code after `signin=` in the link of a \"your turn\" or digest mail; it works once"})


class SignedInSchema(ma.Schema):
    """Who the code signed in, the game its link opens, and the new token."""

    player_id = ma.fields.UUID(required=True, metadata={"description": "the player the mail was sent to"})
    name = ma.fields.String(required=True, metadata={"description": "the player's name"})
    game_id = ma.fields.UUID(required=True, metadata={"description": "the game the mail's link opens"})
    token = ma.fields.Nested(NewTokenSchema, required=True, metadata={
        "description": "a new token of the player's own, labelled \"mail link\"; shown only this once"})


@blp.route("")
class SignIn(MethodView):
    @idempotent(anyone=True, secret=True)
    @blp.doc(operationId="signInWithMailCode")
    @blp.arguments(SignInCodeSchema)
    @blp.response(201, SignedInSchema)
    @declare(blp, "sign-in-code-unknown", "sign-in-code-used", "sign-in-code-expired", "too-many-tokens")
    def post(self, body):
        """Exchange a mail link's sign-in code (once, before it expires) for a new token of the mail's
        player. A player holding the most tokens gives up the oldest one a mail link made."""
        answer, revoked = signin.exchange(service().pool, body["code"])
        if revoked:
            service().players.forget_tokens(revoked)
            if streams() is not None:
                streams().tokens_revoked(revoked)
        return answer
