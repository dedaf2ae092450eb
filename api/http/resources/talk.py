"""Table talk: a game's channels, their messages, read marks and mutes
(api/service/talk.py; which channels a game has: domain/lifecycle/talk.py)."""

from __future__ import annotations

import json
import uuid

import marshmallow as ma
from flask import Response
from flask.views import MethodView
from flask_smorest import Blueprint

from .. import access
from ..auth import BEARER, OPTIONAL_BEARER, current_player
from ..context import service
from ..contract import declare
from ...service.errors import InvalidRequest
from .audit import json_lines, log_entry
from .games import answered
from ..contract import takes_idempotency_key
from ..idempotency import idempotency_key
from ...service.games import parse_game_id
from ...service.talk import PAGE, Talk

blp = Blueprint("talk", __name__, url_prefix="/v1/games",
                description="Messages between the players of a game: the table, a team, two players privately")

CHANNEL = "a channel: table, team:<team> (Coronation's team:detectives) or private:<seat>+<seat>"


class ChannelSchema(ma.Schema):
    """A channel you read, and where you stand in it."""

    channel = ma.fields.String(required=True, metadata={"description": CHANNEL})
    seats = ma.fields.List(ma.fields.String(), required=True, metadata={"description": "the seats whose players are in it"})
    messages = ma.fields.Integer(required=True, metadata={"description": "messages sent to it so far (its stream's version)"})
    unread = ma.fields.Integer(required=True, metadata={"description": "messages to you after your read mark, from players you did not mute"})
    writable = ma.fields.Boolean(required=True, metadata={"description": "you may send to it"})


class ChannelListSchema(ma.Schema):
    """The channels of a game that you read."""

    game_id = ma.fields.UUID(required=True, metadata={"description": "the game"})
    channels = ma.fields.List(ma.fields.Nested(ChannelSchema), required=True, metadata={"description": "in the game's order: the table, then teams, then private channels"})


class MessageSchema(ma.Schema):
    """One message."""

    channel = ma.fields.String(required=True, metadata={"description": CHANNEL})
    version = ma.fields.Integer(required=True, metadata={"description": "its place in the channel, from 1"})
    seat = ma.fields.String(allow_none=True, required=True, metadata={"description": "the seat its sender played, or null (the host before he took one)"})
    player = ma.fields.UUID(required=True, metadata={"description": "its sender"})
    text = ma.fields.String(required=True, metadata={"description": "what was said: 1-2,000 characters, at least one visible; refused as player names are (invisible, format and bidirectional-override characters), but newline and tab"})
    sent_at = ma.fields.DateTime(required=True, metadata={"description": "when the server stored it"})


class MessagePageSchema(ma.Schema):
    """A page of a channel's messages, oldest first."""

    game_id = ma.fields.UUID(required=True, metadata={"description": "the game"})
    channel = ma.fields.String(required=True, metadata={"description": CHANNEL})
    messages = ma.fields.List(ma.fields.Nested(MessageSchema), required=True, metadata={"description": "oldest first"})
    next_after = ma.fields.Integer(allow_none=True, required=True, metadata={"description": "pass as ?after= for the next page; null on the last one"})


class PageArgs(ma.Schema):
    class Meta:
        unknown = ma.RAISE

    after = ma.fields.Integer(load_default=0, validate=ma.validate.Range(min=0), metadata={"description": "only messages after this version of the channel (default: 0, from the first)"})
    limit = ma.fields.Integer(load_default=PAGE, validate=ma.validate.Range(min=1, max=500), metadata={"description": f"at most this many (1-500, default: {PAGE})"})


class SendMessageSchema(ma.Schema):
    """A message to send."""

    class Meta:
        unknown = ma.RAISE

    text = ma.fields.String(required=True, metadata={"description": "1-2,000 characters (after trimming), at least one visible; refused as player names are: control, zero-width, format and bidirectional-override characters, but newline and tab (a `message-refused` naming the character)"})


class ReadMarkSchema(ma.Schema):
    """How far you have read a channel."""

    class Meta:
        unknown = ma.RAISE

    # strict: 1.5 or "2" is no version (a lax Integer read 1.5 as 1, where the schema says integer).
    version = ma.fields.Integer(allow_none=True, strict=True, validate=ma.validate.Range(min=0), metadata={"description": "read up to this version (default: null, everything sent so far); a mark never moves back"})


class ReadStateSchema(ma.Schema):
    """Your read mark in a channel after the change."""

    channel = ma.fields.String(required=True, metadata={"description": CHANNEL})
    read_version = ma.fields.Integer(required=True, metadata={"description": "you have read up to this version"})
    unread = ma.fields.Integer(required=True, metadata={"description": "messages to you still unread in it"})


class MutesSchema(ma.Schema):
    """The players whose messages you do not get in this game."""

    game_id = ma.fields.UUID(required=True, metadata={"description": "the game"})
    muted = ma.fields.List(ma.fields.UUID(), required=True, metadata={"description": "player ids, for you only: the others still read them"})


def talk() -> Talk:
    return Talk(service())


def _watchable(game_id, player):
    access.check_cheaply(game_id, player)


