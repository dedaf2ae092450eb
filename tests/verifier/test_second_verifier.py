"""The second verifier (tests/verifier/verify.mjs, Node.js, written from
openapi/verifying-a-game.md alone) judges every golden game as VERIFIED and
refuses each tampered copy; `boardlog audit` is run on the same copies, and
the table of who caught what is printed at the end of the run. Without
`node` on PATH these tests skip and say so. (Freshly played games: 
test_second_verifier_fresh.py; versions 2, signed heads and receipts:
test_second_verifier_version_2.py.)"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.verifier.harness import (
    CHECK_VECTORS,
    GOLDEN,
    HERE,
    NO_NODE,
    NOTES,
    RANDOMNESS_1_NOTE,
    VECTOR_FILES,
    event_lines,
    export_lines,
    refuse_every_tampered_copy,
    rehash,
    second_verifier,
)

# --- golden games

@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_second_verifier_verifies_every_golden_game(node, path, tmp_path):
    answer = second_verifier(export_lines(path), tmp_path)
    assert answer["verdict"] == "VERIFIED", answer
    draws = next(c for c in answer["checks"] if c["name"] == "draws")
    if answer["randomness_version"] == 1:
        assert draws["reason"] == RANDOMNESS_1_NOTE
        NOTES.append(f"golden games of randomness version 1 are VERIFIED by the second verifier; {RANDOMNESS_1_NOTE}")


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_second_verifier_refuses_every_tampered_golden_game(node, path, tmp_path):
    refuse_every_tampered_copy(f"{path.parent.name}/{path.stem}", export_lines(path), tmp_path)


def test_the_second_verifier_says_not_audited_for_an_unknown_chain_version(node, tmp_path):
    lines = [json.loads(line) for line in export_lines(GOLDEN[0])]
    lines[0]["data"]["chain_version"] = 99
    rehash(event_lines(lines))
    answer = second_verifier([json.dumps(line) for line in lines], tmp_path)
    assert answer["verdict"] == "NOT AUDITED"
    assert "chain_version 99" in answer["checks"][-1]["reason"]


def test_the_second_verifier_says_not_audited_for_an_unknown_randomness_version(node, tmp_path):
    lines = [json.loads(line) for line in export_lines(GOLDEN[0])]
    lines[0]["data"]["randomness_version"] = 7
    rehash(event_lines(lines))
    answer = second_verifier([json.dumps(line) for line in lines], tmp_path)
    assert answer["verdict"] == "NOT AUDITED"
    assert "randomness_version 7" in answer["checks"][-1]["reason"]


# --- the vectors of the specification

def test_the_second_verifiers_primitives_agree_with_the_vectors(node):
    present = [path for path in VECTOR_FILES if path.exists()]
    if not present:
        pytest.skip(f"no vector file yet ({', '.join(str(p.relative_to(HERE)) for p in VECTOR_FILES)})")
    done = subprocess.run([node, str(CHECK_VECTORS), *map(str, present)], capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stdout + done.stderr


# --- without node

def test_without_node_the_second_verifiers_tests_skip_and_say_so(tmp_path):
    import os
    import sys

    path = str(tmp_path)  # nothing on PATH (python is named by its full path), so no node
    done = subprocess.run(
        [sys.executable, "-m", "pytest", str(Path(__file__)), "-q", "-rs", "-p", "no:cacheprovider",
         "-k", f"verifies_every_golden_game and {GOLDEN[0].parent.name}/{GOLDEN[0].stem}"],
        capture_output=True, text=True, timeout=300, env={**os.environ, "PATH": path}, cwd=HERE.parent.parent,
        check=False)
    assert "SKIPPED [1]" in done.stdout, done.stdout + done.stderr
    assert NO_NODE in done.stdout

