"""The HTTP conventions every answer follows, applied once after each request
and documented on every operation by ``HeadersPlugin``:

- JSON answers of more than ``GZIP_MIN_BYTES`` are gzipped for a client that
  sends ``Accept-Encoding: gzip`` (never a stream of server-sent events,
  which must reach the client message by message), with ``Vary:
  Accept-Encoding`` on every JSON answer so a cache keeps the two apart;
- an answer that depends on the caller's token (a view, legal commands, the
  feed, the lobby with the private games one sits in, anything under
  /v1/players/me) carries ``Cache-Control: private`` and ``Vary:
  Authorization``: no shared cache may give one player's answer to another;
- every rate-limited answer carries the IETF ``RateLimit-Policy`` and
  ``RateLimit`` fields (draft-ietf-httpapi-ratelimit-headers), from the
  limiter's own count (api/http/limits.py; no Redis call of their own).
"""

from __future__ import annotations

import gzip

from apispec import BasePlugin
from flask import g, request, url_for

GZIP_MIN_BYTES = 1024
GZIP_LEVEL = 6
JSON_TYPES = frozenset({"application/json", "application/problem+json"})

# Flask rules (and methods) whose answers depend on the caller's token.
PER_TOKEN = {
    ("/v1/games", "GET"), ("/v1/games/<game_id>/view", "GET"), ("/v1/games/<game_id>/legal-commands", "GET"),
    ("/v1/games/<game_id>/events", "GET"), ("/v1/games/<game_id>/commands", "POST"),
}
PER_TOKEN_PREFIX = "/v1/players/me"
STREAMS = frozenset({"/v1/games/<game_id>/stream", "/v1/players/me/stream"})


def per_token(rule: str, method: str) -> bool:
    return (rule, method) in PER_TOKEN or (rule.startswith(PER_TOKEN_PREFIX) and rule not in STREAMS)


_PER_TOKEN_SEEN: dict[tuple[str, str], bool] = {}  # per_token's answers, once per rule (the 304 path is hot)


def _per_token_cached(rule: str, method: str) -> bool:
    key = (rule, method)
    known = _PER_TOKEN_SEEN.get(key)
    if known is None:
        known = _PER_TOKEN_SEEN[key] = per_token(rule, method)
    return known


def vary(response, field: str) -> None:
    """Adds ``field`` to the answer's Vary, keeping what is there."""
    present = response.headers.get("Vary")
    if not present:
        response.headers["Vary"] = field
    elif field.lower() not in present.lower():
        response.headers["Vary"] = f"{present}, {field}"


def _accepts_gzip(accept_encoding: str) -> bool:
    return "gzip" in accept_encoding and request.accept_encodings.quality("gzip") > 0


def apply(response):
    # One pass over the answer's few headers, and appends rather than
    # werkzeug's set (a scan each) or lookups of absent names (an exception
    # each): this runs on every 304 of the polled view.
    headers = response.headers
    present = {key.lower(): value for key, value in headers.items()}
    quota = g.get("rate_limit")
    if quota is not None:
        headers.add("RateLimit-Policy", quota[0])
        headers.add("RateLimit", quota[1])
    varies = []
    current = request._get_current_object()
    url_rule = current.url_rule
    if url_rule is not None and _per_token_cached(url_rule.rule, current.method):
        if "cache-control" not in present:
            headers.add("Cache-Control", "private")
        varies.append("Authorization")
    mimetype = present.get("content-type", "").partition(";")[0].strip()
    json_answer = mimetype in JSON_TYPES and not response.direct_passthrough and not response.is_streamed
    if json_answer:
        varies.append("Accept-Encoding")
    if varies:
        if "vary" in present:
            for field in varies:
                vary(response, field)
        else:
            headers.add("Vary", ", ".join(varies))
    if not json_answer or "content-encoding" in present or response.status_code in (204, 304):
        return response
    if not _accepts_gzip(current.headers.get("Accept-Encoding", "")):
        return response
    body = response.get_data()
    if len(body) < GZIP_MIN_BYTES:
        return response
    response.set_data(gzip.compress(body, compresslevel=GZIP_LEVEL, mtime=0))
    headers["Content-Encoding"] = "gzip"
    return response


