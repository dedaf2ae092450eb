"""Waiting at scale: boardlog under its production server (gunicorn, gevent
workers, api/gunicorn_conf.py) holding thousands of waiters, in one run.

    python bench/waiting.py [--waiters 10000] [--games 200] [--fanout 1000] [--seconds 5]

PostgreSQL: DATABASE_URL's server, or an embedded one; a throwaway database.
The waiters come from one asyncio client (half long-polls re-sent whenever
answered, half Server-Sent Event streams, spread over many games). Prints:
- the memory the server's processes grew by, per waiter held;
- command p50 and p99 while the waiters are held, against the same before
  any (goal: ratio <= 1.5);
- fan-out: one move on a game watched by ``--fanout`` streams, time from the
  command's answer to each watcher receiving it (p50, p99, max; goal p99 <=
  1 s) and how many missed it (goal 0);
- the conditional-poll figure of bench/api.py (304 answers per second)
  under the gevent workers, against bare Flask under the same worker class,
  and the same pair under gthread (the previous production setting).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import resource
import statistics
import sys
import threading
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api import GEVENT, GTHREAD, Client, _poll_loop, gunicorn, new_game, rate  # noqa: E402
from eventstore import migrate  # noqa: E402
from eventstore.servers import temporary_database, temporary_server  # noqa: E402


LOG = Path(os.environ.get("BOARDLOG_BENCH_LOG", "/tmp/boardlog-bench-waiting.log"))


def start_server(app: str, env: dict, workers: tuple):
    """bench/api.py's gunicorn, its request log sent to LOG rather than the terminal."""
    with open(LOG, "ab") as log:
        saved = os.dup(2)
        os.dup2(log.fileno(), 2)
        try:
            return gunicorn(app, env, workers)
        finally:
            os.dup2(saved, 2)
            os.close(saved)


def raise_fd_limit() -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


def server_pids(master_pid: int) -> list[int]:
    """gunicorn's master and its workers."""
    children = Path(f"/proc/{master_pid}/task/{master_pid}/children")
    return [master_pid, *(int(pid) for pid in children.read_text().split())] if children.exists() else [master_pid]


def server_rss_kib(master_pid: int) -> int:
    total = 0
    for pid in server_pids(master_pid):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total


def server_cpu_seconds(master_pid: int) -> float:
    total = 0
    for pid in server_pids(master_pid):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


async def settled(master_pid: int, limit: float = 180) -> None:
    """Until the server's processes use under a fifth of a core for 2 s (or ``limit`` s passed)."""
    started = time.monotonic()
    while time.monotonic() - started < limit:
        before = server_cpu_seconds(master_pid)
        await asyncio.sleep(2)
        if server_cpu_seconds(master_pid) - before < 0.4:
            return


def quantiles(values):
    q = statistics.quantiles(values, n=100)
    return q[49], q[98]


def command_latencies(base: str, count: int, seed: int) -> list[float]:
    """``count`` commands, one at a time, on games nobody waits on."""
    game, seats = new_game(base, f"lat{seed}")
    latencies = []
    while len(latencies) < count:
        summary = next(iter(seats.values())).call("GET", f"/v1/games/{game}").json()
        if summary["status"] != "active":
            game, seats = new_game(base, f"lat{seed}-{len(latencies)}")
            continue
        player = seats[summary["to_act"][0]]
        command = player.call("GET", f"/v1/games/{game}/legal-commands").json()["commands"][0]
        started = time.perf_counter()
        answer = player.call("POST", f"/v1/games/{game}/commands", json=command)
        latencies.append(time.perf_counter() - started)
        assert answer.status_code == 200, answer.text
    return latencies


def _latencies_job(args):
    return command_latencies(*args)


def measured_latencies(base: str, count: int, seed: int) -> list[float]:
    """Measured from a process of its own, so that this client's event loop is not in the figure."""
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        return pool.map(_latencies_job, [(base, count, seed)])[0]


def move(base: str, game: str, seats: dict) -> int:
    summary = next(iter(seats.values())).call("GET", f"/v1/games/{game}").json()
    player = seats[summary["to_act"][0]]
    command = player.call("GET", f"/v1/games/{game}/legal-commands").json()["commands"][0]
    return player.call("POST", f"/v1/games/{game}/commands", json=command).json()["version"]