@blp.route("/<game_id>/channels")
class Channels(MethodView):
    @blp.doc(operationId="listChannels", security=OPTIONAL_BEARER)
    @blp.response(200, ChannelListSchema)
    def get(self, game_id):
        """The channels you read in this game, with unread counts (a spectator:
        the table, when the host allowed spectators to read it)."""
        gid = parse_game_id(game_id)
        player = current_player(required=False)
        _watchable(gid, player)
        return {"game_id": gid, "channels": talk().channels(gid, player)}


@blp.route("/<game_id>/channels/<channel>/messages")
class Messages(MethodView):
    @blp.doc(operationId="listMessages", security=OPTIONAL_BEARER)
    @blp.arguments(PageArgs, location="query", as_kwargs=True)
    @blp.response(200, MessagePageSchema)
    @declare(blp, "message-refused", "no-such-channel", "not-in-channel")
    def get(self, game_id, channel, after, limit):
        """A channel's messages, oldest first, that you may read: a player
        who took a seat over reads its channels from their start; one who
        resigned keeps what was sent while he played."""
        gid = parse_game_id(game_id)
        player = current_player(required=False)
        _watchable(gid, player)
        return talk().read(gid, player, channel, after, limit)

    @blp.doc(operationId="sendMessage", security=BEARER, **takes_idempotency_key())
    @blp.arguments(SendMessageSchema)
    @blp.response(201, MessageSchema)
    @declare(blp, "message-refused", "no-such-channel", "not-in-channel", "too-many-messages", "wrong-status",
             "idempotency-key-reused")
    def post(self, body, game_id, channel):
        """Send a message to a channel you are in: in the lobby, during the
        game and after its end. At most 10 per player per game in a minute.
        With an Idempotency-Key, a repeat of the same text to the same
        channel answers the first message and sends nothing more; the same
        key with another text or channel is a 422 `idempotency-key-reused`."""
        gid = parse_game_id(game_id)
        player = current_player()
        _watchable(gid, player)
        sent = talk().send(gid, player, channel, body["text"], idempotency_key(), MessageSchema().dump)
        return answered(sent, 201)


@blp.route("/<game_id>/channels/<channel>/export")
class ChannelExport(MethodView):
    @blp.doc(operationId="exportChannel", security=OPTIONAL_BEARER,
             responses=json_lines("ExportLine", "the channel's messages, one JSON object a line, then its signed head"))
    @blp.response(200, description="JSON lines, each an ExportLine: one MessageSent per line with its hash "
                  "(stream_id talk-<game id>/<channel>), then the signed head: the chain and the head are "
                  "checked as a game's are (openapi/verifying-a-game.md, sections 3 and 6)",
                  content_type="application/x-ndjson")
    @declare(blp, "no-such-channel", "not-in-channel")
    def get(self, game_id, channel):
        """A channel's whole history with its hash chain and signed head, for
        those who read all of it (its members; the table: its players, and
        spectators where the host allowed them to read it)."""
        gid = parse_game_id(game_id)
        player = current_player(required=False)
        _watchable(gid, player)
        records, head = talk().export(gid, player, channel)
        lines = [json.dumps({"stream_id": r.stream_id, **log_entry(r)}, default=str) + "\n" for r in records]
        if head is not None:
            lines.append(json.dumps({"head": head}) + "\n")
        name = channel.replace(":", "-").replace("+", "-")
        return Response("".join(lines), mimetype="application/x-ndjson",
                        headers={"Content-Disposition": f'attachment; filename="game-{gid}-{name}.jsonl"'})


@blp.route("/<game_id>/channels/<channel>/read")
class ReadMark(MethodView):
    @blp.doc(operationId="markMessagesRead", security=BEARER)
    @blp.arguments(ReadMarkSchema)
    @blp.response(200, ReadStateSchema)
    @declare(blp, "no-such-channel", "not-in-channel")
    def put(self, body, game_id, channel):
        """Mark a channel read up to a version (default: all of it)."""
        gid = parse_game_id(game_id)
        player = current_player()
        _watchable(gid, player)
        return talk().mark_read(gid, player, channel, body.get("version"))


@blp.route("/<game_id>/mutes/<player_id>")
class Mute(MethodView):
    @blp.doc(operationId="mutePlayer", security=BEARER)
    @blp.response(200, MutesSchema)
    @declare(blp, "message-refused")
    def put(self, game_id, player_id):
        """Stop getting a player's messages in this game (for you only)."""
        return self._mute(game_id, player_id, True)

    @blp.doc(operationId="unmutePlayer", security=BEARER)
    @blp.response(200, MutesSchema)
    @declare(blp, "message-refused")
    def delete(self, game_id, player_id):
        """Get a player's messages in this game again."""
        return self._mute(game_id, player_id, False)

    @staticmethod
    def _mute(game_id, player_id, muted: bool):
        gid = parse_game_id(game_id)
        player = current_player()
        _watchable(gid, player)
        try:
            other = str(uuid.UUID(player_id))
        except ValueError:
            raise InvalidRequest(f"{player_id!r} is not a player id (a UUID)") from None
        return talk().mute(gid, player, other, muted)
