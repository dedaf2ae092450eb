"""What every operation checks before it reads its arguments.

- The token first. flask-smorest parses and validates an operation's body
  and query before the view runs, and the view asks for the caller's token
  only then: a caller without a token got a 422 that described the
  operation's arguments instead of a 401. An operation whose only security
  is the bearer token now identifies the caller before anything else (the
  view's own ``current_player()`` then reads what was found). A stream that
  can be opened with a ``ticket`` query parameter instead is left to its view
  when one is given.
- A body the document says is required must be sent: an absent or empty body
  was read as ``{}`` and accepted (``POST /v1/players/me/tokens`` made a
  token). Send ``{}`` to take every default.

Both are read from what the operation declares (``@blp.doc(security=...)``,
``@blp.arguments``), once per operation.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from flask import current_app, request

from .auth import BEARER, current_player
from ..service.errors import InvalidRequest


@dataclass(frozen=True)
class Needs:
    token: bool = False
    body: bool = False
    ticket: bool = False  # a ``ticket`` query parameter may stand for the token


def _fields(schema) -> set[str]:
    schema = schema() if isinstance(schema, type) else schema
    return set(getattr(schema, "fields", {}))


@lru_cache(maxsize=None)
def _needs(view, method: str) -> Needs:
    view_class = getattr(view, "view_class", None)
    function = getattr(view_class, method, None) if view_class is not None else view
    if function is None and method == "head":
        function = getattr(view_class, "get", None)
    apidoc = getattr(function, "_apidoc", None) or {}
    parameters = apidoc.get("arguments", {}).get("parameters", [])
    return Needs(
        token=apidoc.get("manual_doc", {}).get("security") == BEARER,
        body=any(p.get("in") == "json" and p.get("required") for p in parameters),
        ticket=any(p.get("in") == "query" and "ticket" in _fields(p["schema"]) for p in parameters),
    )


def _has_body() -> bool:
    return bool(request.content_length) or "chunked" in request.headers.get("Transfer-Encoding", "").lower()


def check_before_arguments() -> None:
    """Raise the operation's 401 or 422 before its arguments are parsed."""
    view = current_app.view_functions.get(request.endpoint) if request.endpoint else None
    if view is None:
        return
    needs = _needs(view, request.method.lower())
    if needs.token and not (needs.ticket and "ticket" in request.args):
        current_player()
    if needs.body and not _has_body():
        raise InvalidRequest("this operation takes a JSON object as its body: send {} to take every default",
                             errors={"json": ["a body is required"]})
