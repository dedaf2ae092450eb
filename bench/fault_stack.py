"""A deployment of boardlog of the fault experiments' own, as production runs
it: the API under gunicorn with api/processes/gunicorn_conf.py (gevent workers; the
master applies the migrations), ``boardlog worker`` beside it (deadlines,
bots, the notifier), a PostgreSQL and a Redis of its own that the
experiments stop, kill and start again; and the players that drive it
through the API."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

import psycopg
import requests

from bench.api import free_port
from bench.private_servers import PrivatePostgres, PrivateRedis
from domain.session import SYSTEM

ROOT = Path(__file__).resolve().parent.parent


class Stack:
    def __init__(self, web_processes: int = 2, env: dict | None = None):
        self.folder = Path(tempfile.mkdtemp(prefix="boardlog-faults-stack-"))
        self.folder.chmod(0o755)
        self.postgres = PrivatePostgres(self.folder / "pg")
        self.redis = PrivateRedis(self.folder / "redis")
        self.web_processes = web_processes
        self.extra_env = env or {}
        self.api: subprocess.Popen | None = None
        self.workers: list[subprocess.Popen] = []
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        return self.postgres.url

    def env(self) -> dict:
        return {**os.environ, "DATABASE_URL": self.url, "REDIS_URL": self.redis.url, "BOARDLOG_RATE_LIMIT": "0",
                "PYTHONPATH": str(ROOT), **self.extra_env}

    def start(self) -> "Stack":
        self.postgres.init()
        self.redis.start()
        self.api = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "python:api.processes.gunicorn_conf", "-w", str(self.web_processes),
             "-b", f"127.0.0.1:{self.port}", "--log-level", "warning", "api.processes.wsgi:app"],
            cwd=ROOT, env=self.env(), stdout=open(self.folder / "api.log", "ab"), stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 120
        while True:
            try:
                if requests.get(self.base + "/readyz", timeout=5).status_code == 200:
                    break
            except requests.RequestException:
                pass
            if time.monotonic() > deadline or self.api.poll() is not None:
                raise RuntimeError(f"the API did not start (see {self.folder / 'api.log'})")
            time.sleep(0.1)
        self.start_worker()
        return self

    def start_worker(self) -> subprocess.Popen:
        worker = subprocess.Popen([sys.executable, "-m", "api.processes.cli", "worker", "--sweep-every", "1"], cwd=ROOT,
                                  env=self.env(), stdout=open(self.folder / "worker.log", "ab"),
                                  stderr=subprocess.STDOUT, start_new_session=True)
        self.workers.append(worker)
        return worker

    def web_pids(self) -> list[int]:
        import psutil

        return [child.pid for child in psutil.Process(self.api.pid).children()]

    def connections_of(self, pid: int) -> int:
        import psutil

        return sum(1 for c in psutil.Process(pid).net_connections("tcp")
                   if c.laddr and c.laddr.port == self.port and c.status == psutil.CONN_ESTABLISHED)

    def close(self) -> None:
        import shutil

        for process in [*self.workers, self.api]:
            if process is not None and process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in [*self.workers, self.api]:
            if process is not None:
                try:
                    process.wait(timeout=40)
                except subprocess.TimeoutExpired:
                    process.kill()
        self.redis.kill()
        try:
            self.postgres.stop()
        except subprocess.CalledProcessError:
            pass
        shutil.rmtree(self.folder, ignore_errors=True)


class Player:
    def __init__(self, base: str, name: str):
        self.base = base
        self.http = requests.Session()
        answer = self.http.post(f"{base}/v1/players", json={"name": name}, timeout=30).json()
        self.id, self.token = answer["id"], answer["token"]
        self.auth = f"Bearer {self.token}"

    def call(self, method: str, path: str, **kwargs):
        return self.http.request(method, self.base + path, headers={"Authorization": self.auth,
                                                                    **kwargs.pop("headers", {})},
                                 timeout=kwargs.pop("timeout", 30), **kwargs)


def new_game(base: str, tag: str, options: dict | None = None) -> tuple[str, dict[str, Player]]:
    """A started two-seat Cronberg game; its seats' players by seat (bots' seats have none)."""
    options = {"players": 2, **(options or {})}
    host = Player(base, f"{tag}-a")
    game = host.call("POST", "/v1/games", json={"game": "cronberg", "options": options}).json()["id"]
    players = [host]
    if not options.get("bots"):
        guest = Player(base, f"{tag}-b")
        guest.call("POST", f"/v1/games/{game}/join", json={})
        players.append(guest)
    host.call("POST", f"/v1/games/{game}/start")
    seats = host.call("GET", f"/v1/games/{game}").json()["seats"]
    by_id = {player.id: player for player in players}
    return game, {seat["seat"]: by_id[seat["player"]] for seat in seats if seat.get("player") in by_id}


def new_games(base: str, tag: str, count: int, options: dict | None = None) -> list:
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(8) as pool:
        return list(pool.map(lambda n: new_game(base, f"{tag}-{n}", options), range(count)))


class Driver:
    """Plays the games through the API, one thread per share of them: each
    command with an Idempotency-Key, sent again with the same key after a
    503 or a cut connection until it is answered. ``unavailable`` counts the
    503s, ``failures`` every other refusal (a connection cut is one unless
    ``excuse_cuts``)."""

    def __init__(self, games: list, threads: int = 4, pause: float = 0.2, excuse_cuts: bool = False):
        self.games, self.pause, self.excuse_cuts = games, pause, excuse_cuts
        self.stop_flag = threading.Event()
        self.accepted: Counter = Counter()  # by game: commands answered 200 (distinct keys)
        self.attempts: dict[str, list] = {}  # by Idempotency-Key: what each attempt got (a status, or an error's name)
        self.codes: Counter = Counter()
        self.unavailable = 0
        self.cuts = 0
        self.failures: Counter = Counter()
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self._play, args=(games[n::threads],), daemon=True)
                        for n in range(threads)]

    def start(self) -> "Driver":
        for thread in self.threads:
            thread.start()
        return self

    def stop(self) -> None:
        self.stop_flag.set()
        for thread in self.threads:
            thread.join()

    def _answer(self, call, key: str | None = None):
        """The call's answer once it is not a 503 or a cut (None if stopped meanwhile)."""
        seen = self.attempts.setdefault(key, []) if key else []
        while not self.stop_flag.is_set():
            try:
                response = call()
            except requests.RequestException as error:
                seen.append(type(error).__name__)
                with self.lock:
                    self.cuts += 1
                    if not self.excuse_cuts:
                        self.failures[f"command {type(error).__name__}"] += 1
                time.sleep(0.5)
                continue
            seen.append(response.status_code)
            with self.lock:
                self.codes[response.status_code] += 1
            if response.status_code == 503:
                with self.lock:
                    self.unavailable += 1
                time.sleep(float(response.headers.get("Retry-After", "1")))
                continue
            return response
        return None

    def _play(self, games: list) -> None:
        ended: set = set()
        while not self.stop_flag.is_set() and len(ended) < len(games):
            for game, seats in games:
                if game in ended or self.stop_flag.is_set():
                    continue
                some = next(iter(seats.values()))
                summary = self._answer(lambda: some.call("GET", f"/v1/games/{game}"))
                if summary is None:
                    return
                summary = summary.json()
                if summary["status"] != "active" or not summary["to_act"] or summary["to_act"][0] not in seats:
                    ended.add(game) if summary["status"] != "active" else None
                    continue
                player = seats[summary["to_act"][0]]
                legal = self._answer(lambda: player.call("GET", f"/v1/games/{game}/legal-commands"))
                if legal is None:
                    return
                commands = legal.json().get("commands") or []
                if not commands:
                    continue
                key = str(uuid.uuid4())
                answer = self._answer(lambda: player.call(
                    "POST", f"/v1/games/{game}/commands", json=commands[0],
                    headers={"Idempotency-Key": key, "If-Match": f'"{summary["version"]}"'}), key)
                if answer is None:
                    return
                with self.lock:
                    if answer.status_code == 200:
                        self.accepted[game] += 1
                    else:
                        self.failures[f"command {answer.status_code}"] += 1
                time.sleep(self.pause)

    def unanswered_keys(self, url: str, game: str) -> list[str]:
        """The game's commands PostgreSQL holds an answer for (their key, the
        version answered, and what each of the driver's attempts got) whose
        key the driver never saw answered 200."""
        with psycopg.connect(url) as conn:
            rows = conn.execute("select key, status, response->>'version', created_at from idempotency_keys "
                                "where game_id = %s order by created_at", (game,)).fetchall()
        return [f"{key} stored {status} at version {version} ({created:%H:%M:%S.%f}), attempts {self.attempts.get(key)}"
                for key, status, version, created in rows if 200 not in self.attempts.get(key, [])]

    def stored(self, url: str, since: dict[str, int]) -> Counter:
        """Moves stored past each game's version ``since`` (one decision each):
        the players' own, not a bot's, a deadline's (nor the later steps of a
        timed-out turn) or the system's (the worker's ScoreGame, whose
        decisions once counted here as moves stored twice, one a game ended)."""
        with psycopg.connect(url) as conn:
            return Counter({game: conn.execute(
                "select count(distinct metadata->>'decided_at') from events where stream_id = %s and version > %s"
                " and metadata ? 'command' and metadata->>'bot' is null and metadata->>'timeout' is null"
                " and metadata->>'timeout_step' is null and metadata->>'actor' <> %s"
                " and metadata->>'lifecycle' is null",
                (f"game-{game}", version, SYSTEM)).fetchone()[0] for game, version in since.items()})


def versions(url: str, games) -> dict[str, int]:
    with psycopg.connect(url) as conn:
        return {game: conn.execute("select coalesce(max(version), 0) from events where stream_id = %s",
                                   (f"game-{game}",)).fetchone()[0] for game in games}
