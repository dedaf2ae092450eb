"""Audit: the hash chain for anyone; after the end, the whole log, the seed
and a re-run of every decision."""

from __future__ import annotations

import json
import re

import marshmallow as ma
from flask import Response
from flask.views import MethodView
from flask_smorest import Blueprint

from domain.audit import rerun
from domain.engine import UnreadableHistory as EngineUnreadable

from .. import access
from ..auth import OPTIONAL_BEARER, current_player
from ..context import service
from ..replica_reads import cold_store
from ...audit.receipt_check import BadReceipts, chain_version_of, check_receipts, compare
from ...service import readmodels
from ...service.errors import Conflict, InvalidRequest, UnreadableHistory
from ..contract import declare
from ..game_contract import DETAIL
from ...service.games import parse_game_id, stream_of
from .keys import ReceiptSchema
from .games import summary

OVER = ("scoring", "finished")  # statuses of a game whose seed and log are public
VERDICTS = ("VERIFIED", "NOT VERIFIED", "NOT OVER")

blp = Blueprint("audit", __name__, url_prefix="/v1/games", description="Verify a game: hash chain, seed, every random outcome")


class ChainSchema(ma.Schema):
    """The hash chain checked over the events as stored, never decoded
    (openapi/verifying-a-game.md, section 3)."""

    ok = ma.fields.Boolean(required=True, metadata={
        "description": "every link holds and the stream's head is its last event's: nothing was changed, "
                       "inserted, removed or cut off the end"})
    checked = ma.fields.Integer(required=True, metadata={
        "description": "how many events, from version 1, were found intact before the first broken link "
                       "(all of them when ok)"})
    broken_at = ma.fields.Integer(allow_none=True, required=True, metadata={
        "description": "the first version whose link fails (missing, changed, or cut off the end); null when ok"})
    reason = ma.fields.String(allow_none=True, required=True, metadata={
        "description": "what is wrong at broken_at, in an English sentence; null when ok"})


class RerunSchema(ma.Schema):
    """A finished game decided again: the published seed against its
    commitment, then every batch with the game's rules and the seed,
    compared with what the log recorded (section 7)."""

    ok = ma.fields.Boolean(required=True, metadata={
        "description": "every check held: the log is exactly what the rules and the seed decide"})
    batches = ma.fields.Integer(required=True, metadata={
        "description": "how many batches (the events of one decision of one seat, section 5.2) were decided again"})
    problems = ma.fields.List(ma.fields.String(), required=True, metadata={
        "description": "what did not hold, an English sentence each, most naming the version; empty when ok"})


class CheckedStandingSchema(ma.Schema):
    """One seat's final standing, as the re-run checked it."""

    seat = ma.fields.String(required=True, metadata={"description": "the seat's name, as in the game's seats"})
    rank = ma.fields.Integer(required=True, metadata={"description": "1 for the winner; equal ranks share a place"})
    score = ma.fields.Float(allow_none=True, required=True, metadata={
        "description": "the seat's score as the game counts it; null for a seat that resigned, or when the game "
                       "ended by resignation before the rules scored it"})
    detail = ma.fields.Dict(required=True, metadata={"description": DETAIL})
    player = ma.fields.String(allow_none=True, required=True,
                              metadata={"description": "the player who held the seat at the end; null for none"})


class LogEntrySchema(ma.Schema):
    """One stored event of a game's log, as hashed (openapi/verifying-a-game.md, section 1)."""

    version = ma.fields.Integer(required=True, metadata={"description": "1 for the first event, +1 for each next one"})
    event_id = ma.fields.UUID(required=True, metadata={"description": "the event's unique id (hashed)"})
    type = ma.fields.String(required=True, metadata={"description": "the event's type (GameCreated, SeatTaken, ...)"})
    schema_version = ma.fields.Integer(required=True, metadata={"description": "the shape of data for that type"})
    data = ma.fields.Dict(required=True, metadata={
        "description": "the event, hashed as written: the fields its type's schema names (`{Game}{type}`, such as "
                       "CronbergBuildingPlaced, or the engine's `{type}`, such as SeatTaken), without `type` itself"})
    metadata = ma.fields.Dict(required=True, metadata={
        "description": "who caused it and how: actor, seat, command, decided_at, and salt, draws, to_act... "
                       "(section 5)"})
    recorded_at = ma.fields.DateTime(required=True, metadata={
        "description": "the server's clock at commit (UTC); not hashed"})
    hash = ma.fields.String(required=True, metadata={
        "pattern": "^[0-9a-f]{64}$", "description": "the chain link after this event (section 3)"})


class ExportEventSchema(LogEntrySchema):
    """One event of an export (openapi/verifying-a-game.md, section 1)."""

    stream_id = ma.fields.String(required=True, metadata={"description": '"game-" + the game id'})


