"""Every error leaves as application/problem+json (RFC 9457) with a sentence
a person can act on; nothing else shapes an error response."""

from __future__ import annotations

import logging

import marshmallow as ma
from flask import Response, json
from werkzeug.exceptions import HTTPException

from domain.engine import IllegalCommand, InvalidOption, NotYourTurn, UnreadableHistory
from domain.session import LobbyRefusal, NotSeated

from . import problems
from ..service import errors

log = logging.getLogger("boardlog.api")
PROBLEM = "application/problem+json"

_STATUS = {
    errors.NotFound: 404,
    errors.Forbidden: 403,
    errors.Unauthorized: 401,
    errors.Conflict: 409,
    errors.TooManyTokens: 409,
    errors.PreconditionFailed: 412,
    errors.IdempotencyMismatch: 422,
    errors.AnswerForgotten: 410,
    errors.InvalidRequest: 422,
    errors.DamagedHistory: 409,
    errors.UnreadableHistory: 500,
    errors.TooMany: 429,
}


class ProblemSchema(ma.Schema):
    """An RFC 9457 problem document."""

    type = ma.fields.String(metadata={"description": "a URI naming the kind of problem"})
    title = ma.fields.String(metadata={"description": "the kind of problem, for people"})
    status = ma.fields.Integer(metadata={"description": "the response's HTTP status, repeated"})
    detail = ma.fields.String(metadata={"description": "what went wrong this time, and what to do"})
    errors = ma.fields.Dict(metadata={"description": "field-level messages for a request that failed validation"})
    version = ma.fields.Integer(metadata={"description": "the game's current version, when that is the problem"})
    broken_at = ma.fields.Integer(metadata={"description": "the first version whose stored event fails the hash chain"})
    files = ma.fields.List(ma.fields.Dict(), metadata={
        "description": "data-file-not-found: the game's data files there are, each {name, sha256}"})
    option = ma.fields.String(metadata={"description": "the option refused (invalid-option): its name, or a path into "
                                                       "it such as `bots.p2`"})


def problem(status: int, detail: str, kind: str | None = None, headers: dict | None = None, **extra) -> Response:
    """``kind``: a slug of api/http/problems.py; without one, the status's generic
    type, or ``about:blank`` (RFC 9457: nothing more than the status says)."""
    response = Response(json.dumps(problem_body(status, detail, kind, **extra)) + "\n", status=status,
                        mimetype=PROBLEM)
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def problem_body(status: int, detail: str, kind: str | None = None, **extra) -> dict:
    """The problem document itself (also the data of a stream's last ``problem`` message)."""
    from http import HTTPStatus

    registered = problems.get(kind) if kind else problems.for_status(status)
    if kind and registered is None:
        log.warning("problem kind %r is not registered in api/http/problems.py", kind)
    return {
        "type": registered.uri if registered else (problems.BASE + kind if kind else "about:blank"),
        "title": registered.title if registered else HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
        **extra,
    }


def from_http_exception(error: HTTPException) -> Response:
    data = getattr(error, "data", None) or {}
    detail = data.get("message") or error.description or error.name
    extra = {}
    field_errors = data.get("errors") or data.get("messages")
    if field_errors:
        extra["errors"] = _flatten_locations(field_errors)
        detail = "the request does not match its schema: " + _summary(extra["errors"])
    headers = dict(data.get("headers") or {})
    if error.code == 405 and error.valid_methods:
        headers["Allow"] = ", ".join(error.valid_methods)
    if error.code == 500:
        log.error("internal error: %s", error.original_exception if hasattr(error, "original_exception") else error)
        detail = "the server failed; this is a bug and has been logged"
    return problem(error.code or 500, detail, headers=headers, **extra)


def from_service_error(error: errors.ServiceError) -> Response:
    status = next((_STATUS[cls] for cls in type(error).__mro__ if cls in _STATUS), 400)
    headers = {"WWW-Authenticate": 'Bearer realm="boardlog"'} if status == 401 else None
    if getattr(error, "retry_after", None):
        headers = {**(headers or {}), "Retry-After": str(error.retry_after)}
    return problem(status, error.message, kind=error.kind, headers=headers, **error.extra)


_REFUSALS = ((NotYourTurn, 409, "not-your-turn"), (LobbyRefusal, 422, "lobby-refused"), (NotSeated, 422, "not-seated"))


def from_illegal_command(error: IllegalCommand) -> Response:
    for cls, status, kind in _REFUSALS:
        if isinstance(error, cls):
            return problem(status, error.message, kind=kind)
    if isinstance(error, InvalidOption):
        return problem(422, error.message, kind="invalid-option", option=error.option)
    return problem(422, error.message, kind="illegal-command")


def from_unreadable_history(error: UnreadableHistory) -> Response:
    """A stored game recorded under rules, data or an event shape this
    installation lacks (a newer server wrote it, or a data file was edited in
    place): not the client's fault and not a crash, so a 501 that names it;
    the game is never replayed under other rules instead."""
    log.error("unreadable history: %s", error.message)
    return problem(501, error.message, kind=error.kind)


def from_database_unavailable(error: Exception) -> Response:
    """PostgreSQL down, restarting, or every pooled connection busy: not a
    bug in the request, so a 503 the client may retry, not a 500."""
    log.warning("database unavailable: %s: %s", type(error).__name__, error)
    return problem(503, "the database is unreachable or busy; try again in a few seconds",
                   kind="database-unavailable", headers={"Retry-After": "5"})


def from_unexpected(error: Exception) -> Response:
    log.exception("unhandled error")
    return problem(500, "the server failed; this is a bug and has been logged", kind="internal-error")


def _flatten_locations(messages):
    # webargs nests messages under their location ("json", "query"); the
    # location is implied by the endpoint, so keep only the fields.
    if isinstance(messages, dict) and set(messages) <= {"json", "query", "headers", "form", "files", "view_args"}:
        merged = {}
        for value in messages.values():
            merged.update(value if isinstance(value, dict) else {"_schema": value})
        return merged
    return messages


def _summary(messages) -> str:
    if not isinstance(messages, dict):
        return str(messages)
    parts = []
    for name, value in messages.items():
        text = value[0] if isinstance(value, list) and value and isinstance(value[0], str) else str(value)
        parts.append(f"{name}: {text}")
    return "; ".join(parts)
