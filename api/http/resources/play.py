"""Playing: commands, the caller's view, legal commands and the event feed."""

from __future__ import annotations

import marshmallow as ma
from flask import Response, g, request
from flask.views import MethodView
from flask_smorest import Blueprint
from werkzeug.exceptions import BadRequest

from domain import session as sessions

from .. import access, game_schemas
from ..auth import BEARER, OPTIONAL_BEARER, current_player
from ..context import service, streams
from ..contract import declare, takes_idempotency_key
from ..errors import problem
from ..idempotency import idempotency_key
from ..replica_reads import cold_store
from ..game_contract import COMMAND_TEXTS, NAMES, TEXT, TEXTS, ref
from ...service.errors import InvalidRequest
from ...service.games import parse_game_id, stream_of
from ...service.idempotency import replay_headers
from ..http_conventions import next_page
from ..streaming import StreamLimit
from ..view_etags import MAX_VERSION, known_version, parse_version, view_etag
from ...service.views import command_texts, envelope, feed, legal_commands, named, told, viewer_seat
from .keys import receipt_field

blp = Blueprint("play", __name__, url_prefix="/v1/games", description="Act, see your view, follow the event feed")

MAX_WAIT = 60


class ActResultSchema(ma.Schema):
    game = ma.fields.String(required=True)
    version = ma.fields.Integer(required=True)
    status = ma.fields.String(required=True)
    to_act = ma.fields.List(ma.fields.String(), required=True)
    events = ma.fields.List(ma.fields.Dict(), required=True, metadata={"description": "the new events, as you may see them"})
    receipt = receipt_field("this command's last event (the answer's version)")
    texts = ma.fields.List(ma.fields.String(), required=True, metadata={"description": TEXTS})


class ViewArgs(ma.Schema):
    wait = ma.fields.Integer(
        validate=ma.validate.Range(0, MAX_WAIT),
        metadata={"description": "hold the request up to this many seconds until the game moves past the version in If-None-Match (or the current one)"},
    )
    at = ma.fields.Integer(
        validate=ma.validate.Range(1, MAX_VERSION),
        metadata={"description": "your view as it was at this version (once the game is over, everything at that "
                                 "version): a seat's holder sees his seat's, a new holder's too before he took it; "
                                 "one who resigned or was abandoned, his seat's before that and a spectator's "
                                 "from then on; a version in the middle of one move (events one decision wrote together) "
                                 "is a 422 naming the versions around it"},
    )


class SeatClockSchema(ma.Schema):
    """One seat's clock: its time bank and its turn's deadline."""

    bank_seconds = ma.fields.Float(allow_none=True, required=True,
                                   metadata={"description": "the seat's time bank as of computed_at; null without banks"})
    running = ma.fields.Boolean(required=True, metadata={"description": "the seat is to act, so its bank runs down from computed_at"})
    to_act_since = ma.fields.String(allow_none=True, required=True, metadata={
        "format": "date-time", "description": "since when the seat has been to act (ISO 8601), moved later by the length of any pause "
                                      "during its turn (its turn deadline keeps what was left of it); null when it is not"})
    turn_deadline = ma.fields.String(allow_none=True, required=True,
                                     metadata={"format": "date-time", "description": "since + turn_seconds, with deadline_per_seat"})


class ClocksSchema(ma.Schema):
    """The game's clocks: each seat's time bank and deadline, as of the last move."""

    computed_at = ma.fields.String(required=True, metadata={"format": "date-time",
                                                            "description": "when these figures were computed (the last move)"})
    seats = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.Nested(SeatClockSchema), required=True,
                           metadata={"description": "each seat's clock, keyed by seat"})