# An export's line is JSON text written by json.dumps: recorded_at is the
# datetime's str(), not an ISO 8601 date-time.
ExportEventSchema._declared_fields.update({
    "recorded_at": ma.fields.String(required=True, metadata={"description": "the server's clock at commit; not hashed"}),
})


class ExportHeadSchema(ReceiptSchema):
    """The signed final head of an export: the receipt of its last event,
    with the public key that verifies it (section 6.5)."""

    public_key = ma.fields.String(required=True, metadata={
        "pattern": "^[0-9a-f]{64}$", "description": "the raw Ed25519 public key of key_id (64 hex)"})


class ExportHeadLineSchema(ma.Schema):
    """The last line of an export of a game of chain version 2: its signed final head."""

    head = ma.fields.Nested(ExportHeadSchema, required=True, metadata={
        "description": "the receipt of the export's last event, signed by the server, with its public key"})


EXPORT_LINE = {
    "description": "one line of an export: an event, or (last, chain version 2) the signed final head; "
                   "openapi/verifying-a-game.md defines every byte a verifier checks",
    "oneOf": [{"$ref": "#/components/schemas/ExportEvent"}, {"$ref": "#/components/schemas/ExportHeadLine"}],
}


def json_lines(line_schema: str, description: str) -> dict:
    """The 200 content of an export: JSON lines (application/x-ndjson). The
    body as a whole is a byte stream, not one JSON value, so its schema says
    so (a client reads it as bytes, never parses it as one JSON document);
    each line's schema is named in ``x-item-schema`` (what OpenAPI 3.2 calls
    ``itemSchema`` for sequential media types) and in the description."""
    return {"200": {"content": {"application/x-ndjson": {
        "schema": {"type": "string", "format": "binary",
                   "description": f"{description}; each line is a `{line_schema}` (x-item-schema)"},
        "x-item-schema": {"$ref": f"#/components/schemas/{line_schema}"}}}}}


def document(api) -> None:
    """The export's line schemas (JSON lines cannot be one JSON schema; each line is an ExportLine)."""
    components = api.spec.components
    components.schema("ExportEvent", schema=ExportEventSchema)
    components.schema("ExportHeadLine", schema=ExportHeadLineSchema)
    components.schema("ExportLine", EXPORT_LINE)


RECEIPT_TEXT = re.compile(r"([0-9]{1,10}):([0-9a-f]{64})(?::([0-9a-f]{16}):([0-9a-f]{128}))?")


class AuditArgs(ma.Schema):
    # The pattern states what _parsed_receipts refuses (issue 35's schemathesis finding: an undeclared constraint).
    receipt = ma.fields.List(ma.fields.String(validate=ma.validate.Length(max=240),
                                              metadata={"pattern": "^" + RECEIPT_TEXT.pattern + "$"}), load_default=list,
                             validate=ma.validate.Length(max=1000), metadata={
        "description": "a receipt you kept, as <version>:<hash>, or <version>:<hash>:<key_id>:<signature> to have its "
                       "signature checked too; repeat it for each receipt. The answer's `receipts` says whether the "
                       "history agrees with every one, naming the first version where it does not"})


class ReceiptsCheckSchema(ma.Schema):
    """Whether the history agrees with the receipts given as ?receipt= (section 6.6)."""

    ok = ma.fields.Boolean(required=True, metadata={"description": "the history agrees with every receipt given"})
    checked = ma.fields.Integer(required=True, metadata={"description": "how many receipts were compared"})
    disagrees_at = ma.fields.Integer(allow_none=True, required=True, metadata={
        "description": "the lowest version whose receipt the history contradicts: it was changed at or before it"})
    agrees_up_to = ma.fields.Integer(allow_none=True, required=True, metadata={
        "description": "the highest version below disagrees_at (or of all, when ok) whose receipt the history agrees with"})
    reason = ma.fields.String(allow_none=True, required=True, metadata={
        "description": "what the disagreement shows, in an English sentence (changed, or cut off the end); null when ok"})


