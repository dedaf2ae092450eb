"""API benchmark: boardlog under the production command (gunicorn with
api/processes/gunicorn_conf.py, gevent workers, Redis, rate limits on, the request log
at INFO) against a bare Flask app served the same way, in the same run, on
the same machine, with wrk as the client (a Python client would be the
bottleneck of both).

    python bench/api.py [--seconds 5] [--poll-games 100] [--poll-rounds 3] [--poll-connections 32]
                        [--connections 16] [--rounds 3] [--games 14] [--profile DIR]

PostgreSQL: DATABASE_URL's server, or an embedded one; throwaway databases.
Prints, each as a ratio to its baseline:
- conditional polls answered 304, 200 players on 100 games each polling its
  own view (bench/polls.py): polls per second and server CPU per poll;
- command cycles (GET the legal commands, POST the first) over 16 games at
  once (bench/cycles.py): cycles per second, server CPU per cycle and
  PostgreSQL transactions per cycle;
- command latency on a game with 5,000 events against one with 10.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import tempfile
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
GEVENT = ("-c", "python:api.processes.gunicorn_conf", "-w", "2")  # boardlog's production settings


def gunicorn(app: str, env: dict, workers: tuple = GTHREAD, log=None, pythonpath: tuple[Path, ...] = (),
             code: Path | None = None) -> tuple[subprocess.Popen, str]:
    """``log``: a file for the server's output (as a deployment sends it to
    its log collector), else this process's own; ``pythonpath``: folders put
    before the checkout on its PYTHONPATH (tests/support/example_hosted: the
    example game hosted); ``code``: the checkout served (this one by default)."""
    code = code or ROOT
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", *workers,
         "-b", f"127.0.0.1:{port}", "--log-level", "warning", app],
        cwd=code, env={**os.environ, **env, "PYTHONPATH": os.pathsep.join(map(str, (*pythonpath, code)))},
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
    from bench import cycles, polls
    from bench.production import redis_url_for_bench, stop

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    polls.add_arguments(parser)
    cycles.add_arguments(parser)
    args = parser.parse_args()
    if not shutil.which("wrk"):
        print("bench/api.py needs wrk (apt-get install wrk): a Python client would be the bottleneck of both sides")
        return 2
    polls.report(polls.measure(args))  # with --profile, where the workers' time went, for polls too
    folder = Path(tempfile.mkdtemp(prefix="boardlog-api-"))
    redis_url, embedded = redis_url_for_bench(folder, 9)
    processes = []
    try:
        with temporary_server(os.environ.get("DATABASE_URL")) as server, \
                temporary_database(server, "boardlog_bench") as url:
            migrate(url)
            env = {"DATABASE_URL": url, "REDIS_URL": redis_url, "BOARDLOG_RATE_LIMIT": "100000000",
                   "BOARDLOG_LOG_LEVEL": "INFO"}
            log = open(folder / "server.log", "ab")  # noqa: SIM115 (closed with the folder)
            app, app_url = gunicorn("api.processes.wsgi:app", env, GEVENT, log)
            processes = [app]
            short = long_game_latency(app_url, 10, 30)
            long = long_game_latency(app_url, 5000, 30)
            print(f"command p50 on a 5,000-event game: {long * 1000:.1f} ms   on a 10-event game: "
                  f"{short * 1000:.1f} ms   ratio {long / short:.2f} (goal <= 1.5)")
            stop(processes)  # before the database goes
    finally:
        stop(processes)
        if embedded is not None:
            embedded.stop()
        shutil.rmtree(folder, ignore_errors=True)
    cycles.report(cycles.measure(args), args.connections)
    return 0


if __name__ == "__main__":
    sys.exit(main())
