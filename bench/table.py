"""Table benchmark: moves composed at the web client's table, against the
flat list of commands it showed before, measured in the same run. Headless
Chromium (Debian's /usr/bin/chromium, driven by Playwright) against
``boardlog serve`` as production runs it: DATABASE_URL's PostgreSQL (a
throwaway database on it), REDIS_URL's Redis, and the worker and notifier
serve starts. A person at each game's table against bots, every game at once,
making each move by composed choices only (tests/web/composing.py's step).

    python bench/table.py [--decisions 20] [--seconds 100]

Prints, per game:
- choice buttons per step (median, max) with composed choices, beside the
  flat list each of those decisions had (its legal commands: one button each
  in the old client, where "Cronberg 166, Coronation 460" came from), and the
  ratio of the flat list's largest to the composed steps' largest;
- clicks per decision (median, max), beside the flat list's one;
- bytes (and requests) of the table's first load until its first drawing
  (the `board-drawn` mark), beside a bare static file of the same server;
- time from a stream's view message to the redrawn table (`view-received`
  to `table-redrawn`), and to the next move offered (`choices-offered`, after
  the legal commands' round trip), p50 and p95, in frames of 16.7 ms.
Each game to its standings or --decisions of the person's, whichever first.
Exits 1 if any request fails (no answer, 5xx, any 4xx but a move a
simultaneous seat's move made stale), any stream (a waiter) is answered
otherwise than 200, a page logs an error, serve logs an error, or a worker
job fails.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.production import redis_url_for_bench  # noqa: E402
from bench.web import BARE, TIMING  # noqa: E402
from domain import games as registry  # noqa: E402
from eventstore.servers import temporary_database  # noqa: E402
from tests.web.composing import Measured, step  # noqa: E402
from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS, free_port  # noqa: E402

# Short whole games where a game has a knob for it (as the browser tests play them).
GAMES = {"cronberg": {}, "coronation": {"last_turn": 8}, "court-of-miracles": {}, "the-coil": {},
         "runebound": {"doom_rounds": 3}}
FRAME_MS = 1000 / 60
REDIS_DB = 13  # REDIS_URL's server, a database of the bench's own
MARKS = """() => Object.fromEntries(["view-received", "table-redrawn", "choices-offered"].map(
    (name) => [name, performance.getEntriesByName(name).map((m) => [m.detail, m.startTime])]))"""


def serve(database_url: str, redis_url: str, log: Path) -> tuple[subprocess.Popen, str]:
    """``boardlog serve`` on both URLs: the API, its worker and the notifier; bots move at once."""
    port = free_port()
    env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis_url, "BOARDLOG_RATE_LIMIT": "0",
           "BOARDLOG_BOT_DELAY": "0", "PYTHONPATH": str(ROOT)}
    with open(log, "ab") as errors:
        process = subprocess.Popen([sys.executable, "-m", "api.processes.cli", "serve", "--port", str(port)], cwd=ROOT, env=env,
                                   stdout=subprocess.PIPE, stderr=errors, text=True)
    running = threading.Event()
    threading.Thread(target=lambda: [running.set() for line in process.stdout if line.startswith("boardlog is running")],
                     daemon=True).start()
    if not running.wait(90):
        process.terminate()
        raise SystemExit("FAILED: boardlog serve did not start within 90 s:\n" + log.read_text()[-3000:])
    return process, f"http://127.0.0.1:{port}"


def a_game(base: str, game: str, options: dict) -> tuple[str, str]:
    """A started game for a person (his token) at the game's fewest seats, random bots in the others."""
    token = requests.post(f"{base}/v1/players", json={"name": f"Bench {game}"}, timeout=30).json()["token"]
    seats = requests.get(f"{base}/v1/rules/{game}", timeout=30).json()["default_seats"]
    auth = {"Authorization": f"Bearer {token}"}
    made = requests.post(f"{base}/v1/games", json={"game": game, "options": {**options, "bots": {s: "random" for s in seats[1:]}}},
                         headers=auth, timeout=30)
    made.raise_for_status()
    game_id = made.json()["id"]
    requests.post(f"{base}/v1/games/{game_id}/start", json={}, headers=auth, timeout=30).raise_for_status()
    return game_id, token