class Waiters:
    """The asyncio client: long-polls and streams, counted and timed."""

    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.held_polls = 0
        self.streams_open = 0
        self.errors = 0
        self.connect_retries = 0
        self.polls_answered = 0
        self.seen: dict[int, dict[str, float]] = {}  # stream number -> id -> when first seen
        self.tasks: list[asyncio.Task] = []

    async def connect(self):
        """A connection, tried again once a second later (a full listen queue refuses some)."""
        for attempt in (1, 2, 3):
            try:
                return await asyncio.open_connection(self.host, self.port)
            except OSError:
                self.connect_retries += 1
                await asyncio.sleep(1)
        self.errors += 1
        return None

    async def long_poll(self, game: str):
        request = (f"GET /v1/games/{game}/view?wait=60 HTTP/1.1\r\nHost: x\r\nIf-None-Match: *\r\n\r\n").encode()
        connection = await self.connect()
        if connection is None:
            return
        reader, writer = connection
        pending = False
        try:
            while True:
                writer.write(request)
                self.held_polls += 1
                pending = True
                head = await reader.readuntil(b"\r\n\r\n")
                self.held_polls -= 1
                pending = False
                self.polls_answered += 1
                length = 0
                for line in head.split(b"\r\n"):
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":")[1])
                if length:
                    await reader.readexactly(length)
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            self.errors += 1
            if pending:
                self.held_polls -= 1
        finally:
            writer.close()

    async def stream(self, number: int, game: str, opened: asyncio.Event | None = None):
        request = f"GET /v1/games/{game}/stream HTTP/1.1\r\nHost: x\r\n\r\n".encode()
        seen = self.seen.setdefault(number, {})
        connection = await self.connect()
        if connection is None:
            return
        reader, writer = connection
        try:
            writer.write(request)
            await reader.readuntil(b"\r\n\r\n")
            self.streams_open += 1
            while True:
                line = await reader.readline()
                if not line:
                    break
                if line.startswith(b"id: "):
                    seen.setdefault(line[4:].strip().decode(), time.monotonic())
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            self.errors += 1
        finally:
            self.streams_open -= 1
            writer.close()


async def hold(args, base: str, master_pid: int, games: list, fanout_game, quiet_latency):
    host, port = "127.0.0.1", int(base.rsplit(":", 1)[1])
    waiters = Waiters(host, port)
    rss_before = server_rss_kib(master_pid)
    streams = args.waiters // 2
    polls = args.waiters - streams
    numbers = iter(range(10**9))
    plan = [("stream", fanout_game[0]) for _ in range(args.fanout)]
    plan += [("stream", games[n % len(games)][0]) for n in range(streams - args.fanout)]
    plan += [("poll", games[n % len(games)][0]) for n in range(polls)]
    started = time.monotonic()
    for offset in range(0, len(plan), args.wave):  # in waves: the listen backlog is finite
        for kind, game in plan[offset:offset + args.wave]:
            coroutine = waiters.stream(next(numbers), game) if kind == "stream" else waiters.long_poll(game)
            waiters.tasks.append(asyncio.create_task(coroutine))
        await asyncio.sleep(0.5)
    while waiters.streams_open + waiters.held_polls < len(plan) - waiters.errors:
        if time.monotonic() - started > 300:
            break
        await asyncio.sleep(0.5)
    await settled(master_pid)  # the server has taken in every request sent
    held = waiters.streams_open + waiters.held_polls
    rss_after = server_rss_kib(master_pid)
    print(f"held: {waiters.streams_open} streams + {waiters.held_polls} long-polls = {held} waiters "
          f"(opened in {time.monotonic() - started:.0f} s; {waiters.connect_retries} connects retried, "
          f"{waiters.errors} failed)")
    print(f"server memory: {rss_before / 1024:.0f} MiB before, {rss_after / 1024:.0f} MiB holding them: "
          f"{(rss_after - rss_before) / max(1, held):.1f} KiB per waiter")

    loop = asyncio.get_running_loop()
    busy = await loop.run_in_executor(None, measured_latencies, base, args.commands, 2)
    (q50, q99), (b50, b99) = quiet_latency, quantiles(busy)
    print(f"command latency with no waiters: p50 {q50 * 1000:.1f} ms  p99 {q99 * 1000:.1f} ms;  "
          f"holding {held}: p50 {b50 * 1000:.1f} ms  p99 {b99 * 1000:.1f} ms;  "
          f"ratios {b50 / q50:.2f} / {b99 / q99:.2f} (goal <= 1.5)")
    health = []
    for _ in range(20):
        t = time.perf_counter()
        await loop.run_in_executor(None, lambda: requests.get(f"{base}/healthz", timeout=30))
        health.append(time.perf_counter() - t)
    print(f"GET /healthz while holding them: median {statistics.median(health) * 1000:.1f} ms, "
          f"max {max(health) * 1000:.1f} ms")

    # Fan-out: one move on the game that args.fanout streams watch.
    game, seats = fanout_game
    watchers = list(range(args.fanout))  # the first stream numbers
    version = await loop.run_in_executor(None, move, base, game, seats)
    answered = time.monotonic()
    deadline = answered + 10
    key = str(version)
    while time.monotonic() < deadline and not all(key in waiters.seen.get(n, {}) for n in watchers):
        await asyncio.sleep(0.05)
    delays = [max(0.0, waiters.seen[n][key] - answered) for n in watchers if key in waiters.seen.get(n, {})]
    missed = len(watchers) - len(delays)
    if len(delays) >= 2:
        p50, p99 = quantiles(delays)
        print(f"fan-out of one move to {args.fanout} streams: p50 {p50 * 1000:.0f} ms  p99 {p99 * 1000:.0f} ms  "
              f"max {max(delays) * 1000:.0f} ms after the command's answer (goal p99 <= 1000 ms); "
              f"missed: {missed} (goal 0)")
    else:
        print(f"fan-out: only {len(delays)} of {args.fanout} watchers received the move")
    print(f"still held at the end: {waiters.streams_open} streams + {waiters.held_polls} long-polls; "
          f"long-polls answered meanwhile (their game moved or 60 s passed): {waiters.polls_answered}")
    for task in waiters.tasks:
        task.cancel()
    await asyncio.gather(*waiters.tasks, return_exceptions=True)


