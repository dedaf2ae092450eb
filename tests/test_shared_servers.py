"""The suite shares one Redis server between its sessions (each xdist worker,
each person on the machine) by database number (tests/support/redis.py). A
test that flushed every database lost the others' deadline, scoring and bot
jobs and their claims: CI met ten failures from three `flushall` calls."""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_no_test_flushes_the_redis_databases_of_other_sessions():
    flushing = [f"{path.relative_to(TESTS)}:{n}" for path in TESTS.rglob("*.py") if path.name != Path(__file__).name
                for n, line in enumerate(path.read_text().splitlines(), 1) if re.search(r"\.flushall\(", line)]
    assert flushing == [], "flush the session's own database (flushdb), not every one: " + ", ".join(flushing)
