"""The README and the pages of docs/, run as they are written: every shell
block against a real ``boardlog serve``, so that the documentation cannot
drift from the API, and every link between them followed, so that none leads
nowhere.

A page's blocks run in order in one shell (a later block uses what an
earlier one set), with the server's port in place of 8000. A block that
cannot run here (production hosts, a mail server, a stream that never ends)
says so just above it, with a reason: ``<!-- not run: needs ... -->``."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from eventstore.servers import temporary_database

from .conftest import ROOT
from .test_serve import Serve, call, free_port

PAGES = ["README.md", *sorted(str(page.relative_to(ROOT)) for page in (ROOT / "docs").glob("*.md"))]
# Commands a reader types at the checkout's top (.venv/bin/python, tests/...); the others run in a folder of
# their own, since they write files (game.jsonl, openapi.json).
IN_THE_CHECKOUT = {"docs/game-authors.md"}
# Any HTTP error fails the script, where a reader would see an error body.
STRICT = 'set -euo pipefail\ncurl() { command curl --fail-with-body "$@"; }\n'
BLOCK = re.compile(r"(?:^(<!-- not run:(?P<why>[^>]*)-->)\n)?^```(?P<lang>sh|bash)\n(?P<code>.*?)^```", re.S | re.M)
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")


def shell_blocks(page: str) -> list[tuple[str | None, str]]:
    """Each ```sh block of a page: (why it is not run, or None; its code)."""
    text = (ROOT / page).read_text()
    return [(m.group("why").strip() if m.group(1) else None, m.group("code")) for m in BLOCK.finditer(text)]


def runnable(page: str) -> str:
    return "".join(code for why, code in shell_blocks(page) if why is None)


@pytest.fixture(scope="module")
def server(tmp_path_factory, database_url, redis_url):
    port = free_port()
    folder = tmp_path_factory.mktemp("docs-serve")
    with temporary_database(database_url, prefix="boardlog_docs") as fresh:
        serve = Serve(folder / "data", port, folder / "serve.log", urls={"DATABASE_URL": fresh, "REDIS_URL": redis_url})
        try:
            banner = serve.wait_running()
            yield port, banner
        finally:
            assert serve.stop() == 0


def run_page(page: str, port: int, folder: Path) -> subprocess.CompletedProcess:
    script = STRICT + runnable(page).replace("127.0.0.1:8000", f"127.0.0.1:{port}") + 'echo "PAGE RAN GAME=${GAME:-}"\n'
    # boardlog (boardlog audit ...) as a reader has it: the venv's bin on PATH.
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=600, env=env,
                          cwd=ROOT if page in IN_THE_CHECKOUT else folder)


@pytest.mark.timeout(900)
@pytest.mark.skipif(shutil.which("curl") is None, reason="the pages' commands need curl")
@pytest.mark.parametrize("page", [page for page in PAGES if page.startswith("docs/")])  # the README's: below
def test_every_shell_block_of_the_page_runs_as_written(page, server, tmp_path):
    port, _ = server
    assert runnable(page).strip(), f"{page} has no shell block that runs"
    ran = run_page(page, port, tmp_path)
    assert ran.returncode == 0, f"{page}'s commands failed:\n{ran.stdout[-4000:]}\n{ran.stderr[-4000:]}"
    assert "PAGE RAN" in ran.stdout


@pytest.mark.parametrize("page", [page for page in PAGES if page.startswith("docs/")])
def test_each_docs_page_opens_with_commands_that_run(page):
    first = shell_blocks(page)[0]
    assert first[0] is None, f"{page} opens with a block marked not run ({first[0]}): open with commands that run"


@pytest.mark.parametrize("page", PAGES)
def test_every_block_not_run_says_why(page):
    for why, code in shell_blocks(page):
        assert why is None or why, f"{page}: a block is marked not run without a reason:\n{code[:200]}"


@pytest.mark.timeout(900)  # 64 moves, each three requests and two Pythons reading JSON: minutes on a loaded machine
@pytest.mark.skipif(shutil.which("curl") is None, reason="the walk-through needs curl")
def test_the_readmes_curl_loop_plays_a_whole_game_to_its_standings_with_both_seats_acting(server, tmp_path):
    port, banner = server
    assert f"web client http://127.0.0.1:{port}/" in banner, "the start banner names the web client's address"
    ran = run_page("README.md", port, tmp_path)
    assert ran.returncode == 0, f"the walk-through failed:\n{ran.stdout[-4000:]}\n{ran.stderr[-4000:]}"
    game = re.search(r"^PAGE RAN GAME=(\S+)$", ran.stdout, re.M).group(1)
    status, summary = call(port, "GET", f"/v1/games/{game}")
    assert status == 200 and summary["status"] == "finished", summary
    status, feed = call(port, "GET", f"/v1/games/{game}/events?after=0&limit=1000")
    movers = {event["seat"] for event in feed["events"] if event["type"] == "BuildingPlaced"}
    assert movers == {"p1", "p2"}, f"both seats played: {movers}"
    status, audit = call(port, "GET", f"/v1/games/{game}/audit")
    assert audit["chain"]["ok"] and audit["rerun"]["ok"], audit


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", path.read_text(), flags=re.S | re.M)
    found: set[str] = set()
    for heading in re.findall(r"^#{1,6} (.+)$", text, re.M):
        name, n = slug(heading), 1
        while name in found:  # GitHub numbers a repeated heading's anchor
            name, n = f"{slug(heading)}-{n}", n + 1
        found.add(name)
    return found


@pytest.mark.parametrize("page", [*PAGES, "openapi/verifying-a-game.md"])  # the specification links back
def test_every_link_between_pages_leads_to_a_file_and_an_anchor_that_exist(page):
    source = ROOT / page
    text = re.sub(r"^```.*?^```", "", source.read_text(), flags=re.S | re.M)
    dead = []
    for target in LINK.findall(text):
        if re.match(r"^[a-z]+:", target):
            continue  # another site: not ours to check offline
        path, _, anchor = target.partition("#")
        linked = (source.parent / path).resolve() if path else source
        if not linked.exists():
            dead.append(f"{target}: no file {linked.relative_to(ROOT) if linked.is_relative_to(ROOT) else linked}")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            dead.append(f"{target}: no heading of {linked.name} has the anchor #{anchor}")
    assert not dead, f"{page} links to what is not there:\n" + "\n".join(dead)


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_run_serves_on_the_port_and_address_it_is_given():
    # As a user types it: not as a sub-make of `make test VENV=...`, whose variables MAKEFLAGS would carry.
    user = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "VENV", "PYTHON")}
    dry = subprocess.run(["make", "-n", "run", "PORT=8001", "HOST=0.0.0.0"], cwd=ROOT, capture_output=True, text=True,
                         timeout=30, env=user)
    assert dry.returncode == 0, dry.stderr
    assert ".venv/bin/boardlog serve --host 0.0.0.0 --port 8001" in dry.stdout
    assert "make run PORT=8001" in (ROOT / "README.md").read_text()


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_with_an_interpreter_that_does_not_run_says_so_rather_than_that_it_is_too_old(tmp_path):
    user = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "VENV", "PYTHON")}
    made = subprocess.run(["make", "run", "PYTHON=python3.no-such-version", f"VENV={tmp_path / 'venv'}"], cwd=ROOT,
                          capture_output=True, text=True, timeout=30, env=user)
    assert made.returncode != 0
    assert "python3.no-such-version does not run" in made.stderr, made.stderr
    assert "3.11 or newer" not in made.stderr
    assert not (tmp_path / "venv").exists()
