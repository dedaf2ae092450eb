"""Redis failover through Sentinel, on a deployment run as production runs it
(bench/fault_stack.py: gunicorn with api/processes/gunicorn_conf.py, ``boardlog
worker``, a PostgreSQL of its own) whose REDIS_URL names three Sentinels
watching a master and its replica (tests/support/private_sentinels.py, from
the machine's redis-server). Games with 1 s deadlines and games against a
bot are played through the API, a reader passes the rate limiter and opens
streams (each takes a lease in Redis); the master is SIGKILLed and Sentinel
promotes the replica. Prints:

- how long after the kill the Sentinels named the new master, and the first
  deadline fired and the first bot moved after that (recorded_at in
  PostgreSQL); the longest a game waited between two deadlines or two bot
  moves across the kill;
- how long ``/readyz`` answered 503 (it checks Redis);
- the jobs the sweeper re-made or moved after the kill (the worker's log);
- the API's answers from the kill until the worker recovered: 5xx, 503s,
  cut connections (goal 0), and deadlines fired twice (goal 0).

    python bench/sentinel.py [--games 6] [--bot-games 4] [--after 20] 2>/dev/null
"""

from __future__ import annotations

import argparse
import collections
import datetime as dt
import re
import sys
import threading
import time
from pathlib import Path

import psycopg
import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.fault_stack import Driver, Stack, new_games  # noqa: E402
from tests.support.private_sentinels import PrivateSentinels  # noqa: E402


class SentinelsAsRedis:
    """The stack's ``redis``: started with it, its URL the Sentinels', killed with it."""

    def __init__(self, folder: Path):
        self.cluster = PrivateSentinels(folder)

    @property
    def url(self) -> str:
        return self.cluster.url()

    def start(self) -> None:
        self.cluster.start()

    def kill(self) -> None:
        self.cluster.stop()


class Reader:
    """A player's reads (through the rate limiter) and brief streams (a lease each), counted by status."""

    def __init__(self, base: str, game: str, player):
        self.base, self.game, self.player = base, game, player
        self.codes: collections.Counter = collections.Counter()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self.stop.is_set():
            for path, stream in ((f"/v1/games/{self.game}", False), ("/v1/players/me/stream", True)):
                try:
                    with self.player.call("GET", path, stream=stream, timeout=30) as answer:
                        if stream:
                            for _ in answer.iter_lines():  # to its end: BOARDLOG_STREAM_LIFETIME
                                pass
                        self.codes[answer.status_code] += 1
                except requests.RequestException as error:
                    self.codes[type(error).__name__] += 1
            time.sleep(0.05)


class Readiness:
    """``/readyz`` every 0.1 s: how long it was not ready (503: Redis unreachable) after the kill."""

    def __init__(self, base: str):
        self.base, self.not_ready, self.stop = base, [], threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self.stop.is_set():
            try:
                if requests.get(self.base + "/readyz", timeout=10).status_code != 200:
                    self.not_ready.append(time.monotonic())
            except requests.RequestException:
                self.not_ready.append(time.monotonic())
            time.sleep(0.1)


def first_after(url: str, games, since: dt.datetime, condition: str) -> dt.datetime | None:
    with psycopg.connect(url) as conn:
        return conn.execute(f"select min(recorded_at) from events where stream_id = any(%s) and recorded_at > %s"
                            f" and {condition}", ([f"game-{g}" for g in games], since)).fetchone()[0]


def longest_wait(url: str, games, at: dt.datetime, condition: str) -> float | None:
    """Across the games, the longest time from the last such event before ``at`` to the first after it."""
    waits = []
    with psycopg.connect(url) as conn:
        for game in games:
            before, after = conn.execute(
                f"select max(recorded_at) filter (where recorded_at <= %s), min(recorded_at) filter (where"
                f" recorded_at > %s) from events where stream_id = %s and {condition}",
                (at, at, f"game-{game}")).fetchone()
            if before and after:
                waits.append((after - before).total_seconds())
    return max(waits) if waits else None


def fired_twice(url: str, games) -> int:
    with psycopg.connect(url) as conn:
        return conn.execute(
            "select count(*) from (select stream_id, data->>'deadline_version', metadata->>'seat' from events"
            " where stream_id = any(%s) and type = 'TurnTimedOut' and coalesce(metadata->>'timeout_step', '1') = '1'"
            " group by 1, 2, 3 having count(*) > 1) twice", ([f"game-{g}" for g in games],)).fetchone()[0]


