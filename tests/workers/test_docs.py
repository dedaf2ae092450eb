"""The README's curl walk-through, run as it is written against a real
``boardlog serve``, so that the README cannot drift from the API."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

from eventstore.servers import temporary_database

from .conftest import ROOT
from .test_serve import Serve, call, free_port

# The first player is drawn at random: run the walk-through until each seat
# has been first once (each run is a coin toss; 16 runs all alike: 1 in 32,768).
MOST_RUNS = 16
# Any HTTP error fails the script, where a reader would see an error body.
STRICT = 'set -euo pipefail\ncurl() { command curl --fail-with-body "$@"; }\n'


def readme_block(heading: str) -> str:
    """The first ```sh block under a README heading."""
    text = (ROOT / "README.md").read_text()
    section = text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    return re.search(r"```sh\n(.*?)```", section, re.S).group(1)


LOBBY = {"GameCreated", "SeatTaken", "SeatLeft", "PlayersSeated"}


@pytest.mark.skipif(shutil.which("curl") is None, reason="the walk-through needs curl")
def test_the_readmes_curl_walk_through_plays_a_move_whoever_is_drawn_to_act_first(
        tmp_path, database_url, redis_url, redis):
    walk = readme_block("Playing a game with curl")
    assert "API=http://127.0.0.1:8000/v1" in walk
    port = free_port()
    script = STRICT + walk.replace("http://127.0.0.1:8000", f"http://127.0.0.1:{port}") + \
        'echo "WALKED game=$GAME to_act=$TO_ACT mover=$MOVER"\n'
    with temporary_database(database_url, prefix="boardlog_readme") as fresh:
        serve = Serve(tmp_path / "data", port, tmp_path / "serve.log", urls={"DATABASE_URL": fresh, "REDIS_URL": redis_url})
        try:
            serve.wait_running()
            first_movers = set()
            for _ in range(MOST_RUNS):
                run = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=120)
                assert run.returncode == 0, f"the walk-through failed:\n{run.stdout}\n{run.stderr}"
                game, to_act, mover = re.search(r"^WALKED game=(\S+) to_act=(\S+) mover=(\S+)$",
                                                run.stdout, re.M).groups()
                status, feed = call(port, "GET", f"/v1/games/{game}/events?after=0&limit=100", token=mover)
                assert status == 200, feed
                played = [e for e in feed["events"] if e["type"] not in LOBBY and e["seat"] == to_act]
                assert played, f"the seat drawn to act first ({to_act}) played a command: {feed}"
                assert "\n304\n" in run.stdout, "the conditional long-poll answered 304: nothing moved"
                first_movers.add(to_act)
                if first_movers == {"p1", "p2"}:
                    break
            assert first_movers == {"p1", "p2"}, f"every run drew {first_movers} first"
        finally:
            assert serve.stop() == 0


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_run_serves_on_the_port_and_address_it_is_given():
    # As a user types it: not as a sub-make of `make test VENV=...`, whose variables MAKEFLAGS would carry.
    user = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "VENV", "PYTHON")}
    dry = subprocess.run(["make", "-n", "run", "PORT=8001", "HOST=0.0.0.0"], cwd=ROOT, capture_output=True, text=True,
                         timeout=30, env=user)
    assert dry.returncode == 0, dry.stderr
    assert ".venv/bin/boardlog serve --host 0.0.0.0 --port 8001" in dry.stdout
    assert "make run PORT=8001" in (ROOT / "README.md").read_text()