class AuditSchema(ma.Schema):
    """A game checked: its hash chain for anyone who may see it; once it is
    over, its seed, a re-run of every decision and the whole log."""

    game_id = ma.fields.UUID(required=True, metadata={"description": "the game's id"})
    status = ma.fields.String(required=True, metadata={
        "description": "the game's status: lobby, active, scoring, finished or cancelled"})
    version = ma.fields.Integer(required=True, metadata={"description": "how many events the game has"})
    seed_sha256 = ma.fields.String(required=True, metadata={
        "description": "the commitment GameCreated recorded: the SHA-256 of the secret seed's 32 bytes, 64 hex "
                       "(section 4.1); empty when a damaged log holds none"})
    chain = ma.fields.Nested(ChainSchema, required=True, metadata={"description": "the hash chain, checked now"})
    seed = ma.fields.String(allow_none=True, required=True, metadata={"description": "published when the game ends"})
    rerun = ma.fields.Nested(RerunSchema, allow_none=True, required=True, metadata={
        "description": "every decision decided again; null until the game is over, and when the chain is broken"})
    standings = ma.fields.List(ma.fields.Nested(CheckedStandingSchema), allow_none=True, required=True, metadata={
        "description": "the standings the re-run checked (GameScored), a seat each; null until they are recorded"})
    log = ma.fields.List(ma.fields.Nested(LogEntrySchema), allow_none=True, required=True, metadata={
        "description": "every stored event, oldest first (a damaged log as stored); null until the game is over"})
    receipts = ma.fields.Nested(ReceiptsCheckSchema, allow_none=True, required=True,
                                metadata={"description": "with ?receipt=: whether the history agrees with them"})
    verdict = ma.fields.String(required=True, validate=ma.validate.OneOf(VERDICTS), metadata={
        "description": "what the checks above add up to, as `boardlog audit` says it offline: VERIFIED (the game "
                       "is over, and its chain, every decision re-run and the receipts given all hold), NOT VERIFIED "
                       "(one of them does not: chain, rerun or receipts names where), or NOT OVER (nothing failed, "
                       "but the decisions are re-run only once the game ends)"})


def log_entry(record) -> dict:
    return {
        "version": record.version,
        "event_id": record.event_id,
        "type": record.type,
        "schema_version": record.schema_version,
        "data": record.data,
        "metadata": record.metadata,
        "recorded_at": record.recorded_at,
        "hash": record.hash,
    }


def _records(records) -> list[dict]:
    return [{"type": r.type, "schema_version": r.schema_version, "data": r.data, "metadata": r.metadata} for r in records]


def _parsed_receipts(gid, texts: list[str]) -> list[dict]:
    """The ?receipt= values as receipts; a signed one must be this game's, by one of this server's keys."""
    receipts, signed = [], []
    for index, text in enumerate(texts, 1):
        match = RECEIPT_TEXT.fullmatch(text)
        if match is None:
            raise InvalidRequest(f"receipt {index} ({text[:80]!r}) is not <version>:<hash> or "
                                 "<version>:<hash>:<key_id>:<signature> (lowercase hex)", kind="receipt-invalid")
        version, hash_hex, key_id, signature = match.groups()
        receipt = {"stream_id": stream_of(gid), "version": int(version), "hash": hash_hex}
        receipts.append(receipt)
        if key_id:
            signed.append({**receipt, "key_id": key_id, "signature": signature})
    if signed:
        keys = {key.key_id: key.public_key for key in service().signer.keys()}
        try:
            check_receipts(signed, stream_of(gid), keys)
        except BadReceipts as error:
            raise InvalidRequest(f"{error} (a receipt of another game does not hold for this one)",
                                 kind="receipt-invalid") from None
    return receipts


def _compared(store, gid, receipts) -> dict:
    """Receipts against the rows as stored, read now (never decoded)."""
    records = store.read_stream(stream_of(gid))
    if records and chain_version_of(records) < 2 and summary(gid)["status"] not in OVER:
        raise Conflict("this game was recorded before receipts (chain version 1): its heads could reveal hidden "
                       "information, so none is compared until it is over", kind="receipts-not-shown")
    return compare({r.version: r.hash for r in records}, receipts)


def _published_seed(gid) -> str | None:
    with service().pool.connection() as conn:
        seed = readmodels.seed_of(conn, gid)
    return seed.hex() if seed else None


@blp.route("/<game_id>/audit")
class Audit(MethodView):
    @blp.doc(operationId="auditGame", security=OPTIONAL_BEARER)
    @blp.arguments(AuditArgs, location="query")
    @blp.response(200, AuditSchema)
    @declare(blp, "receipt-invalid", "receipts-not-shown")
    def get(self, args, game_id):
        """Verify the hash chain; once the game is over, also the seed and every decision; with ?receipt=,
        whether the history agrees with the receipts a player kept (a recomputed chain is intact, but
        contradicts them)."""
        gid = parse_game_id(game_id)
        stored = summary(gid)  # the read model: nothing decoded
        access.check_summary(stored, gid, current_player(required=False))
        receipts = _parsed_receipts(gid, args["receipt"])
        # The rows as the primary has them now: from a replica that has them all.
        store = cold_store(stream_of(gid))
        # The chain first, over the rows as stored: an event changed behind the
        # server's back may not even decode, and the audit exists to name it.
        chain = store.verify(stream_of(gid))
        answer = {
            "game_id": gid,
            "status": stored["status"],
            "version": stored["version"],
            "seed_sha256": "",
            "chain": {"ok": chain.ok, "checked": chain.checked, "broken_at": chain.broken_at, "reason": chain.reason},
            "seed": None,
            "rerun": None,
            "standings": None,
            "log": None,
            "receipts": _compared(store, gid, receipts) if receipts else None,
        }
        if not chain.ok:
            # Nothing in a damaged log can be trusted, so nothing is decoded or
            # re-run; once the game is over, the rows as stored, for a person.
            records = store.read_stream(stream_of(gid))
            created = records[0].data if records and isinstance(records[0].data, dict) else {}
            over = stored["status"] in OVER
            answer.update(seed_sha256=str(created.get("seed_sha256", "")), seed=_published_seed(gid) if over else None,
                          log=[log_entry(r) for r in records] if over else None)
            return _with_verdict(answer)
        try:
            rules, session = service().load(gid)
        except UnreadableHistory as error:  # the chain vouches for the rows; they do not replay
            if stored["status"] in OVER:
                _rerun_stored(answer, store, gid, stored["status"], error.message)
            else:
                answer["rerun"] = {"ok": False, "batches": 0, "problems": [error.message]}
            return _with_verdict(answer)
        answer.update(status=session.status, version=session.version, seed_sha256=session.seed_sha256)
        if session.over:
            _rerun_stored(answer, store, gid, stored["status"])
        return _with_verdict(answer)


