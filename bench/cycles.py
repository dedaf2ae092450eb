"""Command cycles as players make them, with clients that are not the
bottleneck: boardlog against a bare Flask app under the same production
command, interleaved rounds (run by bench/api.py, or on its own).

    python bench/cycles.py [--connections 16] [--seconds 5] [--rounds 3] [--games 14] [--profile DIR]
                           [--compare CHECKOUT [--pairs 2]] [--fast-commands-off] [--fast-legal-commands-off]
    python bench/cycles.py --notify-where [--seconds 4]   (bench/cycles_in_process.py)
    python bench/cycles.py --fast-commands-in-process [--fast-legal-commands-off] [--pairs 2]

Both servers run `gunicorn -c python:api.processes.gunicorn_conf` (gevent, 2 workers);
boardlog has Redis (REDIS_URL's server on database 8, or an embedded one)
with rate limits on (a limit so high that the limiter runs but never
refuses) and its request log at INFO, and a worker (``boardlog worker``,
with its notifier) beside it, as a deployment runs them.

The client is wrk with a Lua script: each connection (one per wrk thread,
so that a thread's answers come back in the order it asked) plays its own
Cronberg games of two players, each seat with its own player: GET the
legal commands with the token of the seat to act, then POST the first of
them with an Idempotency-Key of its own; the seat to act next is the one the
command's answer names. A game that ends is followed by the next of the
connection's games, all created before the run. The bare app answers a GET
and a POST of the same shape.

Prints cycles per second and server CPU per cycle (user + system time of
the gunicorn processes over a round, divided by the cycles answered), each
as a ratio to the bare app (goal >= 0.5), and the PostgreSQL transactions a
cycle costs (``xact_commit`` of the benchmark's database over the whole run,
the warm-up included, divided by its cycles; the LISTEN connection's sweeps
and the batched NOTIFYs count too). Any request that fails (not answered
2xx, a command refused, an answer given again for a key, a seat named to act
that lists no command) fails the run, counted by cause. Then where the
machine's CPU went in each round, cycles and pgbench's alike, process by
process (the server, the worker, PostgreSQL's backends, the client, the
rest of the machine: bench/cpu_split.py).

After each round of the cycles (and once to warm up), two pgbench rounds
of as long, same clients (``--connections``), on the same database: the
command's own statement, ``boardlog_command`` as a real POST sent it, with
each client appending to a game of its own (bench/pgbench_command.py), and
the same followed by the notifier's NOTIFY for it; printed with the cycles
per second of the round before and their ratios (goal >= 0.25). pgbench
must be on PATH; ``--no-pgbench`` leaves the stage out (and gives the
transactions per cycle, which the stage's NOTIFYs would swell: every
listening backend reads each in a transaction of its own). ``--compare``
and ``--fast-commands-off`` run without it.

Then, on the same database with the servers stopped, what one POST asks of
PostgreSQL from the server's side (WIRE_SCRIPT): round trips and
transactions per POST, read from libpq's trace of the service's
connections, the statements it sends, and the mean size of an
Idempotency-Key's row. ``--compare CHECKOUT`` measures the server of another
checkout (a git worktree of main, say: ``git worktree add /tmp/main a043135``)
and this one alternately, ``--pairs`` times each, each with its own
migrations, and prints the ratios. ``--fast-commands-off`` measures this
checkout against itself with its commands answered by Flask alone
(BOARDLOG_FAST_COMMANDS=0, api/http/commands_fast.py), alternately, the
same way; ``--fast-legal-commands-off`` with its GETs of the legal commands
answered by Flask alone (BOARDLOG_FAST_LEGAL_COMMANDS=0,
api/http/legal_fast.py); both, with both layers off.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bench.api as api_bench  # noqa: E402
import bench.pgbench_command as pgbench_stage  # noqa: E402
from api.processes.supervisor import stop_worker  # noqa: E402
from bench.api import GEVENT, gunicorn, new_game  # noqa: E402
from bench.cpu_split import CpuSplit  # noqa: E402
from bench.cycles_wire import wire  # noqa: E402
from bench.production import Profiler, redis_url_for_bench, server_cpu, start_worker, stop  # noqa: E402
from eventstore.servers import temporary_database, temporary_server  # noqa: E402

LUA_DIR = Path(__file__).resolve().parent / "lua"
MOVES_PER_GAME = 64  # Cronberg, two players, the first legal command each time


def lua_games(games: list[tuple[str, dict]]) -> str:
    """The games as the script's table: {id, seat, token, seat, token}."""
    rows = []
    for game, seats in games:
        pairs = ", ".join(f'"{seat}", "{client.auth["Authorization"].removeprefix("Bearer ")}"'
                          for seat, client in seats.items())
        rows.append(f'{{"{game}", {pairs}}}')
    return "{" + ",\n".join(rows) + "}"


