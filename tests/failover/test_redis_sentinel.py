"""Redis with Sentinel: REDIS_URL names three Sentinels (redis+sentinel://);
the master is SIGKILLed under load and the Sentinels promote its replica.
A real ``boardlog worker`` keeps firing deadlines and moving bots, each once
(counted in PostgreSQL), and the API's rate limiter and stream leases keep
answering. Bad Sentinel settings say what is wrong in a sentence.

Every server here is the test's own (tests/support/private_sentinels.py),
from the machine's redis-server; the games are on the session's database."""

from __future__ import annotations

import collections
import datetime as dt
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from api.service.redis_connection import check_redis, sentinel_address
from api.service.settings import SettingError
from tests.support.private_redis import free_port
from tests.support.private_sentinels import PrivateSentinels, redis_server
from tests.support.waiting import wait_until
from tests.workers.conftest import WorkerProcess

ROOT = Path(__file__).resolve().parents[2]
DEADLINE_GAMES = 4
BOT_GAMES = 3
BOT_DELAY = "0.3"


@pytest.fixture
def sentinels(tmp_path):
    if redis_server() is None:
        pytest.skip("redis-server is not on PATH: these tests run a Redis master, its replica and three Sentinels")
    cluster = PrivateSentinels(tmp_path / "redis").start()
    yield cluster
    cluster.stop()


@pytest.fixture
def stack(sentinels, database_url, tmp_path, monkeypatch):
    """The game service (the API, in this process) and a worker process, both on the Sentinels' REDIS_URL."""
    from api.http.app import create_app

    monkeypatch.setenv("BOARDLOG_BOT_DELAY", BOT_DELAY)  # the service schedules bots' jobs this far ahead
    app = create_app({"DATABASE_URL": database_url, "REDIS_URL": sentinels.url(), "RATE_LIMIT_PER_MINUTE": 100000,
                      "STREAMS": {"lifetime": 0.5, "heartbeat": 0.2}})
    env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": sentinels.url(), "PYTHONPATH": str(ROOT)}
    worker = WorkerProcess(env, sweep_every=1, log_path=tmp_path / "worker.log")
    loads: list[Load] = []
    yield app, worker, lambda game_id, token: loads.append(Load(app, game_id, token)) or loads[-1]
    for load in loads:
        load.finish()  # before the store closes under its requests
    worker.stop()
    boardlog = app.extensions["boardlog"]
    boardlog.service.store.close()
    boardlog.redis.close()


class Load:
    """A player reading its game and opening (brief) streams through the API,
    in a thread: each read passes the rate limiter, each stream takes, renews
    and gives back its lease in Redis."""

    def __init__(self, app, game_id, token):
        self.client, self.path, self.auth = app.test_client(), f"/v1/games/{game_id}", {
            "Authorization": f"Bearer {token}"}
        self.codes: collections.Counter = collections.Counter()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self.stop.is_set():
            self.codes[("read", self.client.get(self.path, headers=self.auth).status_code)] += 1
            stream = self.client.get("/v1/players/me/stream", headers=self.auth)  # read to its end (0.5 s)
            self.codes[("stream", stream.status_code)] += 1
            stream.close()

    def finish(self) -> collections.Counter:
        self.stop.set()
        self.thread.join(60)
        return self.codes


def deadline_game(service, host, guest):
    """Two players who never move: a deadline every second, for ever (nobody is abandoned)."""
    game_id = service.create(host, "cronberg", {"players": 2, "turn_seconds": 1, "deadline_per_seat": False,
                                                "abandon_after": 0}, None)
    service.join(game_id, guest, None)
    service.start(game_id, host)
    return game_id


def bot_game(service, host):
    """Three bots playing to the end: the host leaves a game of two bots."""
    game_id = service.create(host, "cronberg", {"players": 3, "bots": {"p2": "random", "p3": "random"}}, None)
    service.start(game_id, host)
    service.seat_life.resign(game_id, host)
    return game_id


