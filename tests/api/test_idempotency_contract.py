"""The list of operations that take an Idempotency-Key, in
docs/frontend-authors.md, is the document's: every POST is either on it
(and documents the header, its replay header and its refusal) or among
those it names as not taking one, and each honoured one has its case in
test_idempotency_every_creation.py."""

from __future__ import annotations

import re
from pathlib import Path

from api.processes.openapi_doc import document
from tests.api.test_idempotency_every_creation import CASES

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "frontend-authors.md"
REUSED = "https://boardlog.dev/problems/idempotency-key-reused"


def _section() -> str:
    text = GUIDE.read_text()
    start = text.index("### Which POSTs take an Idempotency-Key")
    return text[start:text.index("\n## ", start)]


def _listed(label: str) -> set[str]:
    item = re.search(rf"^- {label}:(.*?)(?=^- |\Z)", _section(), flags=re.S | re.M).group(1)
    return {name for name in re.findall(r"`([^`]+)`", item) if re.fullmatch(r"[a-z]+[A-Z]\w*", name)}


def _posts() -> dict[str, dict]:
    return {operation["operationId"]: operation for methods in document()["paths"].values()
            for method, operation in methods.items() if method == "post"}


def _key(operation: dict) -> dict | None:
    return next((p for p in operation.get("parameters", []) if p.get("name") == "Idempotency-Key"), None)


def test_the_guide_lists_exactly_the_posts_that_take_an_idempotency_key_and_names_every_other_post():
    posts = _posts()
    honoured, not_taken = _listed("honoured"), _listed("not taken")
    assert honoured == {name for name, operation in posts.items() if _key(operation)}
    assert not honoured & not_taken
    assert honoured | not_taken == set(posts), "every POST is decided: honoured, or named with why not"


def test_every_honoured_post_documents_one_header_its_replay_and_its_refusal_and_has_its_test():
    posts = _posts()
    honoured = _listed("honoured")
    headers = [_key(posts[name]) for name in honoured]
    assert all(header == headers[0] for header in headers), "one description, everywhere"
    for name in honoured:
        responses = posts[name]["responses"]
        assert REUSED in responses["422"]["x-problem-types"], name
        assert all("Idempotent-Replayed" in entry["headers"] for status, entry in responses.items()
                   if status.startswith("2")), name
    assert set(CASES) == honoured
