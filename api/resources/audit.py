"""Audit: the hash chain for anyone; after the end, the whole log, the seed
and a re-run of every decision."""

from __future__ import annotations

import json

import marshmallow as ma
from flask import Response
from flask.views import MethodView
from flask_smorest import Blueprint

from domain.audit import rerun

from ..context import service
from ..contract import declare
from ..service.errors import Conflict
from ..service.games import parse_game_id, stream_of

blp = Blueprint("audit", __name__, url_prefix="/v1/games", description="Verify a game: hash chain, seed, every random outcome")


class ChainSchema(ma.Schema):
    ok = ma.fields.Boolean(required=True)
    checked = ma.fields.Integer(required=True)
    broken_at = ma.fields.Integer(allow_none=True, required=True)
    reason = ma.fields.String(allow_none=True, required=True)


class RerunSchema(ma.Schema):
    ok = ma.fields.Boolean(required=True)
    batches = ma.fields.Integer(required=True)
    problems = ma.fields.List(ma.fields.String(), required=True)


class LogEntrySchema(ma.Schema):
    version = ma.fields.Integer(required=True)
    event_id = ma.fields.UUID(required=True)
    type = ma.fields.String(required=True)
    schema_version = ma.fields.Integer(required=True)
    data = ma.fields.Dict(required=True)
    metadata = ma.fields.Dict(required=True)
    recorded_at = ma.fields.DateTime(required=True)
    hash = ma.fields.String(required=True)


class AuditSchema(ma.Schema):
    game_id = ma.fields.UUID(required=True)
    status = ma.fields.String(required=True)
    version = ma.fields.Integer(required=True)
    seed_sha256 = ma.fields.String(required=True)
    chain = ma.fields.Nested(ChainSchema, required=True)
    seed = ma.fields.String(allow_none=True, required=True, metadata={"description": "published when the game ends"})
    rerun = ma.fields.Nested(RerunSchema, allow_none=True, required=True)
    log = ma.fields.List(ma.fields.Nested(LogEntrySchema), allow_none=True, required=True)


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
    return [{"type": r.type, "data": r.data, "metadata": r.metadata} for r in records]


@blp.route("/<game_id>/audit")
class Audit(MethodView):
    @blp.doc(operationId="auditGame")
    @blp.response(200, AuditSchema)
    def get(self, game_id):
        """Verify the hash chain; once the game is over, also the seed and every decision."""
        gid = parse_game_id(game_id)
        rules, session = service().load(gid)
        chain = service().store.verify(stream_of(gid))
        answer = {
            "game_id": gid,
            "status": session.status,
            "version": session.version,
            "seed_sha256": session.seed_sha256,
            "chain": {"ok": chain.ok, "checked": chain.checked, "broken_at": chain.broken_at, "reason": chain.reason},
            "seed": None,
            "rerun": None,
            "log": None,
        }
        if session.over:
            records = service().store.read_stream(stream_of(gid))
            answer.update(seed=session.seed, rerun=rerun(rules, _records(records)).to_json(), log=[log_entry(r) for r in records])
        return answer


@blp.route("/<game_id>/export")
class Export(MethodView):
    @blp.doc(operationId="exportGame")
    @blp.response(200, description="JSON lines: one event per line with its hash; `boardlog audit FILE` checks it",
                  content_type="application/x-ndjson")
    @declare(blp, "game-not-over")
    def get(self, game_id):
        """The whole finished game as JSON lines, for offline audit."""
        gid = parse_game_id(game_id)
        _, session = service().load(gid)
        if not session.over:
            raise Conflict("the game is not over: its log is exported once it ends", kind="game-not-over")
        records = service().store.read_stream(stream_of(gid))
        lines = (json.dumps({"stream_id": stream_of(gid), **log_entry(r)}, default=str) + "\n" for r in records)
        return Response("".join(lines), mimetype="application/x-ndjson",
                        headers={"Content-Disposition": f'attachment; filename="game-{gid}.jsonl"'})