class ViewSchema(ma.Schema):
    game_id = ma.fields.UUID(required=True)
    game = ma.fields.String(required=True)
    rules_version = ma.fields.Integer(
        required=True,
        metadata={"description": "the version of the game's rules it is played under, for ever (GET /v1/rules/{game} "
                                 "names each version's change)"},
    )
    version = ma.fields.Integer(required=True)
    status = ma.fields.String(required=True)
    seat = ma.fields.String(allow_none=True, required=True, metadata={
        "description": "the seat whose view this is: yours; null for a spectator, and for a player who resigned or "
                       "was abandoned to a bot from that event on (before it, at ?at=, his seat's)"})
    to_act = ma.fields.List(ma.fields.String(), required=True)
    outcome = ma.fields.String(allow_none=True, required=True)
    standings = ma.fields.List(ma.fields.Dict(), allow_none=True, required=True)
    view = ma.fields.Dict(
        allow_none=True,
        required=True,
        metadata={"description": "the game as you may see it; null before the game starts (its schema is the game's *View)"},
    )
    bots = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.String(), required=True,
                          metadata={"description": "seats a bot plays (given to it at creation, resigned or abandoned), and its kind"})
    resigned = ma.fields.List(ma.fields.String(), required=True, metadata={"description": "seats that resigned, in order"})
    clocks = ma.fields.Nested(ClocksSchema, allow_none=True, required=True,
                              metadata={"description": "time banks and per-seat deadlines; null in a game without them"})
    rematch = ma.fields.UUID(allow_none=True, required=True, metadata={"description": "this game's rematch, once asked for"})
    receipt = receipt_field("the view's version")
    away = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.String(), required=True,
                          metadata={"description": "seats whose player is away (an absence), each until when (ISO 8601): "
                                    "no deadline runs for them"})
    paused = ma.fields.Boolean(required=True, metadata={"description": "the game is paused by its players' agreement: "
                                                        "no deadline runs, nobody moves"})
    names = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.String(), required=True,
                           metadata={"description": NAMES})
    contributions = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.String(), required=True, metadata={
        "description": "each seat's contribution to the randomness as recorded (SeedContributed), as the SHA-256 of "
                       "its bytes (64 hex): before agreeing to start, a contributor checks his is there, unchanged; "
                       "one missing was refused, and a server that may refuse contributions may choose among "
                       "deals (openapi/verifying-a-game.md, section 4.2). The start's receipt covers them all"})


class LegalCommandsSchema(ma.Schema):
    game = ma.fields.String(required=True)
    version = ma.fields.Integer(required=True)
    seat = ma.fields.String(allow_none=True, required=True)
    commands = ma.fields.List(ma.fields.Dict(), required=True)
    texts = ma.fields.List(ma.fields.String(), required=True, metadata={"description": COMMAND_TEXTS})


class FeedArgs(ma.Schema):
    after = ma.fields.Integer(load_default=0, validate=ma.validate.Range(0, MAX_VERSION))
    limit = ma.fields.Integer(load_default=100, validate=ma.validate.Range(1, 1000))


class FeedEventSchema(ma.Schema):
    version = ma.fields.Integer(required=True)
    type = ma.fields.String(required=True)
    recorded_at = ma.fields.DateTime(required=True)
    seat = ma.fields.String(allow_none=True, required=True, metadata={"description": "the seat whose action this was"})
    decided_at = ma.fields.Integer(required=True, metadata={
        "description": "the version the decision that wrote this event was taken at (one decision may write several "
                       "events): the game rested at a version when it is the last one or the next event's decided_at "
                       "is that version, and only such versions can be viewed with ?at="})
    data = ma.fields.Dict(required=True)
    receipt = receipt_field("this event's version")
    text = ma.fields.String(required=True, metadata={"description": TEXT})


class FeedSchema(ma.Schema):
    game = ma.fields.String(required=True)
    version = ma.fields.Integer(required=True, metadata={"description": "the game's version now"})
    events = ma.fields.List(ma.fields.Nested(FeedEventSchema), required=True)
    next_after = ma.fields.Integer(required=True, metadata={"description": "pass as ?after= for the next page"})


def typed_as(component: str):
    """Document the 200 answer as the per-game union ``component`` of
    api/http/game_contract.py; the marshmallow schema still shapes the JSON."""
    return blp.doc(responses={200: {"content": {"application/json": {"schema": ref(component)}}}})


def _command_body():
    if not request.get_data(cache=True):
        raise BadRequest('send the command as a JSON object in the body, such as {"type": "..."}; '
                         "GET legal-commands lists those you may send")
    try:
        return request.get_json()
    except BadRequest:
        raise BadRequest("the body is not valid JSON: send the command as a JSON object") from None


def if_match_version(header: str | None) -> int | None:
    """The version an If-Match header pins, None for none or ``*``."""
    if header is None or header.strip() == "*":  # "*": any version will do (RFC 9110)
        return None
    version = parse_version(header.strip().removeprefix("W/").strip('"').split("-")[0])
    if version is None:
        raise InvalidRequest("If-Match must be a game version, as in the view's ETag")
    return version


