"""The EventSource recipe of docs/frontend-authors.md works when things go wrong: run in node
(tests/api/js/follow_harness.js) against a fake fetch, EventSource and
clock, it stops on a 401 from the ticket request, backs off while the server
or the network fails (never sooner than Retry-After), and resumes after the
last id it saw with a new ticket, losing and doubling nothing."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HARNESS = Path(__file__).resolve().parent / "js" / "follow_harness.js"


def recipe() -> str:
    blocks = re.findall(r"```js\n(.*?)```", (ROOT / "docs" / "frontend-authors.md").read_text(), flags=re.S)
    found = [block for block in blocks if "function follow(" in block and "EventSource" in block]
    assert len(found) == 1, "docs/frontend-authors.md has one EventSource recipe, a ```js block defining follow()"
    return found[0]


@pytest.fixture(scope="module")
def stories(tmp_path_factory):
    if shutil.which("node") is None:
        pytest.skip("node is needed to run the recipe's JavaScript")
    source = tmp_path_factory.mktemp("recipe") / "follow.js"
    source.write_text(recipe())
    result = subprocess.run(["node", str(HARNESS), str(source)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    return json.loads(result.stdout)


def test_a_revoked_token_stops_the_recipe_at_once(stories):
    revoked = stories["revoked"]
    assert revoked["stopped"] == ["unauthorized"]
    assert revoked["requests"] == 1 and revoked["sources"] == 0


def test_a_failing_server_is_retried_ever_more_slowly_and_never_sooner_than_retry_after(stories):
    at = stories["failing"]["at"]
    gaps = [later - earlier for earlier, later in zip(at, at[1:])]
    assert gaps[:2] == [1000, 2000]
    assert gaps[2] >= 30_000, "the 429's Retry-After: 30 was not waited"
    assert all(gap >= 1000 for gap in gaps) and max(gaps) == 60_000
    assert gaps[3:] == sorted(gaps[3:]), "the waits shrank while the server kept failing"
    assert len(at) < 20, "ten minutes of failures should take a dozen tries, not hundreds"
    assert stories["failing"]["sources"] == 0 and stories["failing"]["stopped"] == []


def test_a_dropped_stream_resumes_after_the_last_id_with_a_new_ticket_and_stops_at_the_end(stories):
    resumed = stories["resumed"]
    assert resumed["urls"] == ["https://api.test/v1/games/g1/stream?ticket=t1",
                               "https://api.test/v1/games/g1/stream?ticket=t2&after=2"]
    assert resumed["events"] == [1, 2, 3] and resumed["views"] == [2, 3]
    assert resumed["stopped"] == ["over"] and resumed["closed"] == [True, True]
    assert resumed["methods"] == ["POST"] * 3 and set(resumed["authorization"]) == {"Bearer tok"}
    # after messages came the wait starts from a second again: 1 s, then 2 s after the 503
    assert resumed["at"] == [0, 1000, 3000]