def next_page(args: dict, **moved) -> dict:
    """The ``Link: <...>; rel="next"`` header (RFC 8288) of a list whose next
    page is this request's query with ``moved`` in place."""
    query = {name: str(value) for name, value in {**args, **moved}.items() if value is not None}
    return {"Link": f'<{url_for(request.endpoint, **request.view_args, **query)}>; rel="next"'}


# Lists whose answer links its next page (Flask rules).
PAGED = {("/v1/games", "GET"), ("/v1/games/<game_id>/events", "GET"),
         ("/v1/players/me/webhooks/<webhook_id>/deliveries", "GET"), ("/v1/players/me/notifications/mail", "GET")}


# The document: each header once under components/headers, referred to by the responses.

HEADERS = {
    "RateLimit-Policy": {"description": "the limit this answer counts against (draft-ietf-httpapi-ratelimit-headers): "
                                        "`\"default\";q=<requests>;w=<seconds>`, such as `\"default\";q=1200;w=60`",
                         "schema": {"type": "string"}},
    "RateLimit": {"description": "where the caller stands (draft-ietf-httpapi-ratelimit-headers): "
                                 "`\"default\";r=<requests that still fit>;t=<seconds until more fit>`; r=0 on a 429",
                  "schema": {"type": "string"}},
    "Vary": {"description": "the request headers this answer depends on: Accept-Encoding (JSON answers, which are "
                            "gzipped when asked), Authorization (answers that depend on your token)",
             "schema": {"type": "string"}},
    "Content-Encoding": {"description": f"gzip when the request sent Accept-Encoding: gzip and the JSON answer is "
                                        f"{GZIP_MIN_BYTES} bytes or more; absent otherwise",
                         "schema": {"type": "string", "enum": ["gzip"]}},
    "Cache-Control-Private": {"description": "private: the answer depends on your token, so no shared cache may "
                                             "keep it for another caller", "schema": {"type": "string"}},
    "Idempotent-Replayed": {"description": "true when this is the stored answer to an earlier request with the same "
                                           "Idempotency-Key and body (nothing was done again); absent otherwise",
                            "schema": {"type": "string", "enum": ["true"]}},
    "Link-Next": {"description": "RFC 8288: `<url>; rel=\"next\"`, the next page of the list, when there is one",
                  "schema": {"type": "string"}},
}


def _ref(component: str) -> dict:
    return {"$ref": f"#/components/headers/{component}"}


def _openapi_rule(path: str) -> str:
    return path.replace("{", "<").replace("}", ">")


class HeadersPlugin(BasePlugin):
    """The headers above on each operation's answers, in the document."""

    def init_spec(self, spec):
        for name, header in HEADERS.items():
            spec.components.header(name, header)

    def operation_helper(self, path=None, operations=None, **kwargs):
        for method, operation in (operations or {}).items():
            if isinstance(operation, dict) and not method.startswith("x-") and method != "parameters":
                _document(path or "", method, operation)


def _document(path: str, method: str, operation: dict) -> None:
    rule = _openapi_rule(path)
    idempotent = any(isinstance(p, dict) and p.get("name") == "Idempotency-Key" for p in operation.get("parameters", []))
    for status, response in operation.get("responses", {}).items():
        if not isinstance(response, dict) or "$ref" in response:
            continue
        success = str(status).startswith("2") or str(status) == "304"
        if not (success or str(status) == "429"):
            continue
        headers = response.setdefault("headers", {})
        headers["RateLimit-Policy"] = _ref("RateLimit-Policy")
        headers["RateLimit"] = _ref("RateLimit")
        if not success:
            continue
        json_answer = any(kind in JSON_TYPES for kind in response.get("content", {}))
        if json_answer or per_token(rule, method.upper()):
            headers["Vary"] = _ref("Vary")
        if json_answer:
            headers["Content-Encoding"] = _ref("Content-Encoding")
        if per_token(rule, method.upper()):
            headers["Cache-Control"] = _ref("Cache-Control-Private")
        if idempotent:
            headers["Idempotent-Replayed"] = _ref("Idempotent-Replayed")
        if (rule, method.upper()) in PAGED:
            headers["Link"] = _ref("Link-Next")