def swept_after(log: Path, since: dt.datetime) -> collections.Counter:
    """What the sweeps after ``since`` did, by kind and outcome ("deadlines created": 2, ...)."""
    made: collections.Counter = collections.Counter()
    for line in log.read_text(errors="replace").splitlines():
        found = re.match(r"(\S+ \S+),\d+ INFO boardlog.workers: sweep re-created missing jobs: (.*)", line)
        if not found or dt.datetime.fromisoformat(found[1]).astimezone() < since:
            continue
        for kind, outcomes in re.findall(r"(\w+): ([^;]+)", found[2]):
            for count, outcome in re.findall(r"(\d+) (\w+)", outcomes):
                if outcome != "kept":
                    made[f"{kind} {outcome}"] += int(count)
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games of two players who never move (1 s deadlines)")
    parser.add_argument("--bot-games", type=int, default=4, help="games of a player against a bot")
    parser.add_argument("--after", type=float, default=20, help="seconds of play measured after the failover")
    args = parser.parse_args()

    stack = Stack(web_processes=2, env={"BOARDLOG_RATE_LIMIT": "100000", "BOARDLOG_BOT_DELAY": "0.3",
                                        "BOARDLOG_STREAM_LIFETIME": "1", "BOARDLOG_HEARTBEAT_SECONDS": "0.3"})
    stack.redis = SentinelsAsRedis(stack.folder / "redis")
    try:
        stack.start()
        waiting = new_games(stack.base, "deadline", args.games,
                            {"turn_seconds": 1, "deadline_per_seat": False, "abandon_after": 0})
        bots = new_games(stack.base, "bot", args.bot_games, {"bots": {"p2": "random"}})
        driver = Driver(bots, threads=2, pause=0.1, excuse_cuts=False).start()
        readers = [Reader(stack.base, game, next(iter(seats.values()))) for game, seats in waiting[:2]]
        for reader in readers:
            reader.thread.start()
        time.sleep(5)  # play before the fault
        for reader in readers:
            reader.codes.clear()
        driver.codes.clear()

        readiness = Readiness(stack.base)
        readiness.thread.start()
        killed_at = dt.datetime.now(dt.timezone.utc)
        clock = time.monotonic()
        old = stack.redis.cluster.kill_master()
        stack.redis.cluster.wait_for_new_master(old)
        promoted = time.monotonic() - clock
        time.sleep(args.after)
        driver.stop()
        readiness.stop.set()
        for reader in readers:
            reader.stop.set()
            reader.thread.join(60)

        url, deadline_games, bot_games = stack.url, [g for g, _ in waiting], [g for g, _ in bots]
        named_at = killed_at + dt.timedelta(seconds=promoted)
        deadline = first_after(url, deadline_games, named_at, "type = 'TurnTimedOut'")
        bot = first_after(url, bot_games, named_at, "metadata ? 'bot'")
        deadline_wait = longest_wait(url, deadline_games, killed_at, "type = 'TurnTimedOut'")
        bot_wait = longest_wait(url, bot_games, killed_at, "metadata ? 'bot'")
        codes = collections.Counter(driver.codes)
        for reader in readers:
            codes.update(reader.codes)

        def after(moment):
            return f"{(moment - killed_at).total_seconds():.2f} s" if moment else f"none in {args.after:.0f} s"

        print(f"master SIGKILLed; the Sentinels named the new master after {promoted:.2f} s")
        print(f"first deadline fired on the new master {after(deadline)} after the kill; first bot move {after(bot)}")
        print(f"longest a game waited across the kill: {deadline_wait or 0:.2f} s between two deadlines "
              f"(1 s apart without a fault), {bot_wait or 0:.2f} s between two bot moves")
        unready = readiness.not_ready
        print(f"/readyz answered 503 from {unready[0] - clock:.2f} s to {unready[-1] - clock:.2f} s after the kill"
              if unready else "/readyz never answered 503")
        made = swept_after(stack.folder / "worker.log", killed_at)
        print("jobs the sweeper re-made or moved after the kill: "
              + (", ".join(f"{n} {what}" for what, n in sorted(made.items())) or "none"))
        print(f"answers from the kill on ({args.after:.0f} s): " + ", ".join(
            f"{code}: {n}" for code, n in sorted(codes.items(), key=str)))
        bad = {"5xx": sum(n for code, n in codes.items() if isinstance(code, int) and code >= 500),
               "cut": sum(n for code, n in codes.items() if not isinstance(code, int)),
               "command refusals": sum(driver.failures.values()),
               "deadlines fired twice": fired_twice(url, deadline_games)}
        print("goal 0: " + ", ".join(f"{what} {n}" for what, n in bad.items()))
        sys.exit(1 if any(bad.values()) else 0)
    finally:
        stack.close()


if __name__ == "__main__":
    main()
