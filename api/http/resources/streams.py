"""Push channels: a game's stream and a player's stream (Server-Sent Events)."""

from __future__ import annotations

import marshmallow as ma
from flask import Response, current_app, g, request
from flask.views import MethodView
from flask_smorest import Blueprint

from domain import session as sessions
from domain.notices import KINDS as NOTICE_KINDS

from .. import access
from ..auth import BEARER, current_player
from ..context import service, streams
from ..contract import declare, parameters
from ..errors import problem
from ...service import tickets
from ...service.errors import InvalidRequest
from ...service.games import parse_game_id
from ..admission import StreamLimit, requesting_client
from ..idempotency import idempotent
from .keys import ReceiptSchema

blp = Blueprint("streams", __name__, url_prefix="/v1",
                description="Server-Sent Events: a game's events and views, and what concerns you across your games")

SSE = "text/event-stream"
MAX_ID = 2**63 - 1
LAST_EVENT_ID = {
    "in": "header", "name": "Last-Event-ID",
    "schema": {"type": "string", "pattern": "^[0-9]*$", "maxLength": len(str(MAX_ID))},
    "description": "the id of the last message you received: the stream resumes right after it "
                   f"(browsers send it when they reconnect); ASCII digits, at most {MAX_ID}",
}


class GameMessageSchema(ma.Schema):
    """The data of a game stream's messages: unnamed messages are events as
    you may see them (as in the feed; ``id:`` is the version), ``view``
    messages are your view (as GET /view, ``id:`` the version), ``talk``
    messages are a message said in a channel you read (as listMessages
    gives it; no ``id:``, since a stream resumes by the game's version: fetch
    what was said meanwhile with listMessages), ``end`` says the game is
    over and the stream closes, ``shutdown`` that the server closes it
    (reconnect). A ``problem`` message (either stream) is the last
    one of a stream whose token was revoked: its data is a problem document
    (type token-revoked, status 401), not this schema; sign in again."""

    version = ma.fields.Integer(required=True, metadata={
        "description": "the game's version the message shows (an event's own version); in a talk message, "
                       "the message's place in its channel, from 1"})
    type = ma.fields.String(metadata={"description": "the event's type (unnamed messages)"})
    seat = ma.fields.String(allow_none=True, metadata={"description": "the seat whose action this was (events)"})
    recorded_at = ma.fields.String(metadata={"description": "ISO 8601 (events)"})
    data = ma.fields.Dict(metadata={"description": "the event as you may see it (events)"})
    text = ma.fields.String(metadata={
        "description": "the event in a short English sentence for a game log, made from `data` alone (events)"})
    view = ma.fields.Dict(allow_none=True, metadata={"description": "your view (view messages; as GET /view)"})
    status = ma.fields.String(metadata={"description": "the game's status (view and end messages)"})
    receipt = ma.fields.Nested(ReceiptSchema, allow_none=True, metadata={
        "description": "every message: the signed chain head after the version it shows (as in the feed and the "
                       "view); null in a game recorded before receipts (chain version 1) until it is over"})


class NoticeSchema(ma.Schema):
    """The data of a player stream's messages; the message's event name is
    the notice's kind and its ``id:`` the event's global position (a
    ``message`` notice has no ``id:``: see ``position``)."""

    id = ma.fields.String(required=True, metadata={"description": "game_id:version:kind, stable: deduplicate on it"})
    kind = ma.fields.String(required=True, validate=ma.validate.OneOf(list(NOTICE_KINDS)), metadata={
        "description": "what happened: your turn came, the game started, a seat timed out, the game ended or "
                       "was scored, someone joined or left the lobby, the lobby was cancelled, a seat resigned, was "
                       "abandoned to a bot or changed hands, the game was aborted, a rematch was created, or a "
                       "message was sent to you"})
    game_id = ma.fields.String(required=True, metadata={"description": "the id of the game it concerns"})
    version = ma.fields.Integer(required=True, metadata={
        "description": "the game's version it is about (for a message, the message's place in its channel)"})
    position = ma.fields.Integer(allow_none=True, required=True, metadata={
        "description": "the event's position in the server's global log: the message's id: (resume after "
                       "it); null when unknown, and for kind message, which has no position nor id: (positions "
                       "count no table talk, so that they tell nobody how much was said in channels he does not "
                       "read; after a reconnection a message may come again: deduplicate on id)"})
    seats = ma.fields.List(ma.fields.String(), required=True, metadata={
        "description": "the seats concerned: whose turn came, who timed out, joined, left, resigned, was "
                       "abandoned or replaced; a message's sender"})
    players = ma.fields.List(ma.fields.String(), required=True, metadata={
        "description": "the ids of the players it is told to, sorted (the actor of a lobby move is not told of it; a "
                       "message: its readers but its sender, the same for each of them, whoever muted whom)"})
    data = ma.fields.Dict(required=True, metadata={
        "description": "public details of the kind: seats, players, outcome, standings, the seats to act; a "
                       "message's channel, seat, player and text"})