def _rerun_stored(answer: dict, store, gid, status: str, unread: str | None = None) -> None:
    """An over game's every decision decided again from the rows as stored
    now, whatever this process holds of it (an operator may have rewritten
    them since, the chain recomputed): the rerun names the first version
    that does not replay. ``unread``: why this server could not load the
    game, said when the rerun cannot read the rows either (rules or shapes
    this installation lacks)."""
    records = store.read_stream(stream_of(gid))
    created = records[0].data if isinstance(records[0].data, dict) else {}
    answer.update(seed_sha256=str(created.get("seed_sha256", "")), seed=_published_seed(gid),
                  log=[log_entry(r) for r in records])
    try:
        # A game the read model calls finished must hold its standings.
        result = rerun(service().rules_of_stream(records), _records(records), complete=status == "finished")
    except (EngineUnreadable, UnreadableHistory) as error:
        answer["rerun"] = {"ok": False, "batches": 0, "problems": [unread or str(error)]}
        return
    answer.update(rerun=result.to_json(), standings=checked_standings(result.session))
    if result.session is not None and result.session.seed:
        answer["seed"] = result.session.seed  # the seed the log published


def _with_verdict(answer: dict) -> dict:
    """The answer with what its checks add up to (VERDICTS)."""
    checks = [answer["chain"]["ok"], (answer["rerun"] or {}).get("ok", True), (answer["receipts"] or {}).get("ok", True)]
    if not all(checks):
        verdict = "NOT VERIFIED"
    else:
        verdict = "VERIFIED" if answer["rerun"] is not None else "NOT OVER"
    return {**answer, "verdict": verdict}


def checked_standings(session) -> list[dict] | None:
    if session is None or not session.standings:
        return None
    return [{**standing, "player": session.players.get(standing["seat"])} for standing in session.standings]


@blp.route("/<game_id>/export")
class Export(MethodView):
    @blp.doc(operationId="exportGame", security=OPTIONAL_BEARER,
             responses=json_lines("ExportLine", "the game's events, one JSON object a line, then its signed head"))
    @blp.response(200, description="JSON lines, each an ExportLine: one event per line with its hash, then (new "
                  "games) the signed final head; `boardlog audit FILE` and tests/verifier/verify.mjs check it",
                  content_type="application/x-ndjson")
    @declare(blp, "game-not-over")
    def get(self, game_id):
        """The whole finished game as JSON lines, for offline audit; once its standings are recorded."""
        gid = parse_game_id(game_id)
        # The rows as stored, never decoded: a damaged log is exported too, and
        # `boardlog audit` names the break.
        stored = summary(gid)
        access.check_summary(stored, gid, current_player(required=False))
        status = stored["status"]
        if status not in OVER:
            raise Conflict("the game is not over: its log is exported once it ends", kind="game-not-over")
        if status == "scoring":
            # An export ends in the standings, and an audit refuses one that does not.
            raise Conflict("the game is over but its standings are still being computed: it can be exported once "
                           "they are recorded, in a few seconds", kind="game-not-over")
        records = cold_store(stream_of(gid)).read_stream(stream_of(gid))
        lines = [json.dumps({"stream_id": stream_of(gid), **log_entry(r)}, default=str) + "\n" for r in records]
        if records and chain_version_of(records) >= 2:  # the signed final head: a cut-off export is refused offline
            lines.append(json.dumps({"head": service().heads.signed_head(gid, records[-1].version, records[-1].hash)}) + "\n")
        return Response("".join(lines), mimetype="application/x-ndjson",
                        headers={"Content-Disposition": f'attachment; filename="game-{gid}.jsonl"'})
