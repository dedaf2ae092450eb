"""Idempotency-Key on every POST that creates something or acts in a way
that must not happen twice, written once: ``@idempotent`` on the view.

Commands, new games, the lifecycle POSTs and table talk keep their answer
in the transaction of their events (api/service/idempotency.py,
``IdempotencyKeys.once``). Every other such POST is decorated here: with a
key, the request is carried out once (``HeldKeys``), a repeat with the same
key, path and body answers the first answer again (its status, headers and
bytes, marked ``Idempotent-Replayed: true``), and the same key with another
body is a 422 ``idempotency-key-reused``. A refusal is not kept: its repeat
is carried out. The key is the caller's: scoped to his player, or, for the
operations a caller makes before he is one (``anyone=True``: registration,
sign-in), to the request itself: its client's address, and its body, which
must be the same to get its answer (a frontend's keys are random: a key is
then all that tells one newcomer from another at the same address). The decorator also marks the operation for the document, which
then lists the header (contract.takes_idempotency_key) and its refusals.
"""

from __future__ import annotations

import json
import logging
from functools import wraps

from flask import Response, make_response, request
from flask_smorest import Blueprint

from .auth import current_player
from .context import service
from .contract import takes_idempotency_key
from ..service.errors import InvalidRequest
from ..service.idempotency import ANYONE, HeldKeys, operation_scope, request_sha256

log = logging.getLogger("boardlog.api")

# What of a first answer its repeat gets besides its status and body (the rest is the server's own per answer).
KEPT_HEADERS = ("Content-Type", "Location")


def idempotency_key() -> str | None:
    """The request's Idempotency-Key, or None."""
    key = request.headers.get("Idempotency-Key")
    if key is not None and not (1 <= len(key) <= 200 and key.isprintable() and key.isascii()):
        raise InvalidRequest("Idempotency-Key must be 1 to 200 printable ASCII characters, such as a UUID")
    return key


def idempotent(view=None, *, anyone: bool = False, secret: bool = False):
    """The view answers a request with the same Idempotency-Key once.
    ``anyone``: the operation needs no token (the key's scope is then the request).
    ``secret``: its answer holds a new secret, kept for its repeats only minutes
    (api/service/idempotency.py, SECRET_ANSWER_MINUTES)."""

    def decorate(view):
        @wraps(view)
        def once(*args, **kwargs):
            key = idempotency_key()
            if key is None:
                return view(*args, **kwargs)
            player = ANYONE if anyone else current_player()
            arguments = {**(request.view_args or {}), **({"from": request.remote_addr or ""} if anyone else {})}
            scope = operation_scope(f"{request.method} {request.url_rule.rule}", arguments)
            keys = HeldKeys(service().pool)
            kept = keys.claim(player, scope, key, request_sha256(scope, _request()))
            if kept is not None:
                return _replayed(kept)
            try:
                response = make_response(view(*args, **kwargs))
            except BaseException:
                keys.release(player, scope, key)
                raise
            if 200 <= response.status_code < 300 and not response.is_streamed:
                headers = [[name, response.headers[name]] for name in KEPT_HEADERS if name in response.headers]
                try:
                    keys.keep(player, scope, key, response.status_code, response.get_data(as_text=True), headers,
                              secret=secret)
                except Exception:  # done, and answered: a repeat finds the key held (busy, then stale)
                    log.exception("an answer was not kept under its Idempotency-Key (%s)", request.path)
            else:
                keys.release(player, scope, key)
            return response

        return Blueprint.doc(**takes_idempotency_key(held="secret" if secret else True))(once)

    return decorate if view is None else decorate(view)


def _request() -> list:
    """What makes two requests under one key the same: the query and the body."""
    data = request.get_data(cache=True)
    try:
        body = json.loads(data) if data else None
    except ValueError:
        body = data.hex()
    return [sorted(request.args.items(multi=True)), body]


def _replayed(kept: dict) -> Response:
    response = Response(kept["body"], status=kept["status"])
    for name, value in kept["headers"]:
        response.headers[name] = value
    response.headers["Idempotent-Replayed"] = "true"
    return response