def deadlines_fired(store, game_id) -> list[int]:
    """The version each deadline was set at, once per deadline that fired (a missed turn's first step)."""
    return [r.data["deadline_version"] for r in store.read_stream(f"game-{game_id}")
            if r.type == "TurnTimedOut" and r.metadata.get("timeout_step", 1) == 1]


def bot_decisions(store, game_id) -> list[tuple[int, int, str]]:
    """(first version, version decided at, seat) of each bot decision, from the events it appended."""
    decisions, last = [], None
    for record in store.read_stream(f"game-{game_id}"):
        meta = record.metadata
        key = (meta.get("decided_at"), meta.get("seat"))
        if meta.get("bot") and key != last:
            decisions.append((record.version, *key))
        last = key if meta.get("bot") else None
    return decisions


def overdue(service, games, slack: float) -> list:
    """Active games whose deadline passed more than ``slack`` seconds ago (not fired)."""
    late = dt.datetime.now(dt.timezone.utc) - dt.timedelta(seconds=slack)
    with service.pool.connection() as conn:
        return conn.execute("select id from games where id = any(%s) and status = 'active' and deadline < %s",
                            (list(games), late)).fetchall()


def test_deadlines_fire_once_and_bots_move_once_when_the_redis_master_dies_and_the_api_keeps_answering(
        stack, sentinels):
    app, worker, start_load = stack
    service, store = app.extensions["boardlog"].service, app.extensions["boardlog"].service.store
    (host, host_token), (guest, _) = (service.players.register(f"sentinel-{n}-{time.time_ns()}") for n in (1, 2))
    waiting = [deadline_game(service, host, guest) for _ in range(DEADLINE_GAMES)]
    bots = [bot_game(service, guest) for _ in range(BOT_GAMES)]
    load = [start_load(waiting[n], host_token) for n in range(2)]

    wait_until(lambda: all(deadlines_fired(store, game) for game in waiting) and all(
        bot_decisions(store, game) for game in bots) or worker.process.poll() is not None, 90,
        "the worker to fire a deadline in every game and move a bot in every bot game")
    assert worker.process.poll() is None, worker.log()
    before = {game: len(deadlines_fired(store, game)) for game in waiting}
    moved = {game: len(bot_decisions(store, game)) for game in bots}

    old = sentinels.kill_master()
    sentinels.wait_for_new_master(old)

    # Still firing and moving, on the new master; a bot game may have ended meanwhile.
    def ended(game) -> bool:
        return service.load(game)[1].status != "active"

    wait_until(lambda: all(len(deadlines_fired(store, game)) >= before[game] + 2 or ended(game) for game in waiting)
               and all(len(bot_decisions(store, game)) > moved[game] or ended(game) for game in bots)
               or worker.process.poll() is not None, 90, "deadlines and bot moves after the failover")
    assert worker.process.poll() is None, worker.log()
    assert not overdue(service, waiting, slack=5), "a deadline that passed never fired"
    codes = collections.Counter()
    for each in load:
        codes.update(each.finish())

    for game in waiting:
        fired = deadlines_fired(store, game)
        assert len(fired) == len(set(fired)), f"a deadline fired twice: {fired}"
    for game in bots:
        decisions = bot_decisions(store, game)
        assert all(first == decided_at + 1 for first, decided_at, _ in decisions), (
            f"a bot moved on a version it had not decided at (a job run twice): {decisions}")
    assert {status for (_, status) in codes} == {200}, codes
    assert {kind for (kind, _) in codes} == {"read", "stream"}, codes


def test_a_sentinel_url_is_read_and_a_plain_url_is_left_to_redis_py():
    address = sentinel_address("redis+sentinel://:secret@10.0.0.1:26380,10.0.0.2/mymaster/3")
    assert address.sentinels == (("10.0.0.1", 26380), ("10.0.0.2", 26379))
    assert (address.master_name, address.db, address.password) == ("mymaster", 3, "secret")
    assert sentinel_address("redis://127.0.0.1:6379/0") is None
    assert check_redis("redis://127.0.0.1:1/0") is None  # a plain Redis that is down: an outage, not a setting