class Table:
    """One person's table in a fresh browser context: what each decision cost, and whatever failed."""

    def __init__(self, browser, base: str, game: str, game_id: str, token: str):
        self.game, self.base = game, base
        self.simultaneous = registry.get(game).traits.simultaneous
        self.measured, self.pending = Measured(), {}
        self.failures: list[str] = []
        self.refused = self.closed_streams = 0
        self.closing = False
        self.legal: list = []  # the page's legal-commands answers, newest last: read when a decision begins
        self.context = browser.new_context()
        self.context.add_init_script(f"localStorage.setItem('boardlog.token', {json.dumps(token)})")
        self.page = self.context.new_page()
        self.page.on("response", self.answered)
        self.page.on("requestfailed", self.lost)
        self.page.on("pageerror", lambda error: self.failures.append(f"page error: {error}"))
        self.page.on("console", lambda message: self.failures.append(f"console: {message.text}")
                     if message.type == "error" and not message.text.startswith("Failed to load resource") else None)
        self.page.goto(f"{base}/#/games/{game_id}")
        deadline = time.monotonic() + 60
        # Polled: the page's content security policy forbids the eval wait_for_function needs.
        while not self.page.evaluate("performance.getEntriesByName('board-drawn').length"):
            if time.monotonic() > deadline:
                raise SystemExit(f"FAILED: {game}'s table was not drawn within 60 s: " + self.page.inner_text("body")[:500])
            self.page.wait_for_timeout(50)
        self.first_load = self.page.evaluate(TIMING)

    def answered(self, response) -> None:
        request, path = response.request, urlsplit(response.url).path
        if path.endswith("/legal-commands") and response.status == 200:
            self.legal.append(response)
        if response.status < 400:
            return
        if self.simultaneous and request.method == "POST" and path.endswith("/commands") and response.status in (409, 422):
            self.refused += 1  # another seat moved as this one confirmed: the page redraws with the sentence
            return
        what = "a stream (waiter)" if path.endswith("/stream") else f"{request.method} {path}"
        self.failures.append(f"{what} answered {response.status}")

    def lost(self, request) -> None:
        path = urlsplit(request.url).path
        if path.endswith("/stream") and request.failure == "net::ERR_ABORTED":
            self.closed_streams += 1  # the page closed it: the game's end, or a server's shutdown message
        elif not self.closing:
            self.failures.append(f"{request.method} {path} failed: {request.failure}")

    def flat(self, page, version: int) -> int:
        """The legal commands of ``version``: the buttons the flat list showed at this decision."""
        for response in reversed(self.legal):
            answer = response.json()
            if answer["version"] == version:
                return len(answer["commands"])
        raise SystemExit(f"FAILED: {self.game}'s table composes a move at version {version} without its legal commands")

    def done(self, decisions: int) -> bool:
        return len(self.measured.clicks) >= decisions or self.page.locator("#standings").count() > 0

    def redraws(self) -> tuple[list[float], list[float]]:
        """Milliseconds from each view message to the table redrawn with it, and to the move it offers."""
        marks = self.page.evaluate(MARKS)
        received = marks["view-received"]

        def since(name: str) -> list[float]:
            found = []
            for version, at in marks[name]:
                came = [t for v, t in received if v == version and t <= at]
                if came:
                    found.append(at - max(came))
            return found

        return since("table-redrawn"), since("choices-offered")

    def close(self) -> None:
        self.closing = True
        self.context.close()


