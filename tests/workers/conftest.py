"""Workers on a real PostgreSQL and a real Redis: games made through the
service, jobs run by RQ workers in this process (burst) or in subprocesses."""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import os
import random
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import psycopg
import pytest

from api.service.games import GameService
from domain import games as registry
from domain import playout
from domain.engine import rng_for
from domain.games.cronberg import RULES as CRONBERG
from workers import jobs
from workers.runner import make_worker
from api.service.scheduling import RQScheduler
from tests.support.waiting import wait_until  # noqa: F401 (tests import it from here)
from tests.support.seeds import TEST_SEEDS

ROOT = Path(__file__).resolve().parents[2]


# Games whose rules misbehave on purpose (in-process workers only: a
# subprocess does not see them in its registry).


def _broken_timeout(state, seat, rng):
    raise RuntimeError("brokenberg's on_timeout is broken")


def _broken_score(state):
    raise RuntimeError("failberg's score is broken")


# Cronberg that ends after its first command.
QUICK_ENDING = dataclasses.replace(CRONBERG, name="quickberg", outcome=lambda state: "over")
BROKEN_TIMEOUT = dataclasses.replace(CRONBERG, name="brokenberg", on_timeout=_broken_timeout)
BROKEN_SCORE = dataclasses.replace(QUICK_ENDING, name="failberg", score=_broken_score)


@pytest.fixture
def odd_games(monkeypatch):
    for rules in (QUICK_ENDING, BROKEN_TIMEOUT, BROKEN_SCORE):
        monkeypatch.setitem(registry.REGISTRY, rules.name, rules)


@pytest.fixture
def worker_env(monkeypatch, database_url, redis_url):
    """The job functions find the test's servers in the environment."""
    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("REDIS_URL", redis_url)
    return {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis_url}


@pytest.fixture
def scheduler(redis):
    return RQScheduler(redis)


@pytest.fixture
def service(event_store, scheduler):
    return GameService(event_store, scheduler, seeds=TEST_SEEDS)


class Table:
    """Games for tests, made and played through the service."""

    def __init__(self, service: GameService, store):
        self.service = service
        self.store = store
        self.players = [service.players.register(f"worker-test-{uuid.uuid4().hex[:6]}-{n}")[0] for n in (1, 2)]

    def game(self, game: str = "cronberg", turn_seconds: int | None = None,
             deadline_per_seat: bool = False) -> uuid.UUID:
        """A started two-seat game. Its deadline is the game's, from its last
        commit, unless ``deadline_per_seat``: these tests fire deadline jobs by
        hand, early, and a game counting each seat's own deadline (the default
        of new games) rightly times nobody out before it."""
        host, guest = self.players
        options = {"players": 2, "deadline_per_seat": deadline_per_seat}
        if turn_seconds is not None:
            options["turn_seconds"] = turn_seconds
        game_id = self.service.create(host, game, options, None)
        self.service.join(game_id, guest, None)
        self.service.start(game_id, host)
        return game_id

    def session(self, game_id):
        return self.service.load(game_id)[1]

    def play(self, game_id, moves: int | None = None, seed: int = 0) -> None:
        """Random legal commands, ``moves`` of them or to the end."""
        rng = random.Random(seed)
        done = 0
        while moves is None or done < moves:
            rules, session = self.service.load(game_id)
            to_act = sorted(rules.to_act(session.state)) if session.status == "active" else []
            if not to_act:
                return
            seat = to_act[0]
            command = playout.random_command(rules, session.state, seat, rng_for(b"test", session.version))
            self.service.act(game_id, session.players[seat], command.to_json())
            done += 1

    def events(self, game_id) -> list:
        return self.store.read_stream(f"game-{game_id}")

    def count(self, game_id, event_type: str) -> int:
        return sum(1 for record in self.events(game_id) if record.type == event_type)

    def timeouts(self, game_id) -> list[tuple[int, str]]:
        """(deadline version, seat) of every timed-out turn, in order: one per
        deadline that passed over a seat, however many steps of the seat's turn
        it played (each step has its TurnTimedOut; the later ones are marked
        ``timeout_step``)."""
        return [(r.data["deadline_version"], r.data["seat"]) for r in self.events(game_id)
                if r.type == "TurnTimedOut" and r.metadata.get("timeout_step", 1) == 1]

    def status(self, game_id) -> str:
        with self.service.pool.connection() as conn:
            return conn.execute("select status from games where id = %s", (game_id,)).fetchone()[0]

    def deadline(self, game_id) -> tuple[int, dt.datetime | None]:
        with self.service.pool.connection() as conn:
            return conn.execute("select version, deadline from games where id = %s", (game_id,)).fetchone()


