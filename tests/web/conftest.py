"""The web client in a real browser: Debian's chromium, headless, driven by
Playwright for Python against ``boardlog serve`` on a real port (the API, its
streams and a worker that moves the bots and scores the games), on the
test session's PostgreSQL database and Redis.

Skipped, with a sentence, when /usr/bin/chromium is missing (apt-get install
chromium). Playwright's own browsers are never downloaded."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from eventstore.servers import temporary_database

from tests.support.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def pytest_collection_modifyitems(config, items):
    if CHROMIUM.exists():
        return
    skip = pytest.mark.skip(reason=f"{CHROMIUM} is missing: the web client's tests need Debian's chromium "
                                   "(apt-get install chromium)")
    for item in items:
        if "tests/web/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(skip)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def artifacts() -> Path:
    folder = Path(os.environ.get("BOARDLOG_TEST_ARTIFACTS", ROOT / "tests" / "artifacts"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def base_url(database_url, redis_url, tmp_path_factory):
    """``boardlog serve`` (the API and a worker) on a database of its own, for
    this module only: its worker and sweeper would otherwise take the jobs,
    and sweep the games, of every test that runs after it (tests/workers)."""
    with temporary_database(database_url, prefix="boardlog_web") as own_database:
        yield from _served(own_database, redis_url, tmp_path_factory)


def _served(database_url, redis_url, tmp_path_factory, pythonpath: Path | None = None):
    """``pythonpath`` first on the server's PYTHONPATH (its worker inherits it): a test's additions to what it hosts."""
    port = free_port()
    log = tmp_path_factory.mktemp("web-serve") / "serve.log"
    env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis_url, "BOARDLOG_RATE_LIMIT": "0",
           "BOARDLOG_PUBLIC_URL": f"http://127.0.0.1:{port}",  # the links its mails carry lead back to it
           "BOARDLOG_BOT_DELAY": "0",  # bots move at once: a whole game in the test's time
           # Streams end after a few seconds: every page reconnects many times in a game, with a new ticket each time.
           "BOARDLOG_STREAM_LIFETIME": "4", "BOARDLOG_STREAM_RETRY_MS": "200"}
    if pythonpath is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(pythonpath), str(ROOT), os.environ.get("PYTHONPATH"))))
    with open(log, "ab") as errors:
        process = subprocess.Popen([sys.executable, "-m", "api.processes.cli", "serve", "--port", str(port),
                                    "--data", str(log.parent / "data")],
                                   cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=errors, text=True)
        lines: list[str] = []
        reader = threading.Thread(target=lambda: lines.extend(process.stdout), daemon=True)
        reader.start()

        def running():
            assert process.poll() is None, "boardlog serve exited early:\n" + log.read_text()
            return any(line.startswith("boardlog is running") for line in lines)

        try:
            wait_until(running, 90, "boardlog serve to say it runs", every=0.1)
            yield f"http://127.0.0.1:{port}"
        finally:
            process.terminate()
            process.wait(60)
            reader.join(10)


# Per module, not per session: Playwright's sync API keeps an event loop
# running in the test process while it is open, and a later file on the same
# xdist worker that runs asyncio (the failover and waiting benches the tests
# drive) was refused ("asyncio.run() cannot be called from a running event loop").
@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the [test] extras")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class Watched:
    """A browser context of its own (its own localStorage: its own person),
    with every console error and every request to another origin noted."""

    def __init__(self, browser, base_url: str, **options):
        self.base_url = base_url
        self.context = browser.new_context(**options)
        self.page = self.context.new_page()
        self.console_errors: list[str] = []
        self.foreign_requests: list[str] = []
        self.requests: list[str] = []
        origin = urlsplit(base_url)[:2]
        self.page.on("console", lambda message: self.console_errors.append(message.text) if message.type == "error" else None)
        self.page.on("pageerror", lambda error: self.console_errors.append(str(error)))

        def seen(request):
            self.requests.append(request.url)
            if urlsplit(request.url)[:2] != origin:
                self.foreign_requests.append(request.url)

        self.context.on("request", seen)

    def open(self, path: str = "/"):
        self.page.goto(self.base_url + path)
        return self.page

    def token(self) -> str | None:
        return self.page.evaluate("localStorage.getItem('boardlog.token')")

    def close(self):
        self.context.close()


@pytest.fixture
def person(browser, base_url):
    opened: list[Watched] = []

    def make(**options) -> Watched:
        watched = Watched(browser, base_url, **options)
        opened.append(watched)
        return watched

    yield make
    for watched in opened:
        watched.close()


def api(base_url: str, method: str, path: str, body=None, token: str | None = None) -> tuple[int, dict | None]:
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(base_url + path, data=json.dumps(body).encode() if body is not None else None,
                                     method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            text = response.read()
            return response.status, json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        text = error.read()
        return error.code, json.loads(text) if text else None
