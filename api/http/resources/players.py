"""Players: registration and the inbox."""

from __future__ import annotations

import hashlib
import json
import time

import marshmallow as ma
from flask import Response, g, request
from flask.views import MethodView
from flask_smorest import Blueprint

from ..auth import BEARER, current_player
from ..context import service, streams
from ..errors import problem
from ..names import MAX_BYTES, MAX_CHARACTERS, BadName, normalise_name
from ..contract import SHARED, declare, parameters
from ...service import readmodels, talk
from ...service.games import player_channel, stream_of
from ..admission import revoked_while_waiting
from ..streaming import StreamLimit
from ..idempotency import idempotent
from .games import OUTCOME_TEXT, STATUS_TEXT, TO_ACT_TEXT, UPDATED_TEXT

MAX_WAIT = 60

blp = Blueprint("players", __name__, url_prefix="/v1/players", description="Register, and see the games waiting on you")


class PlayerName(ma.fields.String):
    """Trimmed, NFC, visible, bounded: see api/http/names.py."""

    def _deserialize(self, value, attr, data, **kwargs):
        try:
            return normalise_name(super()._deserialize(value, attr, data, **kwargs))
        except BadName as error:
            raise ma.ValidationError(str(error)) from None


class RegistrationSchema(ma.Schema):
    """The player to register."""

    name = PlayerName(required=True, validate=ma.validate.Length(min=1, max=MAX_CHARACTERS), metadata={
        "example": "Ada",
        "description": f"trimmed and normalised to NFC; at most {MAX_CHARACTERS} characters and {MAX_BYTES} bytes "
                       "of UTF-8; no invisible, control or bidirectional-override characters"})


PLAYER_ID = "the player's id, as seats, summaries and messages name players"
PLAYER_NAME = "the player's name as registered (trimmed, NFC); names need not be unique"


class PlayerSchema(ma.Schema):
    """A player just registered, with their bearer token (shown this once)."""

    id = ma.fields.UUID(required=True, metadata={"description": PLAYER_ID})
    name = ma.fields.String(required=True, metadata={"description": PLAYER_NAME})
    token = ma.fields.String(
        required=True, metadata={"description": "the bearer token; shown only this once, keep it"}
    )


class MeSchema(ma.Schema):
    """The player the token belongs to."""

    id = ma.fields.UUID(required=True, metadata={"description": PLAYER_ID})
    name = ma.fields.String(required=True, metadata={"description": PLAYER_NAME})
    created_at = ma.fields.DateTime(required=True, metadata={"description": "when the player registered"})


class InboxGameSchema(ma.Schema):
    """A game you sit in, as your inbox lists it."""

    id = ma.fields.UUID(required=True, metadata={"description": "the game's id, as in /v1/games/{id}"})
    game = ma.fields.String(required=True, metadata={"description": "the game's API name (GET /v1/rules lists them)"})
    status = ma.fields.String(required=True, metadata={SHARED: "GameStatus", "description": STATUS_TEXT})
    version = ma.fields.Integer(required=True, metadata={"description": "how many events the game has"})
    seat = ma.fields.String(required=True, metadata={"description": "your seat in it"})
    your_turn = ma.fields.Boolean(required=True, metadata={"description": "the game waits on you"})
    to_act = ma.fields.List(ma.fields.String(), required=True, metadata={"description": TO_ACT_TEXT})
    deadline = ma.fields.DateTime(allow_none=True, metadata={"description": "when your turn times out"})
    outcome = ma.fields.String(allow_none=True, metadata={"description": OUTCOME_TEXT})
    updated_at = ma.fields.DateTime(required=True, metadata={"description": UPDATED_TEXT})
    rematch = ma.fields.UUID(allow_none=True, metadata={"description": "the rematch of this finished game, once a player "
                                                                      "asked for it: your seat there is kept for you"})
    unread_messages = ma.fields.Integer(required=True, metadata={
        "description": "messages to you in the game's channels that you have not marked read (GET /v1/games/{id}/channels)"})


class InboxSchema(ma.Schema):
    """Every game you sit in but the cancelled ones; its ETag changes when any of them does."""

    waiting = ma.fields.Integer(required=True, metadata={"description": "how many games wait on you"})
    games = ma.fields.List(ma.fields.Nested(InboxGameSchema), required=True, metadata={
        "description": "those waiting on you first, then by soonest deadline, then latest activity"})


@blp.route("")
class Players(MethodView):
    @idempotent(anyone=True, secret=True)
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


class InboxArgs(ma.Schema):
    wait = ma.fields.Integer(validate=ma.validate.Range(0, MAX_WAIT), metadata={
        "description": "with If-None-Match: hold the request up to this many seconds until your inbox changes"})


def _inbox_rows(player) -> list[dict]:
    with service().pool.connection() as conn:
        rows = service().player_names.outcomes(conn, readmodels.inbox(conn, player))
        unread = talk.unread_by_game(conn, player)
    return [{**row, "unread_messages": unread.get(str(row["id"]), 0)} for row in rows]


def _inbox_etag(rows) -> str:
    digest = hashlib.sha256(json.dumps(rows, sort_keys=True, default=str).encode()).hexdigest()[:24]
    return f'"inbox-{digest}"'


def _wait_for_change(player, rows, etag: str, seconds: int) -> list[dict]:
    """The inbox once it differs from ``etag``, or as it is after ``seconds``:
    woken by a move in any of the player's games or a seat they take; ended
    by a revocation of the token it was asked with (Unauthorized)."""
    deadline = time.monotonic() + seconds
    games = {stream_of(row["id"]) for row in rows}
    with streams().waiting(token=g.get("token_id")) as slot, \
            service().store.watch([player_channel(player), *games]) as watch:
        slot.watch = watch  # what a revocation of the token wakes
        rows = _inbox_rows(player)  # read again now that the watch is in place
        while _inbox_etag(rows) == etag and (remaining := deadline - time.monotonic()) > 0:
            if watch.wait(remaining):
                if slot.revoked:
                    raise revoked_while_waiting()
                watch.take()
                rows = _inbox_rows(player)
                for game in {stream_of(row["id"]) for row in rows} - games:
                    watch.follow(game)
                    games.add(game)
    return rows


@blp.route("/me/inbox")
class Inbox(MethodView):
    @blp.doc(security=BEARER, operationId="getInbox", **parameters(
        {"in": "header", "name": "If-None-Match", "schema": {"type": "string"},
         "description": "the ETag you hold: 304 when your inbox has not changed"}))
    @blp.arguments(InboxArgs(), location="query", as_kwargs=True)
    @blp.response(200, InboxSchema)
    @blp.alt_response(304, description="your inbox has not changed since the ETag you sent")
    @blp.alt_response(503, description="the server holds all the waiting requests it may (Retry-After)")
    @declare(blp, "too-many-waiters", "server-busy")
    def get(self, wait=None):
        """Every game you sit in; those waiting on you first, soonest deadline first."""
        player = current_player()
        rows = _inbox_rows(player)
        known = {tag for tag in request.if_none_match.as_set() if tag}
        etag = _inbox_etag(rows)
        if wait and etag.strip('"') in known:
            try:
                rows = _wait_for_change(player, rows, etag, wait)
            except StreamLimit as error:
                return problem(error.status, error.detail, kind=error.kind,
                               headers={"Retry-After": str(error.retry_after)})
            etag = _inbox_etag(rows)
        if etag.strip('"') in known:
            return Response(status=304, headers={"ETag": etag})
        return {"waiting": sum(1 for row in rows if row["your_turn"]), "games": rows}, 200, {"ETag": etag}
