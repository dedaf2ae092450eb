"""What every operation of the OpenAPI document declares about its errors.

An endpoint declares the problems particular to it with ``declare``:

    @blp.doc(operationId="sendCommand")
    @blp.response(200, ActResultSchema)
    @declare(blp, "not-your-turn", "illegal-command")
    def post(...): ...

Each slug is a problem type of api/http/problems.py; ``declare`` groups them by
status into responses carrying ``x-problem-types``. ``ProblemsPlugin`` then
adds to every operation the problems any such operation can answer (a token
that is wrong, a game id that names no game, a body that is not JSON, rate
limits, the database being down) and writes each error response's
description from its types, so that the document lists, per operation and
status, every type URI a client may receive. A plain
``@blp.alt_response(4xx, ...)`` still works: it gets the problem schema.
"""

from __future__ import annotations

import copy
from collections import defaultdict
from http import HTTPStatus

from apispec import BasePlugin

from . import problems

PROBLEM = "application/problem+json"
PROBLEM_REF = {"$ref": "#/components/schemas/Problem"}
TYPES = "x-problem-types"


def declare(blp, *slugs: str):
    """Declare the problems (by slug) an operation may answer besides the usual ones."""
    by_status: dict[int, list[str]] = defaultdict(list)
    for slug in slugs:
        kind = problems.REGISTRY[slug]  # a KeyError here: register the kind in api/http/problems.py
        by_status[kind.status].append(kind.uri)
    return blp.doc(responses={str(status): {TYPES: uris} for status, uris in by_status.items()})


MORE_PARAMETERS = "x-more-parameters"

# The header as every operation that takes it documents it.
IDEMPOTENCY_KEY = {
    "in": "header", "name": "Idempotency-Key",
    "schema": {"type": "string", "minLength": 1, "maxLength": 200, "pattern": "^[ -~]+$"},
    "description": "repeat a request safely: the same key and body give the same answer and act once",
}
# An operation that takes IDEMPOTENCY_KEY: "stored" with its events
# (api/service/idempotency.py), or "held" by api/http/idempotency.py.
IDEMPOTENT = "x-idempotent"
HELD_REFUSALS = {"held": ["idempotency-key-busy"],
                 "held-secret": ["idempotency-key-busy", "idempotency-answer-forgotten"]}


def takes_idempotency_key(held: bool | str = False) -> dict:
    """``blp.doc`` arguments of an operation that takes an Idempotency-Key: the
    document then lists the header, its refusals and its replay header, the
    same for every such operation (``held="secret"``: its answer is kept
    minutes only, and a later repeat is a 410)."""
    return {IDEMPOTENT: "held-secret" if held == "secret" else "held" if held else "stored"}


def parameters(*entries: dict) -> dict:
    """Header (or hand-parsed query) parameters for ``blp.doc``, added to
    those ``@blp.arguments`` documents rather than replacing them:
    ``blp.doc(parameters=[...])`` replaces the whole list, and the query
    parameters of the operation's arguments schema vanish from the document."""
    return {MORE_PARAMETERS: list(entries)}


def _usual(path: str, method: str, operation: dict) -> list[str]:
    """The problems an operation may answer because of what it takes."""
    # Any request may carry a query with a NUL in it (422), and any POST a
    # body that is not JSON, too large or nested too deeply.
    slugs = ["rate-limited", "database-unavailable", "invalid-request"]
    security = operation.get("security")
    if security:
        slugs += ["token-malformed", "token-unknown"]
        if {} not in security:
            slugs.append("token-missing")
    if "requestBody" in operation or method in ("post", "put", "patch"):
        slugs += ["bad-request", "body-too-large", "unsupported-media-type"]
    if "{game_id}" in path:
        slugs.append("game-not-found")
    if any(isinstance(p, dict) and p.get("name") == "Idempotency-Key" for p in operation.get("parameters", [])):
        slugs.append("idempotency-key-reused")
    return slugs


