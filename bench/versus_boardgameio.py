"""boardlog against boardgame.io 0.50 with its PostgreSQL adapter
(bgio-postgres), same rules, same PostgreSQL, same client (issue 37): server
CPU per move (goal: boardlog <= 1.0x boardgame.io) and bytes stored per
move, by table.

    python bench/versus_boardgameio.py [--pairs 3] [--matches 120] [--concurrent 16] [--warm-up 400]
                                       [--spectators N] [--compare CHECKOUT]

The game is boardlog's example game (domain/games/example), ported to
boardgame.io in bench/boardgameio/game.js. boardlog hosts it only when
tests/support/example_hosted is on PYTHONPATH (its sitecustomize adds it to
the registry, as tests/web/test_example_game_table.py has a test server do):
the bench puts it first on the PYTHONPATH of the gunicorn processes and of
the worker, and nothing else differs from production.

boardlog runs as bench/cycles.py runs it: ``gunicorn -c
python:api.processes.gunicorn_conf`` (2 gevent workers), Redis (REDIS_URL's
server, the first empty database from 10 on, claimed for the run, or an embedded one), rate limits on but never refusing,
the request log at INFO, and ``boardlog worker`` with its notifier beside
it; boardgame.io runs bench/boardgameio/server.js (one node process,
socket.io and the lobby, PostgresStore). Each has a database of its own on
DATABASE_URL's server (or an embedded one), created and dropped by the bench.
The Node harness is installed with npm (``npm ci``) when missing.

The players are one node process (bench/boardgameio/driver.js, which says
how each side is played): ``--concurrent`` matches at once, two seats each,
every seat moving as soon as it may, each round ``--matches`` matches of six
moves, after ``--warm-up`` matches of each server not measured (node's
JIT takes some 2,000 moves to settle). Per pair of rounds, alternately:
boardlog with the POSTs alone (the hands read and the versions carried
before and outside the clock), boardlog with the whole move (the seat's
GET of its view, then the POST), and boardgame.io (the move sent over
socket.io; the server pushes the new filtered state to both seats, which
is how they learn of it).

With ``--spectators N``, two more kinds of round in each pair: the whole
move with N spectators a match, each joined before the first move and
following it to its end (boardlog: the game's SSE stream, no token;
boardgame.io: a socket that syncs with no playerID), CPU a move and what
the spectators added a move delivered (a move times N).

With ``--compare CHECKOUT`` (another boardlog checkout, such as a
worktree of an earlier commit), one more kind of round in each pair: the
whole move on that checkout's server and worker, run as this one's (its own
migrations, database and Redis database, the same settings), and this
checkout's whole move over it, same run.

Measured per move, each round: the servers' CPU (user + system from /proc:
the gunicorn master and workers; the node server), the worker's (boardlog),
the PostgreSQL backends of the side's database, backends that ended, the
driver's, the machine's (bench/cpu_split.py), Redis's server's (its INFO
cpu: boardlog's rate limits, queues and caches); moves per second; bytes
stored, by table: the growth of ``sum(pg_column_size(t.*))`` over each
table's live rows (rows added, or grown in place) and of
``pg_total_relation_size`` (heap with its dead versions, TOAST, indexes),
over the round, divided by its moves; the same for the games' creation
(boardlog: create, join, start; boardgame.io: the lobby's create and two
joins), divided by the moves of the games created. Prints each side's
medians and boardlog / boardgame.io. Any failure (an answer not 200, a
socket error, a move refused or unanswered, a game unfinished after its
moves, an ERROR in boardgame.io's log) fails the bench: exit 1.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psycopg
import redis
from psycopg import sql

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from api.processes.supervisor import stop_worker  # noqa: E402
from bench.api import GEVENT, Client, free_port, gunicorn  # noqa: E402
from bench.cpu_split import PARTS, CpuSplit  # noqa: E402
from bench.cycles import migrate_as  # noqa: E402
from bench.production import (  # noqa: E402
    claimed_database, redis_url_for_bench, start_worker, stop,
)
from bench.versus_report import KINDS, REDIS, anatomy, print_anatomy, report  # noqa: E402
from eventstore import migrate  # noqa: E402
from eventstore.servers import temporary_database, temporary_server  # noqa: E402

HARNESS = ROOT / "bench" / "boardgameio"
EXAMPLE_HOSTED = ROOT / "tests" / "support" / "example_hosted"
MOVES_PER_MATCH = 6  # two seats, three rounds
SETTLE = 1.0  # s after the last move within each round's CPU: the last writes, the notifier's


def ensure_harness() -> None:
    """bench/boardgameio's node_modules, from its package-lock.json; a clear sentence if that cannot be."""
    for tool in ("node", "npm"):
        if not shutil.which(tool):
            raise SystemExit(f"bench/versus_boardgameio.py needs {tool} on PATH (Node 18 or later, with npm)")
    if (HARNESS / "node_modules" / ".package-lock.json").is_file():  # npm writes it once an install is whole
        return
    print("installing bench/boardgameio's Node packages (npm ci)...", flush=True)
    done = subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=HARNESS, capture_output=True, text=True,
                          timeout=600, check=False)
    if done.returncode:
        raise SystemExit("npm could not install bench/boardgameio's packages (is the npm registry reachable?):\n"
                         + (done.stdout + done.stderr)[-2000:])


