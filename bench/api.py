"""API benchmark: boardlog under gunicorn against a bare Flask app served the
same way, in the same run, on the same machine.

    python bench/api.py [--seconds 5] [--clients 4] [--connections 16] [--rounds 3] [--games 14]

PostgreSQL: DATABASE_URL's server, or an embedded one; a throwaway database.
Prints, each as a ratio to its baseline:
- conditional polls (If-None-Match answered 304) per second;
- command cycles (GET the legal commands, POST the first) over 16 games at
  once, under the production command, with wrk (bench/cycles.py): cycles
  per second, server CPU per cycle and PostgreSQL transactions per cycle;
- command latency on a game with 5,000 events against one with 10.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from eventstore import migrate  # noqa: E402
from eventstore.servers import temporary_database, temporary_server  # noqa: E402


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


GTHREAD = ("-w", "2", "-k", "gthread", "--threads", "8")
GEVENT = ("-c", "python:api.gunicorn_conf", "-w", "2")  # boardlog's production settings


def gunicorn(app: str, env: dict, workers: tuple = GTHREAD, log=None) -> tuple[subprocess.Popen, str]:
    """``log``: a file for the server's output (as a deployment sends it to
    its log collector), else this process's own."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", *workers,
         "-b", f"127.0.0.1:{port}", "--log-level", "warning", app],
        cwd=ROOT, env={**os.environ, **env, "PYTHONPATH": str(ROOT)},
        stdout=log, stderr=log,
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            requests.get(url + "/healthz", timeout=5)
            return process, url
        except (requests.ConnectionError, requests.Timeout):
            time.sleep(0.05)
    raise RuntimeError(f"gunicorn {app} did not start")


def _poll_loop(args) -> int:
    url, headers, seconds, expect = args
    session = requests.Session()
    done, end = 0, time.monotonic() + seconds
    while time.monotonic() < end:
        response = session.get(url, headers=headers, timeout=10)
        assert response.status_code == expect, response.status_code
        done += 1
    return done


def rate(pool, clients: int, seconds: float, job) -> float:
    """Requests per second: wrk when it is installed (a C client keeps the
    client from being the bottleneck), else Python client processes."""
    url, headers, _, _ = job[1]
    if shutil.which("wrk"):
        flags = [arg for name, value in headers.items() for arg in ("-H", f"{name}: {value}")]
        out = subprocess.run(["wrk", "-t2", "-c16", f"-d{int(seconds)}s", *flags, url],
                             capture_output=True, text=True, check=True).stdout
        non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
        assert non_2xx is None, out
        return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    return sum(pool.map(job[0], [job[1]] * clients)) / seconds


class Client:
    def __init__(self, base: str, name: str):
        self.base = base
        self.http = requests.Session()
        answer = self.http.post(f"{base}/v1/players", json={"name": name}, timeout=10).json()
        self.auth = {"Authorization": f"Bearer {answer['token']}"}

    def call(self, method: str, path: str, **kwargs):
        return self.http.request(method, self.base + path, headers={**self.auth, **kwargs.pop("headers", {})},
                                 timeout=30, **kwargs)


def new_game(base: str, tag: str) -> tuple[str, dict]:
    a, b = Client(base, f"{tag}-a"), Client(base, f"{tag}-b")
    game = a.call("POST", "/v1/games", json={"game": "cronberg", "options": {"players": 2}}).json()["id"]
    b.call("POST", f"/v1/games/{game}/join", json={})
    a.call("POST", f"/v1/games/{game}/start")
    seats = {s["seat"]: c for s, c in zip(a.call("GET", f"/v1/games/{game}").json()["seats"], (a, b))}
    return game, seats


def long_game_latency(base: str, events: int, samples: int) -> float:
    """p50 of command POSTs on a game grown to ``events`` events by lobby churn."""
    game, seats = new_game_with_history(base, events)
    latencies = []
    for _ in range(samples):
        summary = next(iter(seats.values())).call("GET", f"/v1/games/{game}").json()
        if summary["status"] != "active":
            game, seats = new_game_with_history(base, events)
            continue
        player = seats[summary["to_act"][0]]
        command = player.call("GET", f"/v1/games/{game}/legal-commands").json()["commands"][0]
        started = time.perf_counter()
        player.call("POST", f"/v1/games/{game}/commands", json=command)
        latencies.append(time.perf_counter() - started)
    return statistics.median(latencies)


def new_game_with_history(base: str, events: int):
    a, b, c = (Client(base, f"long-{n}") for n in "abc")
    game = a.call("POST", "/v1/games", json={"game": "cronberg", "options": {"players": 2}}).json()["id"]
    # Join and leave until the stream is long: real events that every load must get past.
    while a.call("GET", f"/v1/games/{game}").json()["version"] < events - 10:
        c.call("POST", f"/v1/games/{game}/join", json={})
        c.call("POST", f"/v1/games/{game}/leave")
    b.call("POST", f"/v1/games/{game}/join", json={})
    a.call("POST", f"/v1/games/{game}/start")
    seats = {s["seat"]: p for s, p in zip(a.call("GET", f"/v1/games/{game}").json()["seats"], (a, b))}
    return game, seats


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--clients", type=int, default=4, help="Python clients of the poll figure when wrk is missing")
    from bench import cycles

    cycles.add_arguments(parser)
    args = parser.parse_args()
    with temporary_server(os.environ.get("DATABASE_URL")) as server, temporary_database(server, "boardlog_bench") as url:
        migrate(url)
        env = {"DATABASE_URL": url, "BOARDLOG_RATE_LIMIT": "0", "REDIS_URL": ""}
        app, app_url = gunicorn("api.wsgi:app", env)
        bare, bare_url = gunicorn("bench.bare:app", {})
        try:
            run(app_url, bare_url, args)
        finally:
            for process in (app, bare):
                process.terminate()
                process.wait(timeout=20)
    if not shutil.which("wrk"):
        print("command cycles: not measured, they need wrk (apt-get install wrk): Python clients would be the bottleneck")
        return 2
    cycles.report(cycles.measure(args), args.connections)
    return 0


def run(app_url: str, bare_url: str, args) -> None:
    with multiprocessing.get_context("fork").Pool(max(1, args.clients)) as pool:
        game, seats = new_game(app_url, "poll")
        player = next(iter(seats.values()))
        etag = player.call("GET", f"/v1/games/{game}/view").headers["ETag"]
        poll = (_poll_loop, (f"{app_url}/v1/games/{game}/view", {**player.auth, "If-None-Match": etag}, args.seconds, 304))
        bare_poll = (_poll_loop, (f"{bare_url}/ping", {"If-None-Match": '"1"'}, args.seconds, 304))
        polls, bare_polls = rate(pool, args.clients, args.seconds, poll), rate(pool, args.clients, args.seconds, bare_poll)
        client = "wrk" if shutil.which("wrk") else "python clients (install wrk for a truer figure)"
        print(f"conditional polls (304, {client}): {polls:8.0f}/s   bare Flask: {bare_polls:8.0f}/s   ratio {polls / bare_polls:.2f} (goal >= 0.6)")

    short = long_game_latency(app_url, 10, 30)
    long = long_game_latency(app_url, 5000, 30)
    print(f"command p50 on a 5,000-event game: {long * 1000:.1f} ms   on a 10-event game: {short * 1000:.1f} ms   "
          f"ratio {long / short:.2f} (goal <= 1.5)")


if __name__ == "__main__":
    sys.exit(main())