def write_script(folder: Path, name: str, games: str, threads: int, starts: dict[int, int]) -> Path:
    """The cycle script with its games and, per thread, the game the last round left it at."""
    resume = "{" + ", ".join(f"[{thread}] = {at}" for thread, at in starts.items()) + "}"
    script = folder / f"{name}.lua"
    text = (LUA_DIR / "cycles.lua").read_text()
    script.write_text(text.replace("@GAMES@", games).replace("@RESUME@", resume).replace("@NONCE@", uuid.uuid4().hex[:8])
                      .replace("@THREADS@", str(threads)))
    return script


class Round:
    """What one wrk run of the cycle script reported."""

    def __init__(self, output: str):
        self.output = output
        self.cycles = int(re.search(r"^cycles: (\d+)", output, re.M).group(1))
        self.seconds = int(re.search(r"^duration_us: (\d+)", output, re.M).group(1)) / 1e6
        self.failures = {cause: int(n) for cause, n in re.findall(r"^failed: (.+) = (\d+)$", output, re.M)}
        errors = re.search(r"Socket errors: (.+)", output)
        if errors:
            self.failures[f"socket errors ({errors.group(1)})"] = 1
        self.starts = {int(thread): int(at) for thread, at in re.findall(r"^at: (\d+) (\d+)$", output, re.M)}
        self.p50, self.p99 = (re.search(rf"^\s+{q}%\s+(\S+)", output, re.M).group(1) for q in (50, 99))

    @property
    def rate(self) -> float:
        return self.cycles / self.seconds


def run_wrk(url: str, script: Path, seconds: float, connections: int) -> Round:
    # One connection per thread: a thread's requests and answers then alternate,
    # so the script knows which game an answer belongs to.
    done = subprocess.run(["wrk", f"-t{connections}", f"-c{connections}", f"-d{int(seconds)}s", "--timeout", "10s",
                          "--latency", "-s", str(script), url], capture_output=True, text=True, check=False)
    out = done.stdout + done.stderr
    if not re.search(r"^cycles: ", out, re.M):
        raise SystemExit(f"wrk did not run the script to its end:\n{out}")
    return Round(out)


def xact_commit(url: str) -> int:
    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute("select xact_commit from pg_stat_database where datname = current_database()").fetchone()[0]


def wait_until_disconnected(url: str, timeout: float = 20.0) -> None:
    """Until no other backend holds the database: a backend's counts reach
    pg_stat_database at the latest when it exits."""
    deadline = time.monotonic() + timeout
    with psycopg.connect(url, autocommit=True) as conn:
        while time.monotonic() < deadline:
            others = conn.execute("select count(*) from pg_stat_activity where datname = current_database()"
                                  " and pid <> pg_backend_pid()").fetchone()[0]
            if not others:
                return
            time.sleep(0.1)


def migrate_as(code: Path, url: str) -> None:
    """The schema of ``code``'s own migrations."""
    subprocess.run([sys.executable, "-c", "import sys; from eventstore import migrate; migrate(sys.argv[1])", url],
                   cwd=code, env={**os.environ, "PYTHONPATH": str(code)}, check=True)


def create_games(base: str, count: int) -> list[tuple[str, dict]]:
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        return list(pool.map(lambda n: new_game(base, f"cycle-{n}"), range(count)))


