"""Polls as play-by-mail players make them: many players on many games, each
polling its own view with the ETag of its last answer, against a bare Flask
app answering 304 under the same production command, interleaved.

    python bench/polls.py [--games 100] [--seconds 5] [--rounds 3] [--connections 32] [--profile]

Both servers run `gunicorn -c python:api.gunicorn_conf` (gevent, 2 workers);
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
import time
from collections import Counter
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api import GEVENT, Client, gunicorn  # noqa: E402
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


def server_cpu(process: subprocess.Popen) -> float:
    parent = psutil.Process(process.pid)
    total = 0.0
    for proc in [parent, *parent.children(recursive=True)]:
        times = proc.cpu_times()
        total += times.user + times.system
    return total


def wrk(url: str, script: Path, seconds: float, connections: int) -> tuple[float, int]:
    out = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{int(seconds)}s", "-s", str(script), url],
                         capture_output=True, text=True, check=True).stdout
    failed = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    not_304 = int(re.search(r"not-304: (\d+)", out).group(1))
    if failed or not_304:
        raise SystemExit(f"polls failed (every poll must be answered 304):\n{out}")
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)), requests


def measure(process, url: str, script: Path, args) -> tuple[float, float]:
    before = server_cpu(process)
    rate, requests = wrk(url, script, args.seconds, args.connections)
    return rate, (server_cpu(process) - before) / requests * 1000


def profile(process, url: str, script: Path, args, folder: Path) -> None:
    """Where the workers' busy time goes under the same load: py-spy on each worker."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if not Path(spy).exists():
        print("--profile needs py-spy (pip install py-spy)")
        return
    workers = psutil.Process(process.pid).children()
    outputs = [folder / f"worker{n}.txt" for n in range(len(workers))]
    spies = [subprocess.Popen([spy, "record", "-p", str(w.pid), "-d", str(int(args.seconds) + 2), "-r", "200",
                               "-f", "raw", "-o", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
             for w, out in zip(workers, outputs)]
    time.sleep(1)
    wrk(url, script, args.seconds, args.connections)
    for spy_process in spies:
        spy_process.wait()
    on_stack, total = Counter(), 0
    for out in outputs:
        for line in out.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            total += int(count)
            for function in {frame.split(" (")[0] + " (" + frame.split("(")[-1].split(":")[0].rsplit("/", 1)[-1] + ")"
                             for frame in stack.split(";")}:
                on_stack[function] += int(count)
    print(f"where the workers' busy time went ({total} samples; share of samples with the function on the stack):")
    for function, count in on_stack.most_common(40):
        print(f"  {100 * count / total:5.1f}%  {function}")


def stop(processes: list) -> None:
    for process in processes:
        if process.poll() is None:
            process.terminate()
            process.wait(timeout=20)


def redis_for_bench(stack_dir: Path):
    url = os.environ.get("REDIS_URL")
    if url:
        return url.rsplit("/", 1)[0] + "/7" if url.startswith("redis://") else url, None
    from eventstore.embedded import EmbeddedRedis

    server = EmbeddedRedis(stack_dir / "redis", stack_dir / "run", persist=False)
    return server.start(), server


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--profile", action="store_true", help="then where the workers' time goes (py-spy)")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        print("bench/polls.py needs wrk (apt-get install wrk): a Python client would be the bottleneck")
        return 2
    folder = Path(tempfile.mkdtemp(prefix="boardlog-polls-"))
    redis_url, embedded = redis_for_bench(folder)
    processes = []
    try:
        with temporary_server(os.environ.get("DATABASE_URL")) as server, temporary_database(server) as url:
            migrate(url)
            env = {"DATABASE_URL": url, "REDIS_URL": redis_url, "BOARDLOG_RATE_LIMIT": "100000000",
                   "BOARDLOG_LOG_LEVEL": "INFO"}
            log = open(folder / "servers.log", "ab")  # noqa: SIM115 (closed with the folder)
            app, app_url = gunicorn("api.wsgi:app", env, GEVENT, log)
            bare, bare_url = gunicorn("bench.bare:app", {}, GEVENT, log)
            processes = [app, bare]
            polls = population(app_url, args.games)
            script = folder / "polls.lua"
            script.write_text(LUA % ", ".join(f'{{"{p}", "{t}", \'{e}\'}}' for p, t, e in polls))
            bare_script = folder / "bare.lua"
            bare_script.write_text(LUA % '{"/ping", "x", \'"1"\'}')
            wrk(app_url, script, 2, args.connections)  # warm both
            wrk(bare_url, bare_script, 2, args.connections)
            ours, theirs = [], []
            for _ in range(args.rounds):
                ours.append(measure(app, app_url, script, args))
                theirs.append(measure(bare, bare_url, bare_script, args))
            if args.profile:
                profile(app, app_url, script, args, folder)
            stop(processes)
    finally:
        stop(processes)
        if embedded is not None:
            embedded.stop()
        shutil.rmtree(folder, ignore_errors=True)
    rate = statistics.median(r for r, _ in ours)
    bare_rate = statistics.median(r for r, _ in theirs)
    cpu = statistics.median(c for _, c in ours)
    bare_cpu = statistics.median(c for _, c in theirs)
    print(f"load average during the run: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    print(f"304 polls, {len(polls)} players on {args.games} games: {rate:8.0f}/s   bare Flask: {bare_rate:8.0f}/s   "
          f"ratio {rate / bare_rate:.2f} (goal >= 0.8)")
    print(f"server CPU per poll: {cpu:.3f} ms   bare Flask: {bare_cpu:.3f} ms   ratio {bare_cpu / cpu:.2f} (goal >= 0.8)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
