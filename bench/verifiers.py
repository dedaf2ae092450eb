"""The two verifiers' rates, in the same run on the same machine: events per
second of `boardlog audit` (in-process, `audit_lines`: the chain, the seed and
every decision re-run with the games' rules) beside those of the second
verifier (`node tests/verifier/verify.mjs --timing`: everything but the
games' rules), over the golden games.

    python bench/verifiers.py [--seconds 1.0]

Each verifier runs each game for at least the given time, the two taking
turns so that a busy machine slows both alike. Without node, only
boardlog audit's rate is printed.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from api.audit.offline_audit import audit_lines

VERIFIER = ROOT / "tests" / "verifier" / "verify.mjs"


def boardlog_rate(lines: list[str], seconds: float) -> float:
    audit_lines(lines)  # warm
    started, runs = time.perf_counter(), 0
    while time.perf_counter() - started < seconds:
        ok, _ = audit_lines(lines)
        assert ok
        runs += 1
    return len(lines) * runs / (time.perf_counter() - started)


def node_rate(node: str, path: Path) -> float:
    done = subprocess.run([node, str(VERIFIER), str(path), "--json", "--timing"], capture_output=True, text=True,
                          timeout=300, check=False)
    answer = json.loads(done.stdout)
    assert answer["verdict"] == "VERIFIED", answer
    return answer["events_per_second"]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=1.0)
    args = parser.parse_args()
    node = shutil.which("node")
    if node is None:
        print("node is not installed: the second verifier did not run")
    print(f"{'golden game':48} {'events':>6} {'boardlog audit':>15} {'second verifier':>16} {'ratio':>6}")
    totals = [0, 0.0, 0.0]
    for path in sorted((ROOT / "tests" / "golden").glob("*/*.jsonl")):
        lines = [line for line in path.read_text().splitlines() if line.strip()]
        ours = boardlog_rate(lines, args.seconds)
        theirs = node_rate(node, path) if node else None
        name = f"{path.parent.name}/{path.stem}"
        cell = f"{theirs:16.0f} {theirs / ours:6.2f}" if theirs else f"{'-':>16} {'-':>6}"
        print(f"{name:48} {len(lines):6} {ours:15.0f} {cell}")
        totals[0] += len(lines)
        totals[1] += len(lines) / ours
        totals[2] += len(lines) / theirs if theirs else 0
    ours, theirs = totals[0] / totals[1], (totals[0] / totals[2] if totals[2] else None)
    cell = f"{theirs:16.0f} {theirs / ours:6.2f}" if theirs else f"{'-':>16} {'-':>6}"
    print(f"{'all (events / total time)':48} {totals[0]:6} {ours:15.0f} {cell}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