@pytest.fixture
def table(service, event_store):
    return Table(service, event_store)


def run_worker(redis, database_url) -> None:
    """An in-process worker, with the scheduler and the sweeper, until the queue is empty."""
    make_worker(redis, database_url, in_process=True).work(burst=True, with_scheduler=True, logging_level="WARNING")




def wait_past(moment: dt.datetime, timeout: float = 10) -> None:
    """Until the clock has passed ``moment`` (rounded up to the second, as RQ schedules)."""
    wait_until(lambda: dt.datetime.now(dt.timezone.utc).timestamp() > int(moment.timestamp()) + 1, timeout,
               f"the clock to pass {moment}")


@contextlib.contextmanager
def game_row_held(database_url, game_id):
    """Hold the game's read-model row: a job that appends to the game waits
    inside its transaction until the block ends. Yields a function that
    waits until a job is waiting there."""
    with psycopg.connect(database_url) as blocker, psycopg.connect(database_url, autocommit=True) as watcher:
        blocker.execute("select 1 from games where id = %s for update", (game_id,))

        def job_waiting():
            wait_until(lambda: watcher.execute(
                "select 1 from pg_stat_activity where datname = current_database()"
                " and wait_event_type = 'Lock' and (query ilike 'update games%%'"
                " or query ilike '%%from boardlog_command(%%')").fetchone(),  # a command's one statement
                60, "the job to wait inside its transaction")

        yield job_waiting
        blocker.rollback()


class WorkerProcess:
    """``boardlog worker`` in a subprocess of its own session (so that the
    work horse it forks can be killed with it)."""

    def __init__(self, env: dict, sweep_every: int = 1, log_path: Path | None = None):
        self.log_path = log_path
        self.output = open(log_path, "wb") if log_path else subprocess.DEVNULL
        self.process = subprocess.Popen(
            [sys.executable, "-m", "api.processes.cli", "worker", "--sweep-every", str(sweep_every)],
            cwd=ROOT, env=env, stdout=self.output, stderr=subprocess.STDOUT, start_new_session=True,
        )

    def kill(self) -> None:
        """SIGKILL to the worker, its work horse and its scheduler at once (the
        horse runs in a process group of its own)."""
        import psutil

        parent = psutil.Process(self.process.pid)
        family = [parent, *parent.children(recursive=True)]
        for process in family:
            process.send_signal(signal.SIGKILL)
        psutil.wait_procs(family, timeout=10)
        self.process.wait(10)

    def stop(self, timeout: float = 30) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
        if self.output is not subprocess.DEVNULL:
            self.output.close()
        return self.process.returncode

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path else ""


@pytest.fixture
def worker_processes(worker_env, tmp_path):
    started: list[WorkerProcess] = []

    def start(**kwargs) -> WorkerProcess:
        worker = WorkerProcess(worker_env, log_path=tmp_path / f"worker-{len(started) + 1}.log", **kwargs)
        started.append(worker)
        return worker

    yield start
    for worker in started:
        worker.stop()


@pytest.fixture(autouse=True)
def _fresh_job_service():
    """Each test's in-process jobs build their service for its own servers."""
    jobs.forget_services()
    yield
    jobs.forget_services()