def command_answer(svc, gid):
    """How a command's answer is shaped, by the view and before Flask
    (api/http/commands_fast.py): ``respond`` of ``GameService.act``; the
    view's ``ActResultSchema`` then dumps it."""

    def respond(session, events, seat):
        rules = svc.rules_of_session(session)
        shown = [sessions.visible(rules, session, event, seat) for event in events]
        texts = [told(rules, session, {"type": type(event).__name__, **visible}, seat)
                 for event, visible in zip(events, shown)]
        return {
            "game": session.game,
            "version": session.version,
            "status": session.status,
            "to_act": sorted(sessions.to_act(rules, session)),
            "events": shown,
            "texts": svc.player_names.say(session, texts),
            "receipt": svc.heads.receipt_for(gid, session),
        }

    return respond


@blp.route("/<game_id>/commands")
class Commands(MethodView):
    @blp.doc(
        security=BEARER,
        operationId="sendCommand",
        **takes_idempotency_key(),
        parameters=[
            {"in": "header", "name": "If-Match", "schema": {"type": "string"},
             "description": "act only if the game is still at this version (412 otherwise). Accepted forms: the "
                            "view's ETag as it came (`\"12-3f9a0c1b2d4e\"`, or weak: `W/\"12-3f9a0c1b2d4e\"`), "
                            "a quoted version (`\"12\"`), a bare version (`12`), or `*` (any version: the same "
                            "as no If-Match). Only the version before the first `-` is read; anything else is "
                            "a 422 invalid-request"},
        ],
        requestBody={"required": True, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Command"}}}},
    )
    @blp.response(200, ActResultSchema)
    @typed_as("CommandResponse")
    @declare(blp, "bad-request", "seat-required", "not-your-turn", "game-moved", "precondition-failed",
             "invalid-request", "unknown-command-type", "illegal-command", "lobby-refused", "idempotency-key-reused",
             "seat-played-by-bot", "game-paused")
    def post(self, game_id):
        """Send a command for your seat (its schema: the game's commands, a union on `type`)."""
        gid = parse_game_id(game_id)
        player = current_player()
        access.check_cheaply(gid, player)
        body = _command_body()
        key = idempotency_key()
        messages = game_schemas.validate_command(service().game_of(gid), body)
        if messages:
            if game_schemas.UNKNOWN_TYPE in messages:
                raise InvalidRequest(f"{messages['type'][0]}", kind="unknown-command-type", errors=messages)
            raise InvalidRequest("the command does not match its schema", errors=messages)

        answer = service().act(gid, player, body, if_match_version(request.headers.get("If-Match")), key,
                               command_answer(service(), gid))
        return answer, 200, replay_headers(answer)


_VIEW_ARGS = ViewArgs()


def _view_args() -> dict:
    if not request.args:
        return {}
    try:
        return _VIEW_ARGS.load(request.args)
    except ma.ValidationError as error:
        raise InvalidRequest("the query does not match its schema", errors=error.messages) from None


def _not_modified(version: int, player) -> Response:
    return Response(status=304, headers={"ETag": view_etag(version, player)})


@blp.route("/<game_id>/view")
class View(MethodView):
    @blp.doc(
        security=OPTIONAL_BEARER,
        operationId="getView",
        parameters=[
            {"in": "header", "name": "If-None-Match", "schema": {"type": "string"},
             "description": "the ETag you hold: 304 when the game has not moved"},
            {"in": "query", "name": "wait", "schema": {"type": "integer", "minimum": 0, "maximum": MAX_WAIT},
             "description": ViewArgs._declared_fields["wait"].metadata["description"]},
            {"in": "query", "name": "at", "schema": {"type": "integer", "minimum": 1, "maximum": MAX_VERSION},
             "description": ViewArgs._declared_fields["at"].metadata["description"]},
        ],
    )
    @blp.response(200, ViewSchema)
    @typed_as("ViewResponse")
    @blp.alt_response(304, description="the game has not moved since the ETag you sent")
    @declare(blp, "too-many-waiters", "server-busy")
    def get(self, game_id):
        """Your view of the game (spectators: the public view; after the end: everything)."""
        # Parsed by hand, not by @blp.arguments: this is the endpoint players
        # poll, and webargs' machinery cost more than the rest of a 304.
        args = _view_args()
        gid = parse_game_id(game_id)
        player = current_player(required=False)
        # A herd of polls on a game this process does not hold yet shares one load and one version read.
        shared = streams().shared
        access.check_cheaply(gid, player, load=shared.session)
        if "at" in args:
            # Stored versions never change: a replica that has this one answers.
            store = cold_store(stream_of(gid), args["at"])
            rules, session = service().history.load_at(gid, args["at"], store)
            now = service().load(gid)[1]
            # Who sees which seat is the game's now, applied to that version (a
            # replacement sees the seat's past; a resigner keeps what he saw).
            # Who held the seats then names them: a past version's answer never changes.
            answer = envelope(gid, rules, session, viewer_seat(now, player, session.version), now.over,
                              service().player_names.naming(session))
            ended = now.over
            answer["receipt"] = service().heads.receipt_for(gid, session, ended=ended)
            return answer, 200, {"ETag": view_etag(session.version, player) if not ended else view_etag(session.version, "*")}
        known = known_version(request.if_none_match.as_set(), player)
        current = shared.version(gid)
        if current == 0:
            raise access.unknown(gid)
        if request.if_none_match.star_tag:  # "*": the game as it is now is known (RFC 9110)
            known = current
        waited = False
        if args.get("wait") and current == (known if known is not None else current):
            try:
                current = streams().wait_for_version(stream_of(gid), current, args["wait"], g.get("token_id"))
            except StreamLimit as error:
                return problem(error.status, error.detail, kind=error.kind, headers={"Retry-After": str(error.retry_after)})
            waited = True
        if known is not None and current == known:
            return _not_modified(current, player)
        # Waiters woken by one move share one load and one view per seat.
        rules, session = shared.session(gid, current) if waited else service().load(gid)
        if known is not None and session.version == known:
            return _not_modified(known, player)
        text = shared.view_json(gid, rules, session, viewer_seat(session, player))
        return Response(text + "\n", mimetype="application/json", headers={"ETag": view_etag(session.version, player)})


@blp.route("/<game_id>/legal-commands")
class LegalCommands(MethodView):
    @blp.doc(security=BEARER, operationId="listLegalCommands")
    @blp.response(200, LegalCommandsSchema)
    @typed_as("LegalCommandsResponse")
    def get(self, game_id):
        """Every command you may send now (empty when it is not your turn)."""
        gid = parse_game_id(game_id)
        return legal_commands_answer(service(), gid, current_player())


def legal_commands_answer(svc, gid, player: str) -> dict:
    """The legal commands' answer, by the view and before Flask
    (api/http/legal_fast.py); the view's ``LegalCommandsSchema`` then dumps it."""
    rules, session = svc.load_for_reading(gid)  # as fresh as a poll: mostly no query
    access.check(session, gid, player)
    seat = viewer_seat(session, player)
    commands = legal_commands(rules, session, seat)
    if not commands and seat is not None:
        # The held game may lag another process's commit by its NOTIFY: the
        # player whose turn that commit made it would be told "nothing" in
        # the meantime. A seat that would get nothing asks the stored game.
        rules, session = svc.load(gid)
        seat = viewer_seat(session, player)
        commands = legal_commands(rules, session, seat)
    texts = command_texts(rules, commands, svc.player_names.naming(session))
    return {"game": session.game, "version": session.version, "seat": seat, "commands": commands, "texts": texts}


@blp.route("/<game_id>/events")
class Events(MethodView):
    @blp.doc(security=OPTIONAL_BEARER, operationId="listEvents")
    @blp.arguments(FeedArgs(), location="query")
    @blp.response(200, FeedSchema)
    @typed_as("FeedResponse")
    def get(self, args, game_id):
        """The event feed, each event as you may see it, from ?after= on."""
        gid = parse_game_id(game_id)
        player = current_player(required=False)
        rules, session = service().load(gid)
        access.check(session, gid, player)
        records = service().store.read_stream(stream_of(gid), args["after"] + 1, args["after"] + args["limit"])
        events = feed(rules, session, records, player)
        named(events, service().player_names.naming(session, [event["text"] for event in events]))
        for event, record in zip(events, records):
            event["receipt"] = service().heads.receipt_for(gid, session, record.version, record.hash)
        next_after = args["after"] + len(events)
        # A full page may have more behind it (a page cut short by what you may not see has none).
        headers = next_page(args, after=next_after) if len(records) == args["limit"] else {}
        return {"game": session.game, "version": session.version, "events": events,
                "next_after": next_after}, 200, headers