@pytest.mark.parametrize("url, why", [
    ("redis+sentinel://127.0.0.1:26379", "names no master"),
    ("redis+sentinel://127.0.0.1:port/mymaster", "is not host:port"),
    ("redis+sentinel://127.0.0.1/mymaster/zero", "at most the database number"),
    ("redis+sentinel://:hunter2@127.0.0.1/mymaster?ssl=1", "unknown parameter 'ssl'"),
    ("rediss+sentinel://127.0.0.1/mymaster", "rediss+sentinel:// is not supported"),
])
def test_a_sentinel_url_that_cannot_be_read_stops_the_api_with_a_sentence_that_shows_no_password(url, why):
    from api.http.app import create_app

    with pytest.raises(SettingError, match="REDIS_URL must be") as refused:
        create_app({"DATABASE_URL": "postgresql://127.0.0.1:1/none", "REDIS_URL": url})
    assert why in str(refused.value) and "hunter2" not in str(refused.value)


def test_sentinels_that_watch_no_master_of_that_name_stop_the_worker_and_the_api_with_a_sentence(
        sentinels, database_url):
    from api.http.app import create_app

    wrong = sentinels.url(master_name="mymaster")
    done = subprocess.run([sys.executable, "-m", "api.processes.cli", "worker"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT),
                                            "DATABASE_URL": database_url, "REDIS_URL": wrong})
    assert done.returncode != 0
    assert "names the master 'mymaster', which the Sentinels at" in done.stderr, done.stderr
    assert "they monitor: boardlog" in done.stderr and "Traceback" not in done.stderr, done.stderr
    with pytest.raises(SettingError, match="do not monitor"):
        create_app({"DATABASE_URL": database_url, "REDIS_URL": wrong})


def test_a_worker_whose_sentinels_are_all_unreachable_says_so_in_a_sentence_and_waits(database_url, tmp_path):
    nowhere = f"redis+sentinel://127.0.0.1:{free_port()},127.0.0.1:{free_port()}/boardlog/0"  # nothing listens
    log_path = tmp_path / "worker.log"
    with open(log_path, "wb") as output:  # without the notifier: only the worker's own lines
        worker = subprocess.Popen([sys.executable, "-m", "api.processes.cli", "worker", "--no-notifier"], cwd=ROOT,
                                  stdout=output, stderr=subprocess.STDOUT,
                                  env={**os.environ, "PYTHONPATH": str(ROOT), "DATABASE_URL": database_url,
                                       "REDIS_URL": nowhere})
    try:
        def log() -> str:
            return log_path.read_text(errors="replace")

        wait_until(lambda: "no Sentinel of REDIS_URL answers" in log() or worker.poll() is not None, 90,
                   "the worker's sentence")
        wait_until(lambda: "Redis unreachable" in log() or worker.poll() is not None, 90,
                   "the worker to wait for Redis")
        assert worker.poll() is None, log()
        assert "Traceback" not in log() and "<redis.client" not in log(), log()
    finally:
        worker.terminate()
        worker.wait(60)


def test_a_job_a_worker_took_whose_start_was_lost_with_the_master_is_made_again_by_the_sweep(redis):
    """The master dies between a worker's pop of a job and its mark that the
    job started; the promoted replica had the pop: queued, in no queue."""
    import uuid

    from api.service.scheduling import KEPT, OVERDUE_GRACE_SECONDS, REPLACED, RQScheduler, scoring_job_id, utcnow

    scheduler = RQScheduler(redis)
    taken, waiting = uuid.uuid4(), uuid.uuid4()
    scheduler.ensure_scoring(taken)
    scheduler.ensure_scoring(waiting)
    assert redis.lpop(scheduler.queue.key).decode() == scoring_job_id(taken)  # the worker's pop; no mark follows
    later = utcnow() + dt.timedelta(seconds=OVERDUE_GRACE_SECONDS + 1)
    assert scheduler.ensure_scoring(taken, later) == REPLACED
    assert scheduler.ensure_scoring(waiting, later) == KEPT  # still in the queue, however long it waited
    assert set(scheduler.queue.get_job_ids()) == {scoring_job_id(taken), scoring_job_id(waiting)}
