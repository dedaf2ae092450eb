"""Fault experiments that take too long for CI: races, a PostgreSQL restart
under load, Redis killed for 30 s under two workers, and, with no fault at
all, how late deadlines fire at two rates; then, on a deployment of their
own run as production runs it (gunicorn with api/processes/gunicorn_conf.py, the
worker, a PostgreSQL and a Redis of its own), under 500 streams and 100
long-polls while the games are played: PostgreSQL restarted, one API
process SIGKILLed, Redis killed 10 s (every game and player stream resumes
with Last-Event-ID; each version and notice id is checked against what
PostgreSQL stored); a bot's job SIGKILLed inside its move (the move comes,
once); a webhook receiver down 2 minutes (every notification's webhook-id
arrives once it is back). Prints one table whose goal is zero in every bad
column, and exits 1 when one is not: a waiter or request that failed (any
answer but the 503s of an outage, a stream silent for 40 s) counts in
"failed"; deadline lateness is measured where deadlines fire.

    python bench/faults.py [--racers 50] [--load-seconds 20] [--redis-outage 30] [--hook-down 120]
                           [--only races|postgres|redis|deadlines|streams|bot|webhook] 2>/dev/null

(the API's one line per request goes to standard error; the table to standard output)

PostgreSQL: DATABASE_URL's server (or an embedded one) for the races and the
Redis experiment, in throwaway databases; the restart experiment and the
deployment run PostgreSQLs of their own (initdb and pg_ctl from
/usr/lib/postgresql/*/bin, as the postgres user when run as root) and
restart only those. Redis: a redis-server of its own on a free port, killed
and started again empty. Nothing here touches the machine's shared servers
beyond its own databases.
"""

from __future__ import annotations

import argparse
import collections
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psycopg
import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api import Client, gunicorn, new_game  # noqa: E402
from eventstore import migrate  # noqa: E402
from eventstore.servers import temporary_database, temporary_server  # noqa: E402
from bench.private_servers import PrivatePostgres, PrivateRedis  # noqa: E402

BAD = ("lost", "duplicated", "5xx not 503", "accepted not stored", "fired twice", "overdue at end", "workers died",
       "failed")
rows: list[tuple[str, str, dict]] = []


def report(experiment: str, measured: str, bad: dict | None = None, **more) -> None:
    bad = {**(bad or {}), **more}
    rows.append((experiment, measured, {name.replace("_", " "): value for name, value in bad.items()}))


def print_table() -> int:
    header = ["experiment", "measured", *BAD]
    lines = [header]
    for experiment, measured, bad in rows:
        lines.append([experiment, measured, *(str(bad.get(name, "-")) for name in BAD)])
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for n, line in enumerate(lines):
        print("| " + " | ".join(cell.ljust(width) for cell, width in zip(line, widths)) + " |")
        if n == 0:
            print("|" + "|".join("-" * (width + 2) for width in widths) + "|")
    total = sum(value for _, _, bad in rows for value in bad.values() if isinstance(value, int))
    print(f"\nbad total: {total} (goal 0)")
    return total


# Races ---------------------------------------------------------------------------------


