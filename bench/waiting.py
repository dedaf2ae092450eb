"""Waiting at scale: boardlog under its production server (gunicorn, gevent
workers, api/processes/gunicorn_conf.py, Redis as a deployment has it) holding
thousands of waiters, in one run; it fails (exit 1) if any waiter failed.

    python bench/waiting.py [--waiters 10000] [--rate 1000] [--fanout 1000] [--moves 20] [--overload 10000]

PostgreSQL: DATABASE_URL's server, or an embedded one; a throwaway database.
Redis: REDIS_URL (default the local one). The server runs with its limits
on, as in production (the rate limit, the per-address cap on waiters), set
high enough for one client address sending all of this. The waiters come
from one asyncio client and arrive at ``--rate`` connections a second, every
kind mixed as in a herd of reconnecting clients: half are Server-Sent
Event streams (``--fanout`` of them on one game, half of the others seated
players' opened with stream tickets, so each holds a lease in Redis, the
rest spectators'), half long-polls (``?wait=60``, re-sent when answered).
Prints:
- how many were held, and every failure by cause (connect reset or
  refused, timeout, a status and its problem type, a stream closed or ended
  by a problem, a gap or a duplicate in its versions), with an example
  problem document of each: any failure fails the run;
- the memory the server's processes grew by, per waiter held, and what
  they hold once the waiters left (``--keep-memory``: without giving memory
  back, BOARDLOG_RETURN_MEMORY=0);
- fan-out: ``--moves`` moves on the game ``--fanout`` streams watch, from
  the command's answer to each watcher's receipt (p50, p99, max over all
  receipts, and per move; goal p99 <= 1 s), missed ones (goal 0);
- command latency sampled between the fan-out moves (while the watchers
  are woken), against the same with no waiters (goal: ratio <= 1.5);
- overload: a server sized for ``--overload`` waiters (BOARDLOG_MAX_WAITERS,
  the total of its 2 workers) meets twice as many: the first ones must be
  held, the rest refused with 503 and Retry-After, none failed; then, as
  the first's long-polls poll again at the end of their waits, as many
  newcomers more: every poller keeps its place (goal: 0 refused at a next
  poll), the newcomers are refused;
- after each server ran: the unhandled exceptions, error lines and answers
  with a 5xx status other than 503 in its log (LOG), each a failure;
- the load average with each figure, and the kernel's listen queue limits.

(Conditional polls at scale are bench/polls.py's: many players on many games.)
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api import GEVENT, new_game
from bench.waiters import Waiters, arrive, until_held
from bench.waiting_server import (ServerLog, checked_log, kernel_setting, load_average, raise_fd_limit,
                                  server_rss_kib, server_waiters_gone, settled, start_server)
from eventstore import migrate
from eventstore.servers import temporary_database, temporary_server


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


def seated(games: list, count: int) -> list[str]:
    """The Authorization headers of ``count`` seated streams (each player within the per-player cap of 8)."""
    players = [player for _, by_seat in games for player in by_seat.values()]
    return [players[n % len(players)].auth["Authorization"] for n in range(min(count, 8 * len(players)))]


async def hold(args, base: str, master_pid: int, games: list, fanout_game, quiet_latency) -> Counter:
    host, port = "127.0.0.1", int(base.rsplit(":", 1)[1])
    waiters = Waiters(host, port, sources(args))
    loop = asyncio.get_running_loop()
    rss_before = server_rss_kib(master_pid)
    streams = args.waiters // 2
    polls = args.waiters - streams
    seat_auths = seated(games, (streams - args.fanout) // 2)
    plan = [("stream", fanout_game[0], None) for _ in range(args.fanout)]
    others = [games[n % len(games)][0] for n in range(streams - args.fanout)]
    plan += [("stream", game, seat_auths[n] if n < len(seat_auths) else None) for n, game in enumerate(others)]
    plan += [("poll", games[n % len(games)][0], None) for n in range(polls)]
    random.Random(1).shuffle(plan)  # a herd of reconnecting clients: every kind mixed
    took = await arrive(waiters, plan, args.rate)
    await until_held(waiters, len(plan))
    await settled(master_pid, 60)
    held = waiters.streams_open + waiters.held_polls
    rss_after = server_rss_kib(master_pid)
    print(f"arrival: {len(plan)} waiters at {args.rate}/s (sent in {took:.1f} s; {len(seat_auths)} streams of seated "
          f"players with tickets and leases, {len(plan) - len(seat_auths) - polls} of spectators, {polls} long-polls); "
          f"held: {waiters.streams_open} streams + {waiters.held_polls} long-polls = {held}; "
          f"failed: {sum(waiters.failures.values())} {dict(waiters.failures)} (load average {load_average()})")
    print(f"  from {addresses(waiters)}; long-polls answered and sent again: {waiters.polls_answered}")
    for cause, body in waiters.details.items():
        print(f"  {cause}, e.g.: {body}")
    print(f"server memory: {rss_before / 1024:.0f} MiB before, {rss_after / 1024:.0f} MiB holding them: "
          f"{(rss_after - rss_before) / max(1, held):.1f} KiB per waiter")

    # Fan-out moves with command latency sampled in between, while the watchers are woken.
    game, seats = fanout_game
    # The fan-out game's streams that opened (one refused at the arrival is counted there, not as missed here).
    watchers = [n for n, watched in waiters.game_of.items() if watched == game and n in waiters.opened]
    all_delays, per_move, missed, busy = [], [], 0, []
    for _ in range(args.moves):
        if not (await loop.run_in_executor(None, lambda: next(iter(seats.values())).call(
                "GET", f"/v1/games/{game}").json()))["to_act"]:
            print("the fan-out game ended: fewer moves than asked")
            break
        sampler = loop.run_in_executor(None, command_latencies, base, 3, 7)  # interleaved with the fan-out
        version = await loop.run_in_executor(None, move, base, game, seats)
        answered = time.monotonic()
        key = str(version)
        while time.monotonic() < answered + 10 and not all(key in waiters.seen.get(n, {}) for n in watchers):
            await asyncio.sleep(0.02)
        delays = [max(0.0, waiters.seen[n][key] - answered) for n in watchers if key in waiters.seen.get(n, {})]
        missed += len(watchers) - len(delays)
        all_delays += delays
        if len(delays) >= 2:
            per_move.append(quantiles(delays)[1])
        busy += await sampler
    if len(all_delays) >= 2:
        p50, p99 = quantiles(all_delays)
        print(f"fan-out: {args.moves} moves to the {len(watchers)} streams of one game: p50 {p50 * 1000:.0f} ms, "
              f"p99 {p99 * 1000:.0f} ms, max {max(all_delays) * 1000:.0f} ms after the command's answer "
              f"(per move p99 median {statistics.median(per_move) * 1000:.0f} ms, worst {max(per_move) * 1000:.0f} ms; "
              f"goal p99 <= 1000 ms); missed {missed} (goal 0)")
    if missed:
        waiters.fail("fan-out move missed")
    if len(busy) < 2:
        waiters.fail("no fan-out move made")
        busy = [float("nan")] * 2
    (q50, q99), (b50, b99) = quiet_latency, quantiles(busy)
    print(f"command latency with no waiters: p50 {q50 * 1000:.1f} ms  p99 {q99 * 1000:.1f} ms;  sampled between "
          f"fan-outs holding {held}: p50 {b50 * 1000:.1f} ms  p99 {b99 * 1000:.1f} ms;  ratios "
          f"{b50 / q50:.2f} / {b99 / q99:.2f} (goal <= 1.5; load average {load_average()})")
    # Each long-poll's wait (60 s) ends and it polls again at once: held again, never refused.
    until = time.monotonic() + 100
    while waiters.polls_answered < polls and time.monotonic() < until:
        await asyncio.sleep(0.5)
    await asyncio.sleep(3)
    again = {cause: n for cause, n in waiters.failures.items() if cause.startswith("at its next poll")}
    print(f"long-polls answered and sent again: {waiters.polls_answered} answers (of {polls} polls); held "
          f"{waiters.held_polls}; refused or failed at their next poll: {sum(again.values())} {again} (goal 0; "
          f"load average {load_average()})")
    rss_held = server_rss_kib(master_pid)
    for task in waiters.tasks:
        task.cancel()
    await asyncio.gather(*waiters.tasks, return_exceptions=True)
    # The server lets a waiter go when it next writes: a stream at its heartbeat, a long-poll whose client
    # left at the end of its wait (60 s).
    gone = await loop.run_in_executor(None, server_waiters_gone, base)
    await settled(master_pid, 30)
    await asyncio.sleep(12)  # the workers give memory back at most every 10 s (api/http/memory_return.py)
    rss_left = server_rss_kib(master_pid)
    print(f"server memory once they left: {rss_held / 1024:.0f} MiB at the end of the fan-out, "
          f"{rss_left / 1024:.0f} MiB once the server let them go ({gone:.0f} s later): "
          f"{(rss_left - rss_before) / 1024:.0f} MiB above the start "
          f"({'memory not given back: --keep-memory' if args.keep_memory else 'malloc_trim on'})")
    return waiters.failures


def sources(args) -> list[str]:
    """The herd's client addresses: 127.0.0.2 onwards (all of 127/8 is
    loopback on Linux), or none (127.0.0.1, the kernel's choice)."""
    return [f"127.0.0.{2 + n}" for n in range(args.sources)]


def addresses(waiters: Waiters) -> str:
    if not waiters.used:
        return "one address (127.0.0.1)"
    counts = waiters.used.values()
    return f"{len(waiters.used)} addresses, {min(counts)}-{max(counts)} connections each"


async def overload(args, base: str, games: list) -> Counter:
    """A server sized for ``capacity`` waiters meets twice as many: the first
    held untouched, the rest refused with 503 and Retry-After. Then, as the
    first's long-polls end their waits (60 s) and poll again on their
    connections, as many newcomers again arrive from the same addresses: the
    pollers keep their places (a refusal at a next poll is a failure) and the
    newcomers are refused."""
    host, port = "127.0.0.1", int(base.rsplit(":", 1)[1])
    capacity = args.overload
    first, second, third = (Waiters(host, port, sources(args)) for _ in range(3))
    plan = [("stream" if n % 2 else "poll", games[n % len(games)][0], None) for n in range(capacity)]
    polls = sum(1 for kind, _, _ in plan if kind == "poll")
    arrived = time.monotonic()
    await arrive(first, plan, args.rate)
    await until_held(first, capacity)
    await arrive(second, plan, args.rate, refusable=True)
    await until_held(second, capacity)
    await asyncio.sleep(3)  # what the newcomers did to those held shows now
    print(f"overload: {capacity} waiters (a server of 2 workers sized {capacity} in all), then {capacity} more: "
          f"first held {first.streams_open + first.held_polls}, failed {dict(first.failures)}; newcomers held "
          f"{second.streams_open + second.held_polls}, refused with 503 and Retry-After {dict(second.refused)}, "
          f"failed {dict(second.failures)} (load average {load_average()})")
    # The newcomers arrive as the first long-polls' waits end (60 s after each arrived) and they poll again.
    await asyncio.sleep(max(0.0, arrived + 59.5 - time.monotonic()))
    await arrive(third, plan, args.rate, refusable=True)
    until = time.monotonic() + 90
    while first.polls_answered < polls and time.monotonic() < until:
        await asyncio.sleep(0.5)
    await until_held(third, capacity)
    await asyncio.sleep(3)
    again = {cause: n for cause, n in first.failures.items() if cause.startswith("at its next poll")}
    print(f"  while the first's {polls} long-polls polled again ({first.polls_answered} answered, held again "
          f"{first.held_polls}): refused or failed at their next poll {sum(again.values())} {again} (goal 0); "
          f"newcomers meanwhile held {third.streams_open + third.held_polls}, refused {dict(third.refused)}, "
          f"failed {dict(third.failures)} (load average {load_average()})")
    if first.polls_answered < polls:
        first.fail("long-poll not answered within its wait")
    print(f"  first from {addresses(first)}; newcomers from {addresses(second)}")
    for cause, body in {**first.details, **second.details, **third.details}.items():
        print(f"  {cause}, e.g.: {body}")
    for task in first.tasks + second.tasks + third.tasks:
        task.cancel()
    await asyncio.gather(*first.tasks, *second.tasks, *third.tasks, return_exceptions=True)
    return first.failures + second.failures + third.failures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--waiters", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--fanout", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=20, help="fan-out moves")
    parser.add_argument("--rate", type=int, default=1000, help="waiters arriving per second")
    parser.add_argument("--overload", type=int, default=10_000,
                        help="waiters a second server is sized for (it meets twice as many); 0: skip")
    parser.add_argument("--commands", type=int, default=200)
    parser.add_argument("--sources", type=int, default=50,
                        help="client addresses the waiters come from, 127.0.0.2 onwards, with the per-address limits "
                             "at their defaults (at most 253); 0: all from 127.0.0.1, those limits raised for it")
    parser.add_argument("--keep-memory", action="store_true",
                        help="BOARDLOG_RETURN_MEMORY=0: measure memory with no malloc_trim after the waiters left")
    args = parser.parse_args()
    limit = raise_fd_limit()  # inherited by the server started below, and used by this client
    print(f"open-file limit: {limit}; net.core.somaxconn {kernel_setting('net/core/somaxconn')}, "
          f"net.ipv4.tcp_max_syn_backlog {kernel_setting('net/ipv4/tcp_max_syn_backlog')}; "
          f"load average {load_average()}")
    redis_url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    failures: Counter = Counter()
    with temporary_server(os.environ.get("DATABASE_URL")) as server, \
            temporary_database(server, "boardlog_bench_waiting") as url:
        migrate(url)
        # The limits as in production: what is per address at its default (the herd comes from
        # --sources addresses), what is per server sized for the herd. From one address (--sources 0)
        # the per-address limits are raised for it.
        env = {"DATABASE_URL": url, "REDIS_URL": redis_url, "BOARDLOG_RETURN_MEMORY": "0" if args.keep_memory else "1",
               "BOARDLOG_MAX_WAITERS": str(args.waiters * 2), "BOARDLOG_WORKER_CONNECTIONS": str(args.waiters + 2000)}
        if not args.sources:
            env.update({"BOARDLOG_RATE_LIMIT": "100000000", "BOARDLOG_WAITERS_PER_ADDRESS": "100000"})
        log = ServerLog()
        app, base = start_server("api.processes.wsgi:app", env, GEVENT)
        try:
            games = [new_game(base, f"watched{n}") for n in range(args.games)]
            fanout_game = new_game(base, "fanout")
            command_latencies(base, args.commands // 2, 0)  # warm the worker processes up first
            quiet = quantiles(measured_latencies(base, args.commands, 1))
            failures += asyncio.run(hold(args, base, app.pid, games, fanout_game, quiet))
        finally:
            app.terminate()
            app.wait(timeout=60)
        failures += checked_log(log, "arrival and fan-out")
        if args.overload:
            env = {**env, "BOARDLOG_MAX_WAITERS": str(args.overload),  # the server's total, both workers together
                   "BOARDLOG_WORKER_CONNECTIONS": str(args.overload * 2 + 2000)}
            log = ServerLog()
            app, base = start_server("api.processes.wsgi:app", env, GEVENT)
            try:
                games = [new_game(base, f"over{n}") for n in range(args.games)]
                failures += asyncio.run(overload(args, base, games))
            finally:
                app.terminate()
                app.wait(timeout=60)
            failures += checked_log(log, "overload")
    if failures:
        print(f"FAILED: {sum(failures.values())} waiters failed: {dict(failures)}")
        sys.exit(1)
    print("every waiter held or refused with Retry-After; none failed")


if __name__ == "__main__":
    main()