class ServerSentEventSchema(ma.Schema):
    """One message of a text/event-stream body."""

    event = ma.fields.String(required=True, metadata={"description": "the message's name; 'message' when unnamed"})
    data = ma.fields.String(required=True, metadata={
        "description": "JSON: a GameMessage or a Notice; for the `problem` message that ends a stream whose "
                       "token was revoked, a problem document (type token-revoked)"})
    id = ma.fields.String(metadata={"description": "send it back as Last-Event-ID (or ?after=) to resume"})
    retry = ma.fields.Integer(metadata={"description": "milliseconds to wait before reconnecting"})


_SSE_BODY = ServerSentEventSchema


def _each_message_is(schema: str) -> dict:
    """The schema of each message's data beside the body's (``x-item-schema``,
    after OpenAPI 3.2's ``itemSchema``, which 3.1 validators refuse), so that
    generators reach GameMessage and Notice."""
    return {"200": {"content": {SSE: {"schema": {"$ref": "#/components/schemas/ServerSentEvent"},
                                      "x-item-schema": {"$ref": f"#/components/schemas/{schema}"}}}}}


def document(api) -> None:
    """The messages' data, as named schemas for frontends (an SSE body is text to OpenAPI)."""
    api.spec.components.schema("GameMessage", schema=GameMessageSchema)
    api.spec.components.schema("Notice", schema=NoticeSchema)


class StreamArgs(ma.Schema):
    after = ma.fields.Integer(validate=ma.validate.Range(0, MAX_ID), metadata={
        "description": "resume after this id (as Last-Event-ID); omitted: from now"})
    ticket = ma.fields.String(validate=ma.validate.Length(1, 200), metadata={
        "description": "a stream ticket from POST /v1/stream-tickets, for clients that cannot send "
                       "Authorization (a browser's EventSource); single use, valid 60 s, spent only by a "
                       "stream that starts (a refused request leaves it usable)"})


class TicketSchema(ma.Schema):
    """A single-use stream ticket, for clients that cannot send Authorization (a browser's EventSource)."""

    ticket = ma.fields.String(required=True, metadata={"description": "pass as ?ticket= to open one stream"})
    expires_at = ma.fields.DateTime(required=True, metadata={
        "description": f"when it lapses unused (UTC), {tickets.TICKET_SECONDS} s after it was issued"})
    expires_in = ma.fields.Integer(required=True, metadata={"description": "seconds"})


def _caller(args, required: bool) -> tuple[str | None, str | None]:
    """The player and the id of their token: from a ticket, if given (checked,
    not spent: ``_start`` spends it), else from the bearer token (or nobody,
    where allowed)."""
    if "ticket" in args:
        g.ticket = tickets.check(service().pool, args["ticket"], _redis(), streams().ticket_tokens.stands)
        g.player, g.token_id = g.ticket.holder.player, g.ticket.holder.token_id
        return g.player, g.token_id
    player = current_player(required=required)
    return player, g.get("token_id") if player is not None else None


def _start(args, player: str | None, token: str | None, body) -> Response:
    """Take a slot, spend the ticket (if any) and start the stream: a request
    refused before this point leaves its ticket usable."""
    try:
        slot = streams().open(player, token=token, client=requesting_client())
    except StreamLimit as error:
        return _limited(error)
    if "ticket" in args:
        try:
            tickets.spend(service().pool, g.ticket, _redis())
        except BaseException:
            streams().close(slot)
            raise
    return _event_stream(body(slot), slot)


def _redis():
    """Where signed tickets are spent (None: tickets are stored in PostgreSQL)."""
    return current_app.extensions["boardlog"].redis


def _refused() -> Response | None:
    """A 503 before any work when the process is at its capacity (streams().admit)."""
    try:
        streams().admit()
    except StreamLimit as error:
        return _limited(error)
    return None


def _resume_point(args) -> int | None:
    header = request.headers.get("Last-Event-ID")
    if header is not None and header.strip():
        text = header.strip()
        # ASCII digits only: "²" passes isdigit() and int() refuses it, "٣" would be read as 3.
        if not (text.isascii() and text.isdigit()) or int(text) > MAX_ID:
            raise InvalidRequest(f"Last-Event-ID must be the id of a message of this stream (a whole number), "
                                 f"not {text[:40]!r}", kind="resume-point-invalid")
        return int(text)
    return args.get("after")