def measure(args, code: Path = ROOT, extra_env: dict | None = None) -> dict:
    """Run the interleaved rounds of ``code``'s server (a boardlog checkout:
    this one, or another to compare with), ``extra_env`` in its environment;
    the figures, or SystemExit naming each failure's cause."""
    with_pgbench = (code == ROOT and not extra_env and not args.no_pgbench and not getattr(args, "compare", None)
                    and not getattr(args, "fast_commands_off", False)
                    and not getattr(args, "fast_legal_commands_off", False))
    pgbench = pgbench_stage.require_pgbench() if with_pgbench else None
    folder = Path(tempfile.mkdtemp(prefix="boardlog-cycles-"))
    redis_url, embedded = redis_url_for_bench(folder, 8)
    processes, worker = [], None
    profiler = Profiler(Path(args.profile).resolve() if args.profile else None)
    try:
        with temporary_server(os.environ.get("DATABASE_URL")) as server, \
                temporary_database(server, "boardlog_cycles") as url:
            migrate_as(code, url)
            api_bench.ROOT = code  # the servers run that checkout's code
            env = {"DATABASE_URL": url, "REDIS_URL": redis_url, "BOARDLOG_RATE_LIMIT": "100000000",
                   "BOARDLOG_LOG_LEVEL": "INFO", **(extra_env or {})}
            log = open(folder / "servers.log", "ab")  # noqa: SIM115 (closed with the folder)
            app, app_url = gunicorn("api.processes.wsgi:app", env, GEVENT, log)
            bare, bare_url = gunicorn("bench.bare:app", {}, GEVENT, log)
            worker = start_worker(code, env, log)  # with its notifier, as a deployment runs it beside the API
            processes = [app, bare]
            games = lua_games(create_games(app_url, args.connections * args.games))
            pgbench_rounds = [1001 + n for n in range(1 + 2 * args.rounds)] if with_pgbench else []
            pgbench_tps: dict[bool, list[float]] = {False: [], True: []}
            if with_pgbench:
                pool = [game for game, _ in create_games(app_url, args.connections * len(pgbench_rounds))]
                pgbench_stage.prepare_pool(url, pgbench_rounds, pool, args.connections)
                captured = pgbench_stage.capture(url, redis_url)

                def pgbench_round(notify: bool, seconds: float, split: CpuSplit | None = None) -> float:
                    if split:
                        split.start()
                    tps, done = pgbench_stage.run(pgbench, url, captured, pgbench_rounds.pop(0), seconds,
                                                  args.connections, notify, folder)
                    if split:
                        split.finish("pgbench" + (" with the NOTIFY" if notify else ""), done, seconds)
                    return tps
            # Each backend's counts reach pg_stat_database when it is idle at
            # the latest 10 s after its last transaction (PostgreSQL 15).
            time.sleep(11)
            commits_before = xact_commit(url)
            loads = [os.getloadavg()[0]]
            warm = run_wrk(app_url, write_script(folder, "warm", games, args.connections, {}), 2, args.connections)
            run_wrk(bare_url, LUA_DIR / "bare.lua", 2, args.connections)
            if with_pgbench:
                pgbench_round(False, 2)
            app_rounds, bare_rounds, starts = [warm], [], warm.starts
            split = CpuSplit(url, app, worker)
            cpu, bare_cpu = [], []
            for _ in range(args.rounds):
                script = write_script(folder, f"round{len(app_rounds)}", games, args.connections, starts)
                before = server_cpu(app)
                spies = profiler.start(app, args.seconds)
                split.start()
                app_rounds.append(run_wrk(app_url, script, args.seconds, args.connections))
                split.finish("command cycles", app_rounds[-1].cycles, app_rounds[-1].seconds)
                cpu.append((server_cpu(app) - before) / app_rounds[-1].cycles * 1000)
                profiler.finish(spies)
                starts = app_rounds[-1].starts
                before = server_cpu(bare)
                bare_rounds.append(run_wrk(bare_url, LUA_DIR / "bare.lua", args.seconds, args.connections))
                bare_cpu.append((server_cpu(bare) - before) / bare_rounds[-1].cycles * 1000)
                if with_pgbench:
                    for notify in (False, True):
                        pgbench_tps[notify].append(pgbench_round(notify, args.seconds, split))
                loads.append(os.getloadavg()[0])
            stop_worker(worker)
            stop(processes)
            wait_until_disconnected(url)
            # With pgbench's rounds in the run the count is not the cycles' alone: each NOTIFY they send
            # is read by every listening backend, in a transaction of its own.
            transactions = None if with_pgbench else xact_commit(url) - commits_before
            on_the_wire = wire(code, url, redis_url, extra_env=extra_env)
    finally:
        api_bench.ROOT = ROOT
        stop_worker(worker)
        stop(processes)
        if embedded is not None:
            embedded.stop()
        shutil.rmtree(folder, ignore_errors=True)
    failures: dict[str, int] = {}
    for each in app_rounds + bare_rounds:
        for cause, count in each.failures.items():
            failures[cause] = failures.get(cause, 0) + count
    if failures:
        raise SystemExit("command cycles failed (every request must succeed):\n"
                         + "\n".join(f"  {count} x {cause}" for cause, count in sorted(failures.items())))
    profiler.summary()
    split.summary()
    measured = app_rounds[1:]
    return {
        "loads": loads,
        "rate": statistics.median(r.rate for r in measured),
        "bare_rate": statistics.median(r.rate for r in bare_rounds),
        "cpu": statistics.median(cpu),
        "bare_cpu": statistics.median(bare_cpu),
        "transactions": None if transactions is None else transactions / sum(r.cycles for r in app_rounds),
        "post_round_trips": on_the_wire["round_trips"],
        "post_transactions": on_the_wire["transactions"],
        "post_sent": on_the_wire["sent"],
        "key_bytes": on_the_wire["key_bytes"],
        "before_flask": (on_the_wire.get("before_flask"), on_the_wire.get("posts")),
        "legal_before_flask": on_the_wire.get("legal_before_flask"),
        "latency": (measured[len(measured) // 2].p50, measured[len(measured) // 2].p99),
        "rounds": [(r.rate, c) for r, c in zip(measured, cpu)],
        "bare_rounds": [(r.rate, c) for r, c in zip(bare_rounds, bare_cpu)],
        "pgbench": pgbench_tps if with_pgbench else None,
        "pgbench_sent": captured["template"] if with_pgbench else None,
    }


def report(figures: dict, connections: int) -> None:
    loads = figures["loads"]
    print(f"load average (1 min) during the command cycles: {min(loads):.2f}-{max(loads):.2f} on {os.cpu_count()} CPUs")
    for n, ((rate, cpu), (bare_rate, bare_cpu)) in enumerate(zip(figures["rounds"], figures["bare_rounds"]), 1):
        print(f"  round {n}: {rate:7.0f} cycles/s, {cpu:.3f} ms CPU a cycle   bare Flask: {bare_rate:7.0f}/s, "
              f"{bare_cpu:.3f} ms")
    print(f"command cycles (wrk, {connections} games at once, GET legal commands + POST the first): "
          f"{figures['rate']:7.0f}/s   bare Flask GET + POST: {figures['bare_rate']:7.0f}/s   "
          f"ratio {figures['rate'] / figures['bare_rate']:.2f} (goal >= 0.5)")
    print(f"server CPU per cycle: {figures['cpu']:.3f} ms   bare Flask: {figures['bare_cpu']:.3f} ms   "
          f"ratio {figures['bare_cpu'] / figures['cpu']:.2f} (goal >= 0.5)")
    transactions = figures["transactions"]
    print("PostgreSQL transactions per cycle: " + ("not counted with the pgbench rounds (--no-pgbench counts them)"
                                                   if transactions is None else f"{transactions:.2f}") + "   "
          f"request latency (GET and POST) p50 {figures['latency'][0]}  p99 {figures['latency'][1]}")
    print(f"a POST on the service's connections: {figures['post_round_trips']:.2f} round trips, "
          f"{figures['post_transactions']:.2f} transactions; it sends: " + " | ".join(figures["post_sent"]))
    print(f"an Idempotency-Key's row (pg_column_size, the mean of the run's): {figures['key_bytes']:.0f} B")
    answered, posts = figures["before_flask"]
    for what, count in (("commands", answered), ("the legal commands' GETs", figures["legal_before_flask"])):
        print(f"{what} answered before Flask (api/http/commands_fast.py, legal_fast.py), of the wire's cycles: "
              + ("none: this checkout has no such path or it is off" if not count else f"{count} of {posts}"))
    if figures.get("pgbench"):
        pgbench_stage.report(figures, connections)


def compare(before: list[dict], after: list[dict], code: Path | str) -> None:
    """This checkout against ``code`` (or what ``before`` names), measured alternately in one run."""
    rate_before = statistics.median(f["rate"] for f in before)
    rate_after = statistics.median(f["rate"] for f in after)
    trips_before, trips_after = before[0]["post_round_trips"], after[0]["post_round_trips"]
    print(f"\n{code} (before) against this checkout (after), {len(before)} measure(s) each, alternately:")
    each_before = ", ".join(f"{f['rate']:.0f}" for f in before)
    each_after = ", ".join(f"{f['rate']:.0f}" for f in after)
    print(f"  command cycles/s: before {rate_before:.0f} ({each_before})   after {rate_after:.0f} ({each_after})"
          f"   ratio {rate_after / rate_before:.2f}")
    print(f"  round trips per POST: before {trips_before:.2f}   after {trips_after:.2f}"
          f"   ratio {trips_after / trips_before:.2f}")
    print(f"  transactions per POST: before {before[0]['post_transactions']:.2f}"
          f"   after {after[0]['post_transactions']:.2f}")
    print(f"  PostgreSQL transactions per cycle (all connections): before "
          f"{statistics.median(f['transactions'] for f in before):.2f}   after "
          f"{statistics.median(f['transactions'] for f in after):.2f}")
    print(f"  an Idempotency-Key's row: before {before[0]['key_bytes']:.0f} B   after {after[0]['key_bytes']:.0f} B")
    print(f"  server CPU per cycle: before {statistics.median(f['cpu'] for f in before):.3f} ms   after "
          f"{statistics.median(f['cpu'] for f in after):.3f} ms")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--connections", type=int, default=16, help="games played at once (one wrk connection each)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=14,
                        help=f"games created per connection (a game is {MOVES_PER_GAME} cycles)")
    parser.add_argument("--compare", metavar="CHECKOUT",
                        help="also measure the server of another boardlog checkout (a git worktree of main, say), "
                             "alternately with this one, and print the ratios")
    parser.add_argument("--fast-commands-off", action="store_true",
                        help="compare this checkout with itself with BOARDLOG_FAST_COMMANDS=0 (commands through Flask "
                             "alone), alternately, and print the ratios")
    parser.add_argument("--fast-legal-commands-off", action="store_true",
                        help="the same with BOARDLOG_FAST_LEGAL_COMMANDS=0 (the legal commands' GETs through Flask)")
    parser.add_argument("--pairs", type=int, default=2,
                        help="with --compare, --fast-commands-off or --fast-commands-in-process: measures of each, alternately")
    parser.add_argument("--no-pgbench", action="store_true",
                        help="leave out the pgbench rounds of the command's own statement (bench/pgbench_command.py)")
    parser.add_argument("--profile", metavar="DIR", help="py-spy each worker of boardlog during each round, into DIR, and print where their time went")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0)
    add_arguments(parser)
    parser.add_argument("--notify-where", action="store_true",
                        help="only the command statement, its NOTIFY sent by it or by the notifier (no wrk)")
    parser.add_argument("--fast-commands-in-process", action="store_true",
                        help="only the CPU of a command POST in this process, before Flask and through it (no wrk)")
    args = parser.parse_args()
    if args.fast_commands_in_process:
        from bench.cycles_in_process import fast_commands_in_process

        fast_commands_in_process(args.pairs, legal=args.fast_legal_commands_off)
        return 0
    if args.notify_where:
        from bench.cycles_in_process import notify_where

        notify_where(args.seconds)
        return 0
    if not shutil.which("wrk"):
        print("bench/cycles.py needs wrk (apt-get install wrk): Python clients would be the bottleneck")
        return 2
    off = {**({"BOARDLOG_FAST_COMMANDS": "0"} if args.fast_commands_off else {}),
           **({"BOARDLOG_FAST_LEGAL_COMMANDS": "0"} if args.fast_legal_commands_off else {})} or None
    if not args.compare and not off:
        report(measure(args), args.connections)
        return 0
    other = Path(args.compare).resolve() if args.compare else ROOT
    name = f"this checkout, through Flask alone ({', '.join(f'{k}=0' for k in off)})" if off else other
    before, after = [], []
    for _ in range(args.pairs):
        before.append(measure(args, other, extra_env=off))
        print(f"--- {name}")
        report(before[-1], args.connections)
        after.append(measure(args))
        print("--- this checkout")
        report(after[-1], args.connections)
    compare(before, after, name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
