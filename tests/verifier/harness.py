"""What the second verifier's tests share: running verify.mjs on an
export, boardlog audit on the same, the tamper cases of this verifier's own
beside those of tests/verifier/tampering.py, and the table of who caught
each (printed by conftest.py at the end of the run)."""

from __future__ import annotations

import copy
import hashlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from api.audit.offline_audit import audit_lines
from tests.verifier import tampering

HERE = Path(__file__).resolve().parent
VERIFIER = HERE / "verify.mjs"
CHECK_VECTORS = HERE / "check_vectors.mjs"
VECTOR_FILES = [HERE / "vectors" / "randomness.json", HERE / "vectors" / "chain.json"]
GOLDEN = sorted((HERE.parent / "golden").glob("*/*.jsonl"))
NODE = shutil.which("node")
NO_NODE = "node is not installed: the second verifier did not run"
RANDOMNESS_1_NOTE = "randomness version 1: draws are checked by boardlog audit only"
EXIT_CODES = {"VERIFIED": 0, "NOT VERIFIED": 1, "NOT AUDITED": 2}

# Filled by the tests, printed at the end of the run: (game, case, second
# verifier, boardlog audit), and sentences such as why a test skipped.
TAMPER_TABLE: list[tuple[str, str, str, str]] = []
NOTES: list[str] = []


@pytest.fixture
def node() -> str:
    if NODE is None:
        NOTES.append(NO_NODE)
        pytest.skip(NO_NODE)
    return NODE


def second_verifier(lines: list[str], tmp_path: Path, name: str = "export.jsonl", extra: list[str] = ()) -> dict:
    """The verdict of verify.mjs on an export given as its lines, from its
    --json answer; its exit code must agree with the verdict."""
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in lines))
    done = subprocess.run([NODE, str(VERIFIER), str(path), "--json", *extra], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.stdout, done.stderr
    answer = json.loads(done.stdout)
    assert done.returncode == EXIT_CODES[answer["verdict"]], (done.returncode, answer["verdict"])
    return answer


def first_failure(answer: dict) -> str:
    failed = next(c for c in answer["checks"] if not c["ok"])
    at = f" @{failed['version']}" if failed["version"] is not None else ""
    return f"{failed['name']}{at}"


def boardlog_audit(lines: list[str]) -> tuple[bool, str]:
    ok, report = audit_lines(lines)
    failing = [line for line in report if "BROKEN" in line or "FAIL" in line or "NOT" in line]
    return ok, (failing[0] if failing else report[0])[:60]


def export_lines(path: Path) -> list[str]:
    return [line for line in path.read_text().splitlines() if line.strip()]


# --- tamper cases of this verifier's own, beside those of
# tests/verifier/tampering.py (the last event cut off is its "standings cut
# off"): each takes the parsed lines of an export and returns them tampered.

def _is_head(line: dict) -> bool:
    return "head" in line


def _canonical(document: dict) -> bytes:
    # Section 2 of the specification, in Python's terms (Python keeps 3600.0
    # as written when it reads and writes it back).
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def rehash(events: list[dict]) -> None:
    """What a server that rewrites history does: recompute every link
    (section 3.1) so that the chain holds again."""
    previous = b""
    for event in events:
        document = {k: event[k] for k in ("data", "event_id", "metadata", "schema_version", "stream_id", "type",
                                          "version")}
        link = hashlib.sha256(previous + _canonical(document)).digest()
        event["hash"] = link.hex()
        previous = link


def event_lines(lines: list[dict]) -> list[dict]:
    return [line for line in lines if not _is_head(line)]


def _changed(value):
    """Another value of the same kind (a field set to null stays a change)."""
    if isinstance(value, bool) or value is None:
        return not value
    if isinstance(value, (int, float)):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    return [value] if isinstance(value, dict) else [*value, "x"]


def change_a_field(lines: list[dict]) -> list[dict]:
    events = event_lines(lines)
    target = events[len(events) // 2]
    if target["data"]:
        key = min(target["data"])
        target["data"][key] = _changed(target["data"][key])
    else:
        target["data"]["tampered"] = True
    return lines


def swap_two_events(lines: list[dict]) -> list[dict]:
    middle = len(event_lines(lines)) // 2
    lines[middle], lines[middle + 1] = lines[middle + 1], lines[middle]
    return lines


def change_the_seed(lines: list[dict]) -> list[dict]:
    events = event_lines(lines)
    over = next(e for e in events if e["type"] == "GameOver")
    over["data"]["seed"] = hashlib.sha256(bytes.fromhex(over["data"]["seed"])).hexdigest()
    rehash(events)  # so that it is the seed's own checks that must catch it
    return lines


TAMPER_CASES = {
    "a changed field": change_a_field,
    "two events swapped": swap_two_events,
    "the seed changed (chain recomputed)": change_the_seed,
}


def tampered_copies(lines: list[str]):
    """(case, tampered lines) for this verifier's four cases and every case of
    tests/verifier/tampering.py (shared with boardlog audit's tests) that
    applies to the export."""
    parsed = [json.loads(line) for line in lines]
    for case, tamper in TAMPER_CASES.items():
        yield case, [json.dumps(line) for line in tamper(copy.deepcopy(parsed))]
    for case, tamper in tampering.CASES:
        try:
            forged, _ = tamper(copy.deepcopy(parsed))
        except tampering.NotApplicable as reason:
            yield case, f"not applicable: {reason}"
            continue
        yield case, [json.dumps(line) for line in forged]


def refuse_every_tampered_copy(name: str, lines: list[str], tmp_path: Path) -> None:
    missed = []
    for case, forged in tampered_copies(lines):
        if isinstance(forged, str):
            TAMPER_TABLE.append((name, case, forged, forged))
            continue
        answer = second_verifier(forged, tmp_path, "tampered.jsonl")
        audited_ok, audited = boardlog_audit(forged)
        node_cell = first_failure(answer) if answer["verdict"] == "NOT VERIFIED" else f"MISSED ({answer['verdict']})"
        TAMPER_TABLE.append((name, case, node_cell, "MISSED (VERIFIED)" if audited_ok else audited))
        if answer["verdict"] != "NOT VERIFIED":
            missed.append(case)
    assert missed == [], f"the second verifier did not refuse: {missed}"



def checks_of(answer: dict) -> dict:
    return {c["name"]: c for c in answer["checks"]}


def verify_lines(lines: list[dict], tmp_path: Path, *extra: str) -> dict:
    """verify.mjs's --json answer on an export given as parsed lines."""
    return second_verifier([json.dumps(line) for line in lines], tmp_path, extra=list(extra))