def _event_stream(body, slot) -> Response:
    response = Response(_Body(body, slot), mimetype=SSE)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"  # nginx: pass each message on at once
    return response


class _Body:
    """The stream's iterable; closing it frees its slot even if it never started."""

    def __init__(self, generator, slot):
        self.generator, self.slot = generator, slot

    def __iter__(self):
        return self.generator

    def close(self):
        try:
            self.generator.close()
        finally:
            self.slot.registry.close(self.slot)


def _limited(error: StreamLimit) -> Response:
    return problem(error.status, error.detail, kind=error.kind, headers={"Retry-After": str(error.retry_after)})


@blp.route("/games/<game_id>/stream")
class GameStream(MethodView):
    @blp.doc(operationId="streamGame", security=[{}, *BEARER], **parameters(LAST_EVENT_ID),
             responses=_each_message_is("GameMessage"))
    @blp.arguments(StreamArgs(), location="query", as_kwargs=True)
    @blp.response(200, _SSE_BODY, content_type=SSE, description=(
        "Server-Sent Events: each event of the game as you may see it (`id:` its version), then a `view` "
        "message with your view after each move, and a `talk` message for each message said in a channel you "
        "read (a Message; GET .../channels/{channel}/messages after a reconnection); comments as heartbeats. Resume with Last-Event-ID or "
        "?after=. Without either, the stream starts with your view now. Each message's data is a "
        "GameMessage (see components). A stream whose token (or ticket's token) is revoked ends with a "
        "`problem` message (token-revoked)."))
    @blp.alt_response(204, description="the game is over and you have seen all of it: nothing more will come")
    @declare(blp, "ticket-invalid", "resume-point-invalid", "too-many-streams", "too-many-waiters", "server-busy",
             "shutting-down")
    def get(self, game_id, **args):
        """Follow a game as it moves (spectators need no token; a private game: its players only)."""
        gid = parse_game_id(game_id)
        if (refused := _refused()) is not None:
            return refused
        player, token = _caller(args, required=False)
        after = _resume_point(args)
        rules, session = streams().shared.current(gid)  # a herd of newcomers: one load for all
        access.check(session, gid, player)
        if after is not None and after > session.version:
            raise InvalidRequest(f"the game is at version {session.version}; you cannot resume after {after}",
                                 version=session.version, kind="resume-point-invalid")
        if after is not None and after == session.version and session.status in (sessions.FINISHED,
                                                                                  sessions.CANCELLED):
            return Response(status=204)  # EventSource stops reconnecting on a 204
        return _start(args, player, token, lambda slot: streams().game(slot, gid, player, after))


@blp.route("/players/me/stream")
class PlayerStream(MethodView):
    @blp.doc(operationId="streamPlayer", security=BEARER, **parameters(LAST_EVENT_ID),
             responses=_each_message_is("Notice"))
    @blp.arguments(StreamArgs(), location="query", as_kwargs=True)
    @blp.response(200, _SSE_BODY, content_type=SSE, description=(
        "Server-Sent Events: what concerns you in any of your games, one message per notice, named by its "
        f"kind ({', '.join(NOTICE_KINDS)}), `id:` the global position "
        "of the event it comes from (none for a message). Resume with Last-Event-ID or ?after=; without either, from now. Each "
        "message's data is a Notice (see components). A stream whose token (or ticket's token) is revoked "
        "ends with a `problem` message (token-revoked)."))
    @declare(blp, "ticket-invalid", "resume-point-invalid", "too-many-streams", "server-busy", "shutting-down")
    def get(self, **args):
        """Follow everything that concerns you across your games."""
        if (refused := _refused()) is not None:
            return refused
        player, token = _caller(args, required=True)
        after = _resume_point(args)
        if after is not None and after > service().store.last_position(shown=True):
            raise InvalidRequest(f"there is no position {after} yet; resume from an id this stream sent", kind="resume-point-invalid")
        return _start(args, player, token, lambda slot: streams().player(slot, player, after))


@blp.route("/stream-tickets")
class StreamTickets(MethodView):
    @idempotent
    @blp.doc(operationId="createStreamTicket", security=BEARER)
    @blp.response(201, TicketSchema)
    @blp.alt_response(401, description="no token, or an unknown one")
    def post(self):
        """A single-use ticket, valid 60 s, that opens one stream as you (for EventSource)."""
        player = current_player()
        # When the token was last found live, so that the stream it opens trusts it as long, without a query.
        checked_at = service().players.checked_at(request.headers["Authorization"].partition(" ")[2].strip())
        ticket, expires_at = tickets.issue(service().pool, player, g.get("token_id"), _redis(), checked_at)
        return {"ticket": ticket, "expires_at": expires_at, "expires_in": tickets.TICKET_SECONDS}
