"""Fields a client may leave out are written as optional, for generators.

openapi-typescript reads a ``default`` as "this field is always there" and
makes it required; in a request that is wrong: a frontend would have to send
every option of a game, or ``trap: false`` with every move of Lind's, only
to satisfy its types (openapi-typescript issue 2489). So in each schema a
request body can reach (commands, options, the bodies of POSTs), a field
that is not required keeps its default in words, in its description, and
loses the ``default`` keyword. Schemas only ever answered keep theirs.
"""

from __future__ import annotations

import json
import re

REF = re.compile(r'"#/components/schemas/([^"]+)"')


def refs(node) -> set[str]:
    return set(REF.findall(json.dumps(node)))


def reachable(start: set[str], schemas: dict) -> set[str]:
    seen: set[str] = set()
    todo = list(start)
    while todo:
        name = todo.pop()
        if name in seen or name not in schemas:
            continue
        seen.add(name)
        todo.extend(refs(schemas[name]))
    return seen


def without_defaults(schema: dict) -> None:
    """In place: every optional property's default moves into its description."""
    required = set(schema.get("required", ()))
    properties = schema.get("properties", {})
    for name, field in list(properties.items()):
        if name in required or "default" not in field:
            continue
        kept = {key: value for key, value in field.items() if key != "default"}
        said = f"Default: `{json.dumps(field['default'])}`."
        kept["description"] = f"{kept['description'].rstrip('.')}. {said}" if kept.get("description") else said
        properties[name] = kept  # a copy: a part shared with an answer keeps its default


def rewrite(spec) -> None:
    document = spec.to_dict()
    in_requests: set[str] = set()
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            if isinstance(operation, dict) and "requestBody" in operation:
                in_requests |= refs(operation["requestBody"])
    schemas = spec.components.schemas
    for name in reachable(in_requests, schemas):
        without_defaults(schemas[name])
