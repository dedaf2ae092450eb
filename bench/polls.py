"""Polls as play-by-mail players make them: many players on many games, each
polling its own view with the ETag of its last answer, against a bare Flask
app answering 304 under the same production command, interleaved.

    python bench/polls.py [--poll-games 100] [--seconds 5] [--poll-rounds 3] [--poll-connections 32] [--profile]

Both servers run `gunicorn -c python:api.processes.gunicorn_conf` (gevent, 2 workers);
boardlog has Redis (REDIS_URL's server on database 7, or an embedded one)
with rate limits on, and its request log at INFO, as a deployment runs it.
The client is wrk with a Lua script that cycles through every player's
(game, token, ETag), so no cache is hotter than a real population makes it.
Prints polls per second and server CPU per poll (user + system time of the
gunicorn processes over the run, divided by the polls answered), each as a
ratio to the bare app (goal >= 0.8 for both). A poll that is not answered
304 fails the run. ``--profile`` then samples both boardlog workers with
py-spy (``pip install py-spy``) through one more round and prints where
their busy time went, by function (the share of samples in which it is on
the stack).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path


ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api import GEVENT, Client, gunicorn  # noqa: E402
from bench.production import Profiler, redis_url_for_bench, server_cpu, stop  # noqa: E402
from eventstore import migrate  # noqa: E402
from eventstore.servers import temporary_database, temporary_server  # noqa: E402

LUA = """
local polls = {%s}
local counter = 0
local threads = {}
bad = 0
setup = function(thread) table.insert(threads, thread) end
init = function(args) counter = math.random(#polls) end
request = function()
  counter = counter %% #polls + 1
  local p = polls[counter]
  return wrk.format("GET", p[1], {["Authorization"] = "Bearer " .. p[2], ["If-None-Match"] = p[3]})
end
response = function(status, headers, body) if status ~= 304 then bad = bad + 1 end end
done = function(summary, latency, requests)
  local total = 0
  for _, thread in ipairs(threads) do total = total + thread:get("bad") end
  io.write(string.format("not-304: %%d\\n", total))
end
"""


def population(base: str, games: int) -> list[tuple[str, str, str]]:
    """(path, token, ETag) of both players of ``games`` started games."""
    polls = []
    for n in range(games):
        a, b = Client(base, f"poller-{n}-a"), Client(base, f"poller-{n}-b")
        game = a.call("POST", "/v1/games", json={"game": "cronberg", "options": {"players": 2}}).json()["id"]
        b.call("POST", f"/v1/games/{game}/join", json={})
        a.call("POST", f"/v1/games/{game}/start")
        for player in (a, b):
            path = f"/v1/games/{game}/view"
            etag = player.call("GET", path).headers["ETag"]
            polls.append((path, player.auth["Authorization"].removeprefix("Bearer "), etag))
    return polls


def wrk(url: str, script: Path, seconds: float, connections: int) -> tuple[float, int]:
    out = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{int(seconds)}s", "-s", str(script), url],
                         capture_output=True, text=True, check=True).stdout
    failed = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    not_304 = int(re.search(r"not-304: (\d+)", out).group(1))
    if failed or not_304:
        raise SystemExit(f"polls failed (every poll must be answered 304):\n{out}")
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)), requests


def round_of(process, url: str, script: Path, args) -> tuple[float, float]:
    """Polls per second and server CPU per poll (ms) over one round."""
    before = server_cpu(process)
    rate, requests = wrk(url, script, args.seconds, args.poll_connections)
    return rate, (server_cpu(process) - before) / requests * 1000


def measure(args) -> dict:
    """The interleaved rounds (and ``args.profile``: one more, profiled); SystemExit if a poll failed."""
    folder = Path(tempfile.mkdtemp(prefix="boardlog-polls-"))
    redis_url, embedded = redis_url_for_bench(folder, 7)
    processes = []
    loads = [os.getloadavg()[0]]
    profiler = Profiler(folder / "profile" if args.profile else None)
    try:
        with temporary_server(os.environ.get("DATABASE_URL")) as server, temporary_database(server) as url:
            migrate(url)
            env = {"DATABASE_URL": url, "REDIS_URL": redis_url, "BOARDLOG_RATE_LIMIT": "100000000",
                   "BOARDLOG_LOG_LEVEL": "INFO"}
            log = open(folder / "servers.log", "ab")  # noqa: SIM115 (closed with the folder)
            app, app_url = gunicorn("api.processes.wsgi:app", env, GEVENT, log)
            bare, bare_url = gunicorn("bench.bare:app", {}, GEVENT, log)
            processes = [app, bare]
            polls = population(app_url, args.poll_games)
            script = folder / "polls.lua"
            script.write_text(LUA % ", ".join(f'{{"{p}", "{t}", \'{e}\'}}' for p, t, e in polls))
            bare_script = folder / "bare.lua"
            bare_script.write_text(LUA % '{"/ping", "x", \'"1"\'}')
            wrk(app_url, script, 2, args.poll_connections)  # warm both
            wrk(bare_url, bare_script, 2, args.poll_connections)
            ours, theirs = [], []
            for _ in range(args.poll_rounds):
                ours.append(round_of(app, app_url, script, args))
                theirs.append(round_of(bare, bare_url, bare_script, args))
                loads.append(os.getloadavg()[0])
            if args.profile:
                spies = profiler.start(app, args.seconds)
                wrk(app_url, script, args.seconds, args.poll_connections)
                profiler.finish(spies)
                profiler.summary()
            stop(processes)  # before the database goes
    finally:
        stop(processes)
        if embedded is not None:
            embedded.stop()
        shutil.rmtree(folder, ignore_errors=True)
    return {"players": len(polls), "games": args.poll_games, "loads": loads,
            "rate": statistics.median(r for r, _ in ours), "bare_rate": statistics.median(r for r, _ in theirs),
            "cpu": statistics.median(c for _, c in ours), "bare_cpu": statistics.median(c for _, c in theirs)}


def report(figures: dict) -> None:
    loads = figures["loads"]
    print(f"load average (1 min) during the polls: {min(loads):.2f}-{max(loads):.2f} on {os.cpu_count()} CPUs")
    print(f"304 polls, {figures['players']} players on {figures['games']} games: {figures['rate']:8.0f}/s   "
          f"bare Flask: {figures['bare_rate']:8.0f}/s   ratio {figures['rate'] / figures['bare_rate']:.2f} (goal >= 0.8)")
    print(f"server CPU per poll: {figures['cpu']:.3f} ms   bare Flask: {figures['bare_cpu']:.3f} ms   "
          f"ratio {figures['bare_cpu'] / figures['cpu']:.2f} (goal >= 0.8)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--poll-games", dest="poll_games", type=int, default=100, help="games polled, by both their players")
    parser.add_argument("--poll-rounds", dest="poll_rounds", type=int, default=3)
    parser.add_argument("--poll-connections", dest="poll_connections", type=int, default=32)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--profile", action="store_true", help="then where the workers' time goes (py-spy)")
    add_arguments(parser)
    args = parser.parse_args()
    if not shutil.which("wrk"):
        print("bench/polls.py needs wrk (apt-get install wrk): a Python client would be the bottleneck")
        return 2
    report(measure(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
