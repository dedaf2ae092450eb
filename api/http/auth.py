"""Bearer tokens: random, shown once, stored as a sha256, compared in
constant time (in the service)."""

from __future__ import annotations

from flask import current_app, g, request

from ..service.errors import Unauthorized

BEARER = [{"bearerAuth": []}]
# A token is optional: without one the caller is a spectator.
OPTIONAL_BEARER = [{"bearerAuth": []}, {}]
SECURITY_SCHEME = {"type": "http", "scheme": "bearer", "description": "the token POST /v1/players returned"}


def _token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if not header:
        return None
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("the Authorization header must be 'Bearer <token>'", kind="token-malformed")
    return token.strip()


def current_player(required: bool = True) -> str | None:
    """The caller's player id; None for an anonymous caller when allowed."""
    if "player" in g:
        return g.player
    token = _token()
    if token is None:
        if required:
            raise Unauthorized("this needs a player token: register with POST /v1/players, then send 'Authorization: Bearer <token>'")
        g.player = None
        return None
    identity = current_app.extensions["boardlog"].service.players.identify(token)
    if identity is None:
        raise Unauthorized("unknown or revoked token", kind="token-unknown")
    g.player, g.token_id = identity.player, identity.token_id
    return identity.player