class ProblemsPlugin(BasePlugin):
    def init_spec(self, spec):
        self.spec = spec

    def operation_helper(self, path=None, operations=None, **kwargs):
        for method, operation in (operations or {}).items():
            if not isinstance(operation, dict) or method.startswith("x-") or method == "parameters":
                continue
            more = operation.pop(MORE_PARAMETERS, None)
            if more:
                operation["parameters"] = [*operation.get("parameters", []), *more]
            idempotent = operation.pop(IDEMPOTENT, None)
            if idempotent:
                operation["parameters"] = [*operation.get("parameters", []), copy.deepcopy(IDEMPOTENCY_KEY)]
            responses = operation.setdefault("responses", {})
            for key in list(responses):
                if str(key) != key:  # alt_response's int keys; declare's are strings: merge them
                    entry, declared = responses.pop(key), responses.get(str(key))
                    if isinstance(declared, dict):
                        entry = {**(entry if isinstance(entry, dict) else {"$ref": entry}), **declared}
                    responses[str(key)] = entry
            for status, entry in list(responses.items()):
                # flask-smorest's shared error responses (its 422 for a body
                # that fails its schema) carry no problem types: ours replace them.
                shared = isinstance(entry, str) or (isinstance(entry, dict) and "$ref" in entry)
                if shared and status != "default":
                    responses[status] = {TYPES: list(entry.get(TYPES, []))} if isinstance(entry, dict) else {}
            for slug in _usual(path or "", method, operation) + HELD_REFUSALS.get(idempotent, []):
                kind = problems.REGISTRY[slug]
                entry = responses.setdefault(str(kind.status), {})
                if not isinstance(entry, dict):  # a reference to a shared response: leave it
                    continue
                if kind.uri not in entry.setdefault(TYPES, []):
                    entry[TYPES].append(kind.uri)
            default = responses.get("default")
            if isinstance(default, dict) and "$ref" not in default:
                default.setdefault(TYPES, [problems.REGISTRY["internal-error"].uri])
            for status, entry in responses.items():
                if not isinstance(entry, dict) or "$ref" in entry or not (status == "default" or status >= "400"):
                    continue
                entry.setdefault("content", {PROBLEM: {"schema": dict(PROBLEM_REF)}})
                if entry.get(TYPES):
                    own = entry.get("description", "")
                    generic = status == "default" or own in ("", HTTPStatus(int(status)).phrase)
                    entry["description"] = _describe(entry[TYPES]) if generic else f"{own}\n\n{_describe(entry[TYPES])}"


def _describe(uris: list[str]) -> str:
    lines = ["A problem document (application/problem+json) whose `type` is one of:"]
    for uri in uris:
        kind = problems.REGISTRY.get(uri.removeprefix(problems.BASE))
        lines.append(f"- `{uri}`: {kind.description}" if kind else f"- `{uri}`")
    return "\n".join(lines)


class DocstringPlugin(BasePlugin):
    """A marshmallow schema's own docstring is its component's description
    (paragraphs kept, lines joined), unless it gives one itself."""

    def schema_helper(self, name, definition, **kwargs):
        schema = kwargs.get("schema")
        cls = schema if isinstance(schema, type) else type(schema)
        doc = cls.__dict__.get("__doc__") if schema is not None else None
        if doc and not definition.get("description"):
            definition["description"] = "\n\n".join(" ".join(part.split()) for part in doc.strip().split("\n\n"))
        return None


class NullableEnumPlugin(BasePlugin):
    """Nullable enums written so that generators make one enum type and a
    null, not an enum with a null member: ``anyOf: [{enum without null},
    {type: null}]``. An enum that is not nullable loses any stray null. A
    field whose metadata names a shared component (``SHARED``) becomes a
    reference to it."""

    def schema_helper(self, name, definition, **kwargs):
        _rewrite_enums(definition)
        return None


SHARED = "x-shared-schema"  # field metadata: this field is that component (one enum class, not one per field)


def _rewrite_enums(node) -> None:
    if isinstance(node, list):
        for item in node:
            _rewrite_enums(item)
        return
    if not isinstance(node, dict):
        return
    for value in node.values():
        _rewrite_enums(value)
    if SHARED in node:
        kept = {key: node[key] for key in ("description",) if key in node}
        name = node[SHARED]
        node.clear()
        node.update({"$ref": f"#/components/schemas/{name}", **kept})
        return
    if "enum" not in node:
        return
    kinds = node.get("type")
    nullable = isinstance(kinds, list) and "null" in kinds
    values = [value for value in node["enum"] if value is not None]
    if not nullable:
        node["enum"] = values
        return
    others = [kind for kind in kinds if kind != "null"]
    inner = {"type": others[0] if len(others) == 1 else others, "enum": values}
    del node["type"], node["enum"]
    node["anyOf"] = [inner, {"type": "null"}]
