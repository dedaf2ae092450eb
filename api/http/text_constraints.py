"""What the server refuses in any text it is sent, written into the document.

PostgreSQL cannot store a NUL (U+0000), and a lone UTF-16 surrogate (a
``\\ud800`` escape without its pair, which JSON allows) is not text at all:
api/http/app.py refuses both anywhere in a body or a query (422). So every free
text a request can carry (the string properties of schemas a request body
reaches, and string query parameters) gets ``TEXT_PATTERN``, unless it
already says more precisely what it takes (an enum, a format, a pattern of
its own). The pattern is a JSON Schema (ECMA-262) regular expression over
code points: ``\\ud800-\\udfff`` matches only unpaired surrogates, since a
pair is one code point.
"""

from __future__ import annotations

from apispec import BasePlugin

from .request_defaults import reachable, refs

TEXT_PATTERN = r"^[^\u0000\ud800-\udfff]*$"
PRECISE = ("enum", "format", "pattern", "const", "$ref")


def _is_free_text(node: dict) -> bool:
    kind = node.get("type")
    is_string = kind == "string" or (isinstance(kind, list) and "string" in kind)
    return is_string and not any(key in node for key in PRECISE)


def constrain(node) -> None:
    """In place: every free-text string in this schema (not following references)."""
    if isinstance(node, list):
        for item in node:
            constrain(item)
        return
    if not isinstance(node, dict):
        return
    if _is_free_text(node):
        node["pattern"] = TEXT_PATTERN
    for key in ("properties", "patternProperties"):
        for child in (node.get(key) or {}).values():
            constrain(child)
    for key in ("items", "additionalProperties", "not"):
        if isinstance(node.get(key), dict):
            constrain(node[key])
    for key in ("anyOf", "oneOf", "allOf", "prefixItems"):
        constrain(node.get(key) or [])


class TextPlugin(BasePlugin):
    """String query parameters (after the marshmallow plugin made them)."""

    def operation_helper(self, path=None, operations=None, **kwargs):
        for method, operation in (operations or {}).items():
            if not isinstance(operation, dict) or method.startswith("x-"):
                continue
            for parameter in operation.get("parameters", []):
                if isinstance(parameter, dict) and parameter.get("in") == "query" and "schema" in parameter:
                    constrain(parameter["schema"])


def rewrite(spec) -> None:
    """The schemas request bodies reach (once every blueprint is registered)."""
    document = spec.to_dict()
    in_requests: set[str] = set()
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            if isinstance(operation, dict) and "requestBody" in operation:
                in_requests |= refs(operation["requestBody"])
    schemas = spec.components.schemas
    for name in reachable(in_requests, schemas):
        constrain(schemas[name])