def poll_figures(url: str, args) -> None:
    """bench/api.py's conditional-poll figure, each server against bare Flask under the same worker class."""
    with multiprocessing.get_context("fork").Pool(16) as pool:
        for label, workers in (("gevent", GEVENT), ("gthread", GTHREAD)):
            env = {"DATABASE_URL": url, "BOARDLOG_RATE_LIMIT": "0", "REDIS_URL": ""}
            app, app_url = start_server("api.wsgi:app", env, workers)
            bare, bare_url = start_server("bench.bare:app", {}, workers)
            try:
                game, seats = new_game(app_url, f"poll-{label}")
                player = next(iter(seats.values()))
                etag = player.call("GET", f"/v1/games/{game}/view").headers["ETag"]
                job = (_poll_loop, (f"{app_url}/v1/games/{game}/view",
                                    {**player.auth, "If-None-Match": etag}, args.seconds, 304))
                bare_job = (_poll_loop, (f"{bare_url}/ping", {"If-None-Match": '"1"'}, args.seconds, 304))
                polls = rate(pool, args.clients, args.seconds, job)
                bare_polls = rate(pool, args.clients, args.seconds, bare_job)
                print(f"conditional polls (304) under {label}: boardlog {polls:7.0f}/s   bare Flask {bare_polls:7.0f}/s"
                      f"   ratio {polls / bare_polls:.2f} (goal >= 0.6)")
            finally:
                for process in (app, bare):
                    process.terminate()
                    process.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--waiters", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--fanout", type=int, default=1000)
    parser.add_argument("--commands", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--wave", type=int, default=250, help="waiters opened every half second")
    parser.add_argument("--skip-polls", action="store_true")
    args = parser.parse_args()
    limit = raise_fd_limit()  # inherited by the server started below, and used by this client
    print(f"open-file limit: {limit}")
    with temporary_server(os.environ.get("DATABASE_URL")) as server, \
            temporary_database(server, "boardlog_bench_waiting") as url:
        migrate(url)
        if not args.skip_polls:
            poll_figures(url, args)
        env = {"DATABASE_URL": url, "BOARDLOG_RATE_LIMIT": "0", "REDIS_URL": "",
               "BOARDLOG_MAX_WAITERS": str(args.waiters * 2), "BOARDLOG_WORKER_CONNECTIONS": str(args.waiters + 2000)}
        app, base = start_server("api.wsgi:app", env, GEVENT)
        try:
            games = [new_game(base, f"watched{n}") for n in range(args.games)]
            fanout_game = new_game(base, "fanout")
            command_latencies(base, args.commands // 2, 0)  # warm the worker processes up first
            quiet = quantiles(measured_latencies(base, args.commands, 1))
            asyncio.run(hold(args, base, app.pid, games, fanout_game, quiet))
        finally:
            app.terminate()
            app.wait(timeout=60)


if __name__ == "__main__":
    main()