def node(*args: str, timeout: float = 600) -> dict:
    """One run of driver.js; its JSON line."""
    done = subprocess.run(["node", "driver.js", *args], cwd=HARNESS, capture_output=True, text=True, timeout=timeout,
                          check=False)
    lines = done.stdout.strip().splitlines()
    try:
        answer = json.loads(lines[-1])
    except (IndexError, json.JSONDecodeError):
        answer = {"failures": {f"driver.js exited {done.returncode}: {(done.stdout + done.stderr)[-1000:]}": 1}}
    if done.returncode and not answer.get("failures"):
        answer["failures"] = {f"driver.js exited {done.returncode}: {done.stderr[-1000:]}": 1}
    return answer


def start_bgio(url: str, log) -> tuple[subprocess.Popen, str]:
    port = free_port()
    process = subprocess.Popen(["node", "server.js"], cwd=HARNESS, env={**os.environ, "DATABASE_URL": url,
                                                                         "PORT": str(port)},
                               stdout=log, stderr=log, stdin=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    import requests

    for _ in range(300):
        if process.poll() is not None:
            raise SystemExit(f"the boardgame.io server exited with {process.returncode}")
        try:
            requests.get(base + "/games", timeout=5)
            return process, base
        except (requests.ConnectionError, requests.Timeout):
            time.sleep(0.1)
    raise SystemExit("the boardgame.io server did not start within 30 s")


def table_bytes(url: str) -> dict[str, tuple[int, int, int]]:
    """Every table's rows, bytes of its live rows (pg_column_size of each
    row) and pg_total_relation_size; leaf tables only (a partitioned
    table's partitions, not the parent twice)."""
    with psycopg.connect(url, autocommit=True) as conn:
        tables = conn.execute("select n.nspname, c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace"
                              " where c.relkind = 'r' and n.nspname not in ('pg_catalog', 'information_schema')"
                              " and n.nspname not like 'pg_toast%' and n.nspname not like 'pg_temp%'").fetchall()
        sizes = {}
        for schema, name in tables:
            table = sql.Identifier(schema, name)
            rows, live, total = conn.execute(
                sql.SQL("select count(*), coalesce(sum(pg_column_size(t.*)), 0), pg_total_relation_size({})"
                        " from {} t").format(sql.Literal(f'"{schema}"."{name}"'), table)).fetchone()
            sizes[name if schema == "public" else f"{schema}.{name}"] = (rows, int(live), total)
    return sizes


def grown(before: dict, after: dict) -> dict[str, tuple[int, int, int]]:
    """What each table gained, tables that did not left out."""
    out = {}
    for name, now in after.items():
        then = before.get(name, (0, 0, 0))
        delta = tuple(a - b for a, b in zip(now, then))
        if any(delta):
            out[name] = delta
    return out


def example_game(base: str, seats: tuple[Client, Client]) -> dict:
    a, b = seats
    made = a.call("POST", "/v1/games", json={"game": "example", "options": {"players": 2}})
    if made.status_code != 201 and made.status_code != 200:
        raise SystemExit(f"the example game could not be created ({made.status_code}: {made.text[:300]}); "
                         "is tests/support/example_hosted on the server's PYTHONPATH?")
    game = made.json()["id"]
    b.call("POST", f"/v1/games/{game}/join", json={}).raise_for_status()
    a.call("POST", f"/v1/games/{game}/start").raise_for_status()
    listed = a.call("GET", f"/v1/games/{game}").json()["seats"]
    tokens = {s["seat"]: c.auth["Authorization"].removeprefix("Bearer ") for s, c in zip(listed, seats)}
    return {"id": game, "seats": dict(sorted(tokens.items()))}


def scored(url: str, games: list[str], failures: dict, timeout: float = 60.0) -> None:
    """Until the worker has scored every game the round ended (the last
    move leaves a game "scoring"): its CPU for them is within the round's."""
    deadline = time.monotonic() + timeout
    with psycopg.connect(url, autocommit=True) as conn:
        while time.monotonic() < deadline:
            left = conn.execute("select count(*) from games where id = any(%s::uuid[]) and status <> 'finished'",
                                (games,)).fetchone()[0]
            if not left:
                return
            time.sleep(0.1)
    failures[f"boardlog: {left} games not scored within {timeout:.0f} s"] = 1


class Side:
    """One server's rounds: CPU by process, rate and bytes by table, per move."""

    def __init__(self, kind: str, url: str, split: CpuSplit, redis_url: str | None = None, spectators: int = 0):
        self.kind, self.url, self.split, self.spectators = kind, url, split, spectators
        self.mode = {"boardlog-watch": "boardlog-move", "bgio-watch": "bgio",
                     "boardlog-move-compare": "boardlog-move"}.get(kind, kind)  # driver.js's
        self.delivered: list[int] = []
        self.redis = redis.Redis.from_url(redis_url) if redis_url else None
        self.redis_ms: list[float] = []
        self.rates: list[float] = []
        self.bytes: dict[str, list[int]] = {}
        self.moves = 0

    def round(self, base: str, games: Path, concurrent: int, failures: dict, measured: bool = True) -> None:
        if self.kind == "boardlog-post":
            answer = node("boardlog-hands", base, str(games), str(concurrent))
            failures.update({f"reading the hands: {c}": n for c, n in answer.get("failures", {}).items()})
        before = table_bytes(self.url)
        redis_before = self._redis_cpu()
        self.split.start()
        answer = node(self.mode, base, str(games), str(concurrent), str(self.spectators))
        if self.kind.startswith("boardlog") and not answer.get("failures"):
            scored(self.url, [game["id"] for game in json.loads(games.read_text())], failures)
        time.sleep(SETTLE)
        for cause, count in answer.get("failures", {}).items():
            key = f"{KINDS[self.kind]}: {cause}"
            failures[key] = failures.get(key, 0) + count
        if not answer.get("moves") or not measured:
            return
        self.split.finish(self.kind, answer["moves"], answer["seconds"] + SETTLE)
        self.redis_ms.append(1000 * (self._redis_cpu() - redis_before) / answer["moves"])
        self.rates.append(answer["moves"] / answer["seconds"])
        self.moves += answer["moves"]
        self.delivered.append(answer.get("delivered", 0))
        for name, delta in grown(before, table_bytes(self.url)).items():
            self.bytes[name] = [a + b for a, b in zip(self.bytes.get(name, [0, 0, 0]), delta)]

    def _redis_cpu(self) -> float:
        """Seconds of CPU Redis's server has used, whoever its client (0 for a side without Redis)."""
        if self.redis is None:
            return 0.0
        info = self.redis.info("cpu")
        return info["used_cpu_user"] + info["used_cpu_sys"]

    def cpu(self) -> dict[str, float]:
        """Median ms a move of each part over the rounds, Redis's server with them."""
        rounds = self.split.rounds.get(self.kind, [])
        if not rounds:
            return {}
        return {**{part: statistics.median(r[part] for r in rounds) for part in PARTS},
                REDIS: statistics.median(self.redis_ms)}


def _server_of(kind: str) -> str:
    return "bgio" if kind.startswith("bgio") else "compared" if kind.endswith("-compare") else "boardlog"


def serve_compared(code: Path, url: str, redis_url: str, env: dict, log) -> tuple[dict, dict, str]:
    """``--compare``: checkout ``code``'s server and worker as this one's run
    (its own migrations, database and Redis database, the same settings)."""
    migrate_as(code, url)
    other_env = {**env, "DATABASE_URL": url, "REDIS_URL": _another_redis_database(redis_url)}
    hosted = (code / "tests" / "support" / "example_hosted",)
    app, app_url = gunicorn("api.processes.wsgi:app", other_env, GEVENT, log, pythonpath=hosted, code=code)
    return {"app": app, "worker": start_worker(code, other_env, log, pythonpath=hosted)}, other_env, app_url


def _another_redis_database(url: str) -> str:
    """A database of the same Redis as ``url`` for the compared server: the
    next one free on REDIS_URL's server, claimed; database 1 of this run's
    embedded one (``unix://``, nobody else's)."""
    if url.startswith("unix://"):
        return f"{url}?db=1"
    base, _, db = url.rpartition("/")
    return claimed_database(base, int(db) + 1)


def run(args) -> int:
    ensure_harness()
    folder = Path(tempfile.mkdtemp(prefix="boardlog-versus-"))
    redis_url, embedded = redis_url_for_bench(folder, 10)
    processes, worker, failures, loads, extra_workers = [], None, {}, [os.getloadavg()[0]], []
    try:
        with contextlib.ExitStack() as stack, temporary_server(os.environ.get("DATABASE_URL")) as server, \
                temporary_database(server, "boardlog_versus") as url, \
                temporary_database(server, "boardlog_versus_bgio") as bgio_url:
            migrate(url)
            env = {"DATABASE_URL": url, "REDIS_URL": redis_url, "BOARDLOG_RATE_LIMIT": "100000000",
                   "BOARDLOG_LOG_LEVEL": "INFO",
                   # Every spectator comes from 127.0.0.1: the limit a waiting address may hold, raised for it.
                   "BOARDLOG_WAITERS_PER_ADDRESS": str(max(500, 2 * args.concurrent * args.spectators))}
            log = open(folder / "servers.log", "ab")  # noqa: SIM115 (closed with the folder)
            bgio_log = folder / "boardgameio.log"
            app, app_url = gunicorn("api.processes.wsgi:app", env, GEVENT, log, pythonpath=(EXAMPLE_HOSTED,))
            worker = start_worker(ROOT, env, log, pythonpath=(EXAMPLE_HOSTED,))
            bgio, bgio_base = start_bgio(bgio_url, open(bgio_log, "ab"))  # noqa: SIM115
            processes = [app, bgio]
            warm, watching = args.warm_up, 1 if args.spectators else 0
            ours, theirs = warm + (2 + watching) * args.matches * args.pairs, warm + (1 + watching) * args.matches * args.pairs
            print(f"making {ours} boardlog games and {theirs} boardgame.io matches...", flush=True)
            before = table_bytes(url)
            players = [Client(app_url, f"versus-{n}") for n in range(2 * args.concurrent)]
            with concurrent.futures.ThreadPoolExecutor(8) as pool:
                made = list(pool.map(lambda n: example_game(app_url, (players[2 * (n % args.concurrent)],
                                                                      players[2 * (n % args.concurrent) + 1])),
                                     range(ours)))
            setup = {"boardlog": (grown(before, table_bytes(url)), len(made) * MOVES_PER_MATCH)}
            before = table_bytes(bgio_url)
            created = node("create-bgio", bgio_base, str(theirs), str(folder / "matches.json"))
            failures.update({f"boardgame.io's lobby: {c}": n for c, n in created.get("failures", {}).items()})
            setup["bgio"] = (grown(before, table_bytes(bgio_url)), theirs * MOVES_PER_MATCH)
            matches = json.loads((folder / "matches.json").read_text()) if not failures else []
            sides = {"boardlog-post": Side("boardlog-post", url, CpuSplit(url, app, worker), redis_url),
                     "boardlog-move": Side("boardlog-move", url, CpuSplit(url, app, worker), redis_url),
                     "bgio": Side("bgio", bgio_url, CpuSplit(bgio_url, bgio, None))}
            if args.spectators:
                sides["boardlog-watch"] = Side("boardlog-watch", url, CpuSplit(url, app, worker), redis_url,
                                               args.spectators)
                sides["bgio-watch"] = Side("bgio-watch", bgio_url, CpuSplit(bgio_url, bgio, None), None, args.spectators)
            queues = {"boardlog": iter(made), "bgio": iter(matches)}  # each round takes the next games of its server
            other_app_url = None
            if args.compare:
                compared = stack.enter_context(temporary_database(server, "boardlog_versus_compared"))
                other, other_env, other_app_url = serve_compared(Path(args.compare).resolve(), compared, redis_url,
                                                                 env, log)
                processes.append(other["app"])
                extra_workers.append(other["worker"])
                sides["boardlog-move-compare"] = Side("boardlog-move-compare", compared,
                                                      CpuSplit(compared, other["app"], other["worker"]),
                                                      other_env["REDIS_URL"])
                games = (args.warm_up // 2 + args.matches * args.pairs)
                with concurrent.futures.ThreadPoolExecutor(8) as pool:
                    others = [Client(other_app_url, f"versus-{n}") for n in range(2 * args.concurrent)]
                    queues["compared"] = iter(list(pool.map(lambda n: example_game(other_app_url, (
                        others[2 * (n % args.concurrent)], others[2 * (n % args.concurrent) + 1])), range(games))))
            time.sleep(2)  # what the games' creation left to the notifier
            for n in range(-1, args.pairs if not failures else -1):  # -1: the warm-up
                for kind, side in sides.items():
                    chunk, server = folder / f"{kind}-{n}.json", _server_of(kind)
                    if n < 0 and kind.endswith("-watch"):
                        continue
                    # The warm-up: boardgame.io all its warm-up matches, boardlog half of them in each kind.
                    size = args.matches if n >= 0 else warm if server == "bgio" else warm // 2
                    chunk.write_text(json.dumps([next(queues[server]) for _ in range(size)]))
                    base = {"bgio": bgio_base, "boardlog": app_url}.get(server) or other_app_url
                    side.round(base, chunk, args.concurrent, failures, measured=n >= 0)
                    if n < 0:
                        continue
                    loads.append(os.getloadavg()[0])
                    print(f"  pair {n + 1}, {KINDS[kind]}: {side.rates[-1] if side.rates else 0:.0f} moves/s, "
                          f"load {loads[-1]:.1f}", flush=True)
            found = anatomy(url)
            errors = [line for line in bgio_log.read_text(errors="replace").splitlines() if "ERROR" in line]
            if errors:
                failures[f"boardgame.io's log: {errors[0][:200]}"] = len(errors)
            for each in (worker, *extra_workers):
                stop_worker(each)
            stop(processes)
    finally:
        for each in (worker, *extra_workers):
            stop_worker(each)
        stop(processes)
        if embedded is not None:
            embedded.stop()
        shutil.rmtree(folder, ignore_errors=True)
    if failures:
        print("FAILED (every request and move must succeed):\n" + "\n".join(f"  {n} x {c}" for c, n in failures.items()))
        return 1
    report(sides, setup, loads, args)
    print_anatomy(found)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=3, help="rounds of each side, alternately")
    parser.add_argument("--matches", type=int, default=120, help="matches a round (six moves each)")
    parser.add_argument("--concurrent", type=int, default=16, help="matches played at once (two seats each)")
    parser.add_argument("--spectators", type=int, default=0,
                        help="also rounds of the whole move with this many spectators a match (boardlog: "
                             "SSE streams of the game; boardgame.io: spectator sockets), alternately")
    parser.add_argument("--compare", metavar="CHECKOUT",
                        help="also rounds of the whole move on another boardlog checkout's server (its own "
                             "database and Redis database), alternately: this one against it")
    parser.add_argument("--warm-up", type=int, default=400,
                        help="matches each server plays first, not measured (boardgame.io's node needs some "
                             "2,000 moves before its CPU a move settles; boardlog plays as many)")
    return run(parser.parse_args())


if __name__ == "__main__":
    sys.exit(main())
