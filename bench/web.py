"""Web client benchmark: each game's table in headless Chromium (Debian's
/usr/bin/chromium, driven by Playwright) against ``boardlog serve`` on a warm
server, against a bare static file from the same server, in the same run.

    python bench/web.py [--loads 3] [--moves 6]

PostgreSQL: DATABASE_URL's server (a throwaway database on it); Redis:
REDIS_URL. Prints, per game, each as a ratio to its baseline:
- time to the first drawn board (the table's `board-drawn` performance mark,
  board and data files included), against the bare file's load (navigation
  timing's responseEnd); median of --loads loads, each in a fresh browser
  context (nothing cached);
- bytes transferred until then (navigation and resource timing's
  transferSize), against the bare file's;
- the page's own work per stream message (Chromium's TaskDuration, over the
  stream events a spectator's table receives while --moves moves are made),
  against the bare file's load work.
Fails loudly (exit status 1) when a table does not draw its board from the data.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from eventstore.servers import temporary_database  # noqa: E402
from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS, free_port  # noqa: E402

GAMES = ["cronberg", "coronation", "court-of-miracles", "runebound", "the-coil"]
BARE = "/web/favicon.svg"  # a static file of the same server: the cost of one round trip and nothing else
DRAWN = '#board svg[data-drawn-from="data"]'
TIMING = """() => {
    const drawn = performance.getEntriesByName("board-drawn")[0];
    const page = performance.getEntriesByType("navigation")[0];
    const until = drawn ? drawn.startTime : page.responseEnd;
    const loaded = performance.getEntriesByType("resource").filter((r) => r.responseEnd <= until);
    return {ms: until, bytes: loaded.reduce((sum, r) => sum + r.transferSize, page.transferSize)};
}"""


def serve(database_url: str, data: Path):
    port = free_port()
    env = {**os.environ, "DATABASE_URL": database_url, "BOARDLOG_RATE_LIMIT": "0", "BOARDLOG_BOT_DELAY": "0",
           "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen([sys.executable, "-m", "api.processes.cli", "serve", "--port", str(port), "--data", str(data)],
                               cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    running = threading.Event()
    threading.Thread(target=lambda: [running.set() for line in process.stdout if line.startswith("boardlog is running")],
                     daemon=True).start()
    if not running.wait(90):
        process.terminate()
        raise SystemExit("boardlog serve did not start within 90 s")
    return process, f"http://127.0.0.1:{port}"


def a_game(base: str, game: str) -> tuple[str, str]:
    token = requests.post(f"{base}/v1/players", json={"name": f"bench-{game}"}).json()["token"]
    seats = requests.get(f"{base}/v1/rules/{game}").json()["default_seats"]
    made = requests.post(f"{base}/v1/games", json={"game": game, "options": {"bots": {s: "random" for s in seats[1:]}}},
                         headers={"Authorization": f"Bearer {token}"}).json()
    requests.post(f"{base}/v1/games/{made['id']}/start", json={}, headers={"Authorization": f"Bearer {token}"}).raise_for_status()
    return made["id"], token


def load(browser, base: str, path: str, token: str | None = None, wait: str | None = None) -> dict:
    """One load in a fresh context: its timing and bytes, and its own work (TaskDuration, seconds)."""
    context = browser.new_context()
    try:
        if token:
            context.add_init_script(f"localStorage.setItem('boardlog.token', {json.dumps(token)})")
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Performance.enable")
        page.goto(base + path)
        if wait:
            try:
                page.wait_for_selector(wait, timeout=30000)
            except Exception:
                raise SystemExit(f"FAILED: {path} drew no board from the served data within 30 s "
                                 f"(board: {page.inner_html('#board')[:200] if page.locator('#board').count() else 'none'})")
        else:
            page.wait_for_load_state("load")
        return {**page.evaluate(TIMING), "work": task_seconds(cdp)}
    finally:
        context.close()


def task_seconds(cdp) -> float:
    return next(m["value"] for m in cdp.send("Performance.getMetrics")["metrics"] if m["name"] == "TaskDuration")


def work_per_stream_message(browser, base: str, game_id: str, token: str, moves: int, rng: random.Random) -> tuple[float, int]:
    """A spectator's table follows the game while the player makes `moves` moves over the API (the bots answer)."""
    context = browser.new_context()
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Performance.enable")
        page.goto(f"{base}/#/watch/{game_id}")
        page.wait_for_selector(DRAWN, timeout=30000)
        page.wait_for_timeout(500)  # the first drawing's work is done
        before, streamed = task_seconds(cdp), len(page.get_attribute("#table", "data-streamed").split(",")) if page.get_attribute("#table", "data-streamed") else 0
        auth = {"Authorization": f"Bearer {token}"}
        for _ in range(moves):
            for _ in range(100):
                legal = requests.get(f"{base}/v1/games/{game_id}/legal-commands", headers=auth).json().get("commands") or []
                if legal:
                    break
                time.sleep(0.05)
            if not legal:
                break
            sent = requests.post(f"{base}/v1/games/{game_id}/commands", json=rng.choice(legal), headers=auth)
            if sent.status_code >= 400:
                raise SystemExit(f"FAILED: a legal command was refused: {sent.status_code} {sent.text[:300]}")
        version = requests.get(f"{base}/v1/games/{game_id}").json()["version"]
        deadline = time.monotonic() + 30
        while int(page.get_attribute("#table", "data-version")) < version:
            if time.monotonic() > deadline:
                raise SystemExit(f"FAILED: the spectator's table stopped at version {page.get_attribute('#table', 'data-version')} of {version}")
            page.wait_for_timeout(50)
        page.wait_for_timeout(300)
        received = len([v for v in page.get_attribute("#table", "data-streamed").split(",") if v]) - streamed
        if received <= 0:
            raise SystemExit(f"FAILED: the spectator's table of {game_id} received no stream message "
                             f"(version {version}, streamed {page.get_attribute('#table', 'data-streamed')!r}, before {streamed})")
        return (task_seconds(cdp) - before) / received, received
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=3)
    parser.add_argument("--moves", type=int, default=6)
    args = parser.parse_args()
    if not CHROMIUM.exists():
        raise SystemExit(f"{CHROMIUM} is missing (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    server = os.environ.get("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    with temporary_database(server, prefix="boardlog_bench_web") as database, sync_playwright() as playwright:
        process, base = serve(database, Path(f"/tmp/boardlog-bench-web-{os.getpid()}"))
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            games = {game: a_game(base, game) for game in GAMES}
            for game, (game_id, token) in games.items():  # warm: every route, query and file once
                load(browser, base, f"/#/games/{game_id}", token, DRAWN)
            bare = [load(browser, base, BARE) for _ in range(args.loads)]
            bare_ms = statistics.median(b["ms"] for b in bare)
            bare_bytes = statistics.median(b["bytes"] for b in bare)
            bare_work = statistics.median(b["work"] for b in bare)
            print(f"bare static file ({BARE}): {bare_ms:6.1f} ms  {bare_bytes:8.0f} bytes  work {bare_work * 1000:.1f} ms")
            rng = random.Random(7)
            for game, (game_id, token) in games.items():
                loads = [load(browser, base, f"/#/games/{game_id}", token, DRAWN) for _ in range(args.loads)]
                ms = statistics.median(x["ms"] for x in loads)
                transferred = statistics.median(x["bytes"] for x in loads)
                per_message, received = work_per_stream_message(browser, base, game_id, token, args.moves, rng)
                print(f"{game:18} first drawn board {ms:7.1f} ms  ratio {ms / bare_ms:6.1f}   "
                      f"bytes {transferred:8.0f}  ratio {transferred / bare_bytes:6.1f}   "
                      f"work per stream message {per_message * 1000:5.2f} ms ({received} messages)  "
                      f"ratio {per_message / bare_work:5.2f}")
        finally:
            browser.close()
            process.terminate()
            process.wait(60)


if __name__ == "__main__":
    main()