def play(tables: list[Table], decisions: int, seconds: float, rng: random.Random) -> bool:
    """Round the tables, a step at each that composes, until each is done; False if time ran out first."""
    from playwright.sync_api import Error as PlaywrightError

    deadline = time.monotonic() + seconds
    while not all(table.done(decisions) for table in tables):
        if time.monotonic() > deadline:
            return False
        moved = False
        for table in tables:
            if table.done(decisions):
                continue
            try:
                moved = step(table.page, rng, table.measured, table.pending, legal=table.flat, words=False) or moved
            except PlaywrightError:  # redrawn under the pointer by a newer view: look again
                continue
        if not moved:
            tables[0].page.wait_for_timeout(40)
    return True


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def report(table: Table, bare_bytes: float) -> tuple[list[float], list[float]]:
    m = table.measured
    buttons, flat, clicks = m.buttons or [0], m.flat or [0], m.clicks or [0]
    redrawn, offered = table.redraws()
    end = "to its standings" if table.page.locator("#standings").count() else "not to its end"
    print(f"{table.game} ({len(m.clicks)} decisions, {end}; {table.refused} moves refused as stale, "
          f"{table.closed_streams} streams closed by the page)")
    print(f"  choice buttons per step  composed: median {statistics.median(buttons):4.0f}  max {max(buttons):4d}   "
          f"flat list: median {statistics.median(flat):5.0f}  max {max(flat):5d}   ratio of maxima {max(flat) / max(1, max(buttons)):6.1f}")
    print(f"  clicks per decision      composed: median {statistics.median(clicks):4.0f}  max {max(clicks):4d}   "
          f"flat list: 1                       ratio of medians {statistics.median(clicks):6.1f}")
    print(f"  first load until drawn   {table.first_load['bytes']:9.0f} bytes  {table.first_load['ms']:6.0f} ms   "
          f"bare static file: {bare_bytes:.0f} bytes          ratio {table.first_load['bytes'] / bare_bytes:6.1f}")
    print(f"  view message to table   p50 {percentile(redrawn, .5):6.1f} ms  p95 {percentile(redrawn, .95):6.1f} ms "
          f"({len(redrawn)} redraws)   in frames: p50 {percentile(redrawn, .5) / FRAME_MS:4.1f}  p95 {percentile(redrawn, .95) / FRAME_MS:4.1f}")
    print(f"  view message to move    p50 {percentile(offered, .5):6.1f} ms  p95 {percentile(offered, .95):6.1f} ms "
          f"({len(offered)} moves offered)   in frames: p50 {percentile(offered, .5) / FRAME_MS:4.1f}  p95 {percentile(offered, .95) / FRAME_MS:4.1f}")
    return redrawn, offered


def server_failures(log: Path, redis_url: str) -> list[str]:
    """serve's logged errors, and the worker's failed jobs."""
    from redis import Redis
    from rq import Queue

    from api.service.scheduling import QUEUE_NAME

    lines = [line for line in log.read_text(errors="replace").splitlines() if " ERROR " in line or " CRITICAL " in line
             or line.startswith("Traceback")]
    failed = Queue(QUEUE_NAME, connection=Redis.from_url(redis_url)).failed_job_registry.count
    return [f"serve: {line}" for line in lines] + ([f"the worker: {failed} failed job(s)"] if failed else [])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=20, help="the person's decisions per game at most")
    parser.add_argument("--seconds", type=float, default=100, help="the play's time at most")
    args = parser.parse_args()
    if not CHROMIUM.exists():
        raise SystemExit(f"{CHROMIUM} is missing (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    started = time.monotonic()
    folder = Path(tempfile.mkdtemp(prefix="boardlog-bench-table-"))
    redis_url, embedded = redis_url_for_bench(folder, REDIS_DB)
    from redis import Redis

    Redis.from_url(redis_url).flushdb()  # the bench's own database: no queue or lease of an earlier run
    postgres = os.environ.get("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    failures: list[str] = []
    with temporary_database(postgres, prefix="boardlog_bench_table") as database, sync_playwright() as playwright:
        process, base = serve(database, redis_url, folder / "serve.log")
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        tables: list[Table] = []
        try:
            bare = browser.new_context()
            page = bare.new_page()
            page.goto(base + BARE)
            bare_bytes = page.evaluate(TIMING)["bytes"]
            bare.close()
            for game, options in GAMES.items():
                tables.append(Table(browser, base, game, *a_game(base, game, options)))
            finished = play(tables, args.decisions, args.seconds, random.Random(33))
            print(f"bench/table.py: {len(tables)} games at once, one person each against random bots, "
                  f"by composed choices only; up to {args.decisions} decisions each")
            redrawn, offered = [], []
            for table in tables:
                r, o = report(table, bare_bytes)
                redrawn += r
                offered += o
            print(f"all tables: view message to table p50 {percentile(redrawn, .5):.1f} ms p95 {percentile(redrawn, .95):.1f} ms; "
                  f"to move p50 {percentile(offered, .5):.1f} ms p95 {percentile(offered, .95):.1f} ms")
            if not finished:
                failures.append(f"the tables were not done within {args.seconds:.0f} s: "
                                + ", ".join(f"{t.game} at {len(t.measured.clicks)} decisions" for t in tables if not t.done(args.decisions)))
        finally:
            for table in tables:
                failures += [f"{table.game}: {failure}" for failure in table.failures]
                table.close()
            browser.close()
            process.terminate()
            process.wait(60)
            failures += server_failures(folder / "serve.log", redis_url)
            if embedded is not None:
                embedded.stop()
    print(f"ran in {time.monotonic() - started:.0f} s")
    if failures:
        print("FAILED:\n  " + "\n  ".join(failures[:40]), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