def _together(count: int, action) -> list:
    """``action(n)`` from ``count`` threads released at once."""
    barrier = threading.Barrier(count)
    results: list = [None] * count

    def run(n):
        barrier.wait()
        results[n] = action(n)

    threads = [threading.Thread(target=run, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def _moves_after(database_url: str, game: str, version: int) -> int:
    """Moves stored past ``version``: batches of events, one per decision."""
    with psycopg.connect(database_url) as conn:
        return conn.execute(
            "select count(distinct metadata->>'decided_at') from events where stream_id = %s and version > %s",
            (f"game-{game}", version)).fetchone()[0]


def _actor(base: str, game: str, seats: dict):
    summary = next(iter(seats.values())).call("GET", f"/v1/games/{game}").json()
    player = seats[summary["to_act"][0]]
    command = player.call("GET", f"/v1/games/{game}/legal-commands").json()["commands"][0]
    return player, command, summary["version"]


def races(base: str, database_url: str, racers: int) -> None:
    game, seats = new_game(base, "race-if-match")
    player, command, version = _actor(base, game, seats)
    codes = _together(racers, lambda n: player.call(
        "POST", f"/v1/games/{game}/commands", json=command,
        headers={"If-Match": f'"{version}"', "Idempotency-Key": f"racer-{n}"}).status_code)
    accepted, stored = codes.count(200), _moves_after(database_url, game, version)
    report(f"{racers} clients, one seat, one move (If-Match)", f"{accepted} accepted, {stored} stored, "
           f"others {dict(collections.Counter(c for c in codes if c != 200))}",
           lost=max(0, accepted - stored), duplicated=max(0, stored - 1), **{"5xx_not_503": _server_errors(codes)})

    game, seats = new_game(base, "race-key")
    player, command, version = _actor(base, game, seats)
    answers = _together(racers, lambda n: player.call(
        "POST", f"/v1/games/{game}/commands", json=command, headers={"Idempotency-Key": "one-key"}))
    codes = [answer.status_code for answer in answers]
    bodies = {answer.text for answer in answers if answer.status_code == 200}
    stored = _moves_after(database_url, game, version)
    report(f"{racers} retries of one Idempotency-Key", f"{codes.count(200)} answered 200 with "
           f"{len(bodies)} distinct answer(s), {stored} stored",
           lost=int(stored == 0), duplicated=max(0, stored - 1) + max(0, len(bodies) - 1),
           **{"5xx_not_503": _server_errors(codes)})

    games = [new_game(base, f"race-many-{n}") for n in range(16)]
    start = {game: _actor(base, game, seats)[2] for game, seats in games}

    def play(n):
        game, seats = games[n % len(games)]
        accepted, codes = 0, []
        for _ in range(10):
            try:
                player, command, _ = _actor(base, game, seats)
            except (IndexError, KeyError):  # the game ended
                break
            response = player.call("POST", f"/v1/games/{game}/commands", json=command)
            codes.append(response.status_code)
            accepted += response.status_code == 200
        return accepted, codes

    results = _together(len(games), play)
    accepted = sum(a for a, _ in results)
    stored = sum(_moves_after(database_url, game, start[game]) for game, _ in games)
    report("16 games played at once, 10 moves each", f"{accepted} accepted, {stored} stored",
           lost=max(0, accepted - stored), duplicated=max(0, stored - accepted),
           **{"5xx_not_503": sum(_server_errors(codes) for _, codes in results)})


def _server_errors(codes) -> int:
    return sum(1 for code in codes if code is not None and code >= 500 and code != 503)


# PostgreSQL restarted under load -------------------------------------------------------


def postgres_restart(seconds: float, outage: float, clients: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="boardlog-faults-pg-"))
    folder.chmod(0o755)
    postgres = PrivatePostgres(folder)
    postgres.init()
    try:
        migrate(postgres.url)
        api, base = gunicorn("api.processes.wsgi:app", {"DATABASE_URL": postgres.url, "REDIS_URL": "", "BOARDLOG_RATE_LIMIT": "0"})
        try:
            _load_through_restart(base, postgres, seconds, outage, clients)
        finally:
            api.terminate()
            api.wait(timeout=30)
    finally:
        try:
            postgres.stop()
        finally:
            shutil.rmtree(folder, ignore_errors=True)


def _load_through_restart(base: str, postgres: PrivatePostgres, seconds: float, outage: float, clients: int) -> None:
    players = [Client(base, f"load-{n}") for n in range(clients)]
    end = time.monotonic() + seconds
    codes: list[int] = []
    accepted: list[str] = []
    slowest = [0.0]
    lock = threading.Lock()

    def load(player):
        while time.monotonic() < end:
            started = time.monotonic()
            try:
                response = player.call("POST", "/v1/games", json={"game": "cronberg", "options": {"players": 2}})
                code = response.status_code
            except requests.RequestException:
                code = 0  # no answer at all
            with lock:
                codes.append(code)
                slowest[0] = max(slowest[0], time.monotonic() - started)
                if code == 201:
                    accepted.append(response.json()["id"])
            if code != 201:
                time.sleep(0.05)

    threads = [threading.Thread(target=load, args=(player,)) for player in players]
    for thread in threads:
        thread.start()
    time.sleep(seconds / 4)
    postgres.stop()
    stopped = time.monotonic()
    time.sleep(outage)
    postgres.start()
    back = time.monotonic()
    first_after = [None]

    def watch():
        seen = len(codes)
        while time.monotonic() < end and first_after[0] is None:
            with lock:
                if 201 in codes[seen:]:
                    first_after[0] = time.monotonic() - back
            time.sleep(0.02)

    watcher = threading.Thread(target=watch)
    watcher.start()
    for thread in threads + [watcher]:
        thread.join()
    with psycopg.connect(postgres.url) as conn:
        stored = conn.execute("select count(*) from games where id = any(%s::uuid[])", (accepted,)).fetchone()[0]
        total = conn.execute("select count(*) from games").fetchone()[0]
    counts = collections.Counter(codes)
    recovery = f"{first_after[0]:.1f} s" if first_after[0] is not None else "never"
    report(f"PostgreSQL stopped {outage:.0f} s under {clients} writers",
           f"{len(codes)} requests: {counts[201]} created, {counts[503]} x 503, {counts[0]} unanswered; "
           f"slowest {slowest[0]:.1f} s; first success {recovery} after restart; "
           f"{total - stored} stored without an answer; outage began {stopped - (end - seconds):.1f} s in",
           **{"5xx_not_503": _server_errors(codes) + counts[0], "accepted_not_stored": len(accepted) - stored})


# Redis killed under two workers --------------------------------------------------------


def redis_outage(outage: float, games: int, sweep_every: int) -> None:
    from redis import Redis

    from api.service.games import GameService
    from eventstore import PostgresEventStore
    from api.service.scheduling import RQScheduler

    folder = Path(tempfile.mkdtemp(prefix="boardlog-faults-redis-"))
    redis_server = PrivateRedis(folder)
    redis_server.start()
    with temporary_server(os.environ.get("DATABASE_URL")) as server, \
            temporary_database(server, "boardlog_faults") as url:
        migrate(url)
        store = PostgresEventStore.connect(url, max_size=4)
        service = GameService(store, RQScheduler(Redis.from_url(redis_server.url)))
        env = {**os.environ, "DATABASE_URL": url, "REDIS_URL": redis_server.url, "PYTHONPATH": str(ROOT)}
        logs = [open(folder / f"worker-{n}.log", "wb") for n in range(2)]
        workers = [subprocess.Popen([sys.executable, "-m", "api.processes.cli", "worker", "--sweep-every", str(sweep_every)],
                                    cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT) for log in logs]
        try:
            ids = []
            for n in range(games):
                host, guest = (service.players.register(f"redis-{n}-{side}")[0] for side in "ab")
                game_id = service.create(host, "cronberg", {"players": 2, "turn_seconds": 2}, None)
                service.join(game_id, guest, None)
                service.start(game_id, host)
                ids.append(game_id)
            time.sleep(5)  # deadlines fire for a while
            redis_server.kill()
            time.sleep(outage)
            redis_server.start()  # empty: every job is gone
            time.sleep(4 * sweep_every + 15)  # deadlines fire again, made by the sweeps
            died = sum(1 for worker in workers if worker.poll() is not None)
            exits = [worker.returncode for worker in workers if worker.returncode is not None]
            for n, worker in enumerate(workers):
                if worker.returncode is not None:  # why, on standard error
                    text = (folder / f"worker-{n}.log").read_text(errors="replace")
                    print(f"worker {n} exited with {worker.returncode}:\n{text[-6000:]}", file=sys.stderr)
            fired, twice, overdue = _deadline_outcomes(url, ids, grace=sweep_every + 15)
            scored_twice = _scored_twice(url, ids)
            late = _lateness(url, ids, 2)
        finally:
            for worker in workers:
                worker.terminate()
            for worker in workers:
                try:
                    worker.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    worker.kill()
            for log in logs:
                log.close()
            store.close()
            redis_server.kill()
            shutil.rmtree(folder, ignore_errors=True)
    report(f"Redis killed {outage:.0f} s under 2 workers, {games} games",
           f"{fired} deadlines fired (before, during and after the outage); " + _lateness_figures(late)
           + (f"; a worker exited with {exits}" if exits else ""),
           fired_twice=twice + scored_twice, overdue_at_end=overdue, workers_died=died)


def _deadline_outcomes(url: str, ids, grace: float) -> tuple[int, int, int]:
    """Deadlines fired (a timed-out turn of several steps is one), fired twice, overdue."""
    with psycopg.connect(url) as conn:
        rows_ = conn.execute(
            "select stream_id, data->>'deadline_version', data->>'seat', count(*) from events"
            " where type = 'TurnTimedOut' and stream_id = any(%s) and metadata->'timeout_step' is null"
            " group by 1, 2, 3", ([f"game-{game}" for game in ids],)).fetchall()
        overdue = conn.execute(
            "select count(*) from games where id = any(%s) and status = 'active'"
            " and deadline < now() - make_interval(secs => %s)", (list(ids), grace)).fetchone()[0]
    return sum(row[3] for row in rows_), sum(1 for row in rows_ if row[3] > 1), overdue


def _lateness(url: str, ids, turn_seconds: float) -> list[float]:
    """How late each deadline fired, in seconds: when its TurnTimedOut was
    recorded, less the deadline the players were shown (the seat's
    ``to_act_since`` + ``turn_seconds`` in the ClocksComputed of the version
    the deadline was set at, as views show it)."""
    import datetime as dt

    late = []
    with psycopg.connect(url) as conn:
        for game in ids:
            clocks = None
            for version, type_, data, meta, recorded in conn.execute(
                    "select version, type, data, metadata, recorded_at from events where stream_id = %s"
                    " order by version", (f"game-{game}",)):
                if type_ == "ClocksComputed":
                    clocks = (version, data)
                elif type_ == "TurnTimedOut" and "timeout_step" not in meta and clocks is not None:
                    since = clocks[1]["since"].get(data["seat"])
                    if since is not None and clocks[0] <= data["deadline_version"]:
                        due = dt.datetime.fromisoformat(since) + dt.timedelta(seconds=turn_seconds)
                        late.append((recorded - due).total_seconds())
    return late


def _lateness_figures(late: list[float]) -> str:
    if not late:
        return "no deadline fired"
    late = sorted(late)
    at = lambda q: late[min(len(late) - 1, int(q * len(late)))]  # noqa: E731
    return f"late p50 {at(0.5):.2f} s, p95 {at(0.95):.2f} s, max {late[-1]:.2f} s"


# No fault: how late deadlines fire on a machine as busy as it is -------------------------


def deadlines_without_fault(games: int, turn_seconds: int, seconds: float, workers: int) -> None:
    """``games`` Cronberg games whose players never move, so that every
    deadline fires (``games / turn_seconds`` deadline jobs a second, each a
    whole turn), under ``workers`` workers, for ``seconds``. The games start
    spread over one turn, as deadlines of games started by people are."""
    from redis import Redis

    from api.service.games import GameService
    from eventstore import PostgresEventStore
    from api.service.scheduling import RQScheduler

    folder = Path(tempfile.mkdtemp(prefix="boardlog-faults-late-"))
    redis_server = PrivateRedis(folder)
    redis_server.start()
    with temporary_server(os.environ.get("DATABASE_URL")) as server, \
            temporary_database(server, "boardlog_faults") as url:
        migrate(url)
        store = PostgresEventStore.connect(url, max_size=4)
        service = GameService(store, RQScheduler(Redis.from_url(redis_server.url)))
        env = {**os.environ, "DATABASE_URL": url, "REDIS_URL": redis_server.url, "PYTHONPATH": str(ROOT)}
        logs = [open(folder / f"worker-{n}.log", "wb") for n in range(workers)]
        started = [subprocess.Popen([sys.executable, "-m", "api.processes.cli", "worker", "--no-notifier"], cwd=ROOT, env=env,
                                    stdout=log, stderr=subprocess.STDOUT) for log in logs]
        try:
            time.sleep(3)  # the workers are up
            ids = []
            for n in range(games):
                host, guest = (service.players.register(f"late-{n}-{side}")[0] for side in "ab")
                game_id = service.create(host, "cronberg", {"players": 2, "turn_seconds": turn_seconds}, None)
                service.join(game_id, guest, None)
                service.start(game_id, host)
                ids.append(game_id)
                time.sleep(turn_seconds / games)
            time.sleep(seconds)
            died = sum(1 for worker in started if worker.poll() is not None)
            fired, twice, _ = _deadline_outcomes(url, ids, grace=0)
            late = _lateness(url, ids, turn_seconds)
        finally:
            for worker in started:
                worker.terminate()
            for worker in started:
                try:
                    worker.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    worker.kill()
            for log in logs:
                log.close()
            jobs = _job_milliseconds(folder.glob("worker-*.log"))
            store.close()
            redis_server.kill()
            shutil.rmtree(folder, ignore_errors=True)
    report(f"no fault: {games} games, {turn_seconds} s turns, {workers} workers",
           f"{fired} deadlines fired in {seconds:.0f} s ({games / turn_seconds:.1f} due a second); "
           + _lateness_figures(late) + f"; a deadline job took {jobs}",
           fired_twice=twice, workers_died=died)


def _job_milliseconds(logs) -> str:
    """The deadline jobs' own times, from the workers' one line per job."""
    import re

    times = sorted(float(m.group(1)) for log in logs for m in
                   re.finditer(r"deadline game=\S+ version=\d+ fired (\d+\.\d)ms", log.read_text(errors="replace")))
    return f"{times[len(times) // 2]:.0f} ms at p50, {times[-1]:.0f} ms at most" if times else "(no job logged)"


def _scored_twice(url: str, ids) -> int:
    with psycopg.connect(url) as conn:
        return conn.execute(
            "select count(*) from (select stream_id from events where type = 'GameScored' and stream_id = any(%s)"
            " group by 1 having count(*) > 1) twice", ([f"game-{game}" for game in ids],)).fetchone()[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--racers", type=int, default=50)
    parser.add_argument("--load-seconds", type=float, default=20)
    parser.add_argument("--pg-outage", type=float, default=5)
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--redis-outage", type=float, default=30)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--sweep-every", type=int, default=5)
    parser.add_argument("--late-games", default="20,40",
                        help="games in the no-fault deadline experiments, one experiment per number")
    parser.add_argument("--late-turn", type=int, default=5, help="their turn_seconds")
    parser.add_argument("--late-seconds", type=float, default=40)
    parser.add_argument("--stream-games", type=int, default=100,
                        help="games under the stream experiments: 5 streams each (2 seats', 1 spectator's, "
                             "2 player streams) and one long-poll")
    parser.add_argument("--stream-pg-outage", type=float, default=10)
    parser.add_argument("--stream-redis-outage", type=float, default=10)
    parser.add_argument("--stream-faults", default="postgres,kill,redis",
                        help="which stream experiments to run, of postgres, kill and redis")
    parser.add_argument("--hook-down", type=float, default=120, help="seconds the webhook receiver is down")
    parser.add_argument("--hook-backoff", default="5,10,20,30,30,30,30,30,30,30",
                        help="BOARDLOG_NOTIFY_BACKOFF for the webhook experiment (seconds between attempts)")
    parser.add_argument("--bot-kills", type=int, default=5)
    parser.add_argument("--only", choices=EXPERIMENTS, action="append", help="run only these experiments (repeatable)")
    args = parser.parse_args()
    only = set(args.only or EXPERIMENTS)

    if "races" in only:
        with temporary_server(os.environ.get("DATABASE_URL")) as server, \
                temporary_database(server, "boardlog_faults") as url:
            migrate(url)
            api, base = gunicorn("api.processes.wsgi:app", {"DATABASE_URL": url, "REDIS_URL": "", "BOARDLOG_RATE_LIMIT": "0"})
            try:
                races(base, url, args.racers)
            finally:
                api.terminate()
                api.wait(timeout=30)
    if "postgres" in only:
        postgres_restart(args.load_seconds, args.pg_outage, args.writers)
    if "deadlines" in only:
        for games in (int(n) for n in args.late_games.split(",")):
            deadlines_without_fault(games, args.late_turn, args.late_seconds, workers=2)
    if "redis" in only:
        redis_outage(args.redis_outage, args.games, args.sweep_every)
    if only & {"streams", "webhook", "bot"}:
        behind_the_api(args, only)
    if print_table():
        sys.exit(1)


EXPERIMENTS = ("races", "postgres", "redis", "deadlines", "streams", "webhook", "bot")


def behind_the_api(args, only: set) -> None:
    """The experiments on a deployment of their own (bench/fault_stack.py):
    production's gunicorn and worker, a PostgreSQL and a Redis to kill."""
    from bench import fault_jobs, fault_streams
    from bench.fault_stack import Stack
    from bench.waiting_server import raise_fd_limit

    raise_fd_limit()  # 500 streams and more, on both ends
    stack = Stack(env={"BOARDLOG_WEBHOOK_ALLOW_PRIVATE": "1", "BOARDLOG_NOTIFY_BACKOFF": args.hook_backoff,
                       # Disabling is a policy about endpoints; what is measured here is each id.
                       "BOARDLOG_WEBHOOK_DISABLE_AFTER": "1000000"}).start()
    try:
        faults = set(args.stream_faults.split(","))
        if "streams" in only:
            games = args.stream_games
            if "postgres" in faults:
                report(*fault_streams.under_streams(
                    stack, f"PostgreSQL restarted under {5 * games} streams", fault_streams.postgres_restarted(
                        args.stream_pg_outage), games, before=10, after=20))
            if "kill" in faults:
                report(*fault_streams.under_streams(
                    stack, "an API process SIGKILLed holding streams", fault_streams.api_process_killed, games,
                    before=10, after=20, excuse_cuts=True))
            if "redis" in faults:
                report(*fault_streams.under_streams(
                    stack, f"Redis killed under {5 * games} streams", fault_streams.redis_killed(
                        args.stream_redis_outage), games, before=10, after=20))
        if "bot" in only:
            report(*fault_jobs.bot_job_killed(stack, args.bot_kills))
        if "webhook" in only:
            report(*fault_jobs.webhook_receiver_down(stack, args.hook_down))
    finally:
        stack.close()


if __name__ == "__main__":
    main()
