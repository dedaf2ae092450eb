"""``boardlog serve`` with no URLs: embedded PostgreSQL and Redis in a data
folder, the API and a worker; its data outlives a restart; SIGTERM stops it."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import urllib.error
import urllib.request
from pathlib import Path

from .conftest import ROOT, wait_until


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def call(port: int, method: str, path: str, body=None, token: str | None = None) -> tuple[int, dict]:
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")
    except OSError:
        return 0, {}


def ready(answer) -> bool:
    """/readyz says ready, with both servers reachable (it also shows the notifier's lag)."""
    status, body = answer
    return status == 200 and body["status"] == "ready" and body["checks"] == {"postgres": "ok", "redis": "ok"}


class Serve:
    def __init__(self, data: Path, port: int, log: Path, urls: dict | None = None):
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")} | (urls or {})
        self.port = port
        self.log_path = log
        self.log = open(log, "ab")
        self.lines: list[str] = []
        self.process = subprocess.Popen(
            [sys.executable, "-m", "api.processes.cli", "serve", "--data", str(data), "--port", str(port)],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=self.log, text=True,
        )
        self.reader = threading.Thread(target=lambda: self.lines.extend(self.process.stdout), daemon=True)
        self.reader.start()

    def wait_running(self) -> str:
        """Until serve says it runs (the API and the worker both are up)."""
        def running():
            assert self.process.poll() is None, "boardlog serve exited early:\n" + self.log_path.read_text()
            return next((line for line in self.lines if line.startswith("boardlog is running")), None)

        return wait_until(running, 90, "boardlog serve to say it runs", every=0.1)

    def stop(self, signum: int = signal.SIGTERM) -> int:
        self.process.send_signal(signum)
        self.process.wait(60)
        self.reader.join(10)
        self.log.close()
        return self.process.returncode


def test_serve_without_urls_runs_on_embedded_servers_keeps_its_data_across_a_restart_and_stops_on_sigterm(tmp_path):
    data = Path(tempfile.mkdtemp(prefix="boardlog-serve-"))  # outside pytest's private folder: postgres runs as another user
    port = free_port()
    try:
        first = Serve(data, port, tmp_path / "serve.log")
        try:
            root = f"http://127.0.0.1:{port}"
            assert first.wait_running().strip() == \
                f"boardlog is running: web client {root}/  API {root}/v1  docs {root}/v1/docs"
            assert call(port, "GET", "/healthz") == (200, {"status": "ok"})
            assert ready(call(port, "GET", "/readyz"))
            status, player = call(port, "POST", "/v1/players", {"name": "keeps"})
            assert status == 201, player
        finally:
            code = first.stop()
        assert code == 0, (tmp_path / "serve.log").read_text()
        assert first.lines[-1].strip() == "boardlog stopped"
        assert (data / "redis.db").exists()
        assert not (data / "pg" / "postmaster.pid").exists(), "PostgreSQL was stopped"

        second = Serve(data, port, tmp_path / "serve.log")
        try:
            second.wait_running()
            status, inbox = call(port, "GET", "/v1/players/me/inbox", token=player["token"])
            assert status == 200, f"the player registered before the restart is known after it: {inbox}"
        finally:
            code = second.stop()
        assert code == 0, (tmp_path / "serve.log").read_text()
    finally:
        shutil.rmtree(data, ignore_errors=True)


def test_serve_with_urls_uses_those_servers_and_starts_nothing_embedded(tmp_path, database_url, redis_url, redis):
    import psycopg

    from eventstore.servers import temporary_database

    data = tmp_path / "data"
    port = free_port()
    with temporary_database(database_url, prefix="boardlog_serve") as fresh:
        serve = Serve(data, port, tmp_path / "serve.log", urls={"DATABASE_URL": fresh, "REDIS_URL": redis_url})
        try:
            serve.wait_running()
            assert ready(call(port, "GET", "/readyz"))
            status, player = call(port, "POST", "/v1/players", {"name": "outside"})
            assert status == 201, player
        finally:
            code = serve.stop()
        assert code == 0, (tmp_path / "serve.log").read_text()
        with psycopg.connect(fresh) as conn:
            assert conn.execute("select name from players where id = %s", (player["id"],)).fetchone() == ("outside",)
    assert redis.exists("rq:queues") or redis.keys("rq:*"), "the worker registered with the given Redis"
    assert not data.exists() or not any(data.iterdir()), f"nothing embedded was started: {list(data.iterdir())}"
