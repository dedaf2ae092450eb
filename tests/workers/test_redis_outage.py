"""A worker rides out a Redis outage, while idle and under a job: it keeps
running, reconnects with backoff, and sweeps as soon as Redis answers again,
re-creating from PostgreSQL every job the emptied Redis lost.

Each test runs its own redis-server and kills only that one; the outage here
lasts a few seconds (bench/faults.py holds one for 30 s)."""

from __future__ import annotations

import time

import pytest
from redis import Redis

from api.service.games import GameService
from tests.support.private_redis import PrivateRedis
from api.service.scheduling import RQScheduler

from .conftest import Table, WorkerProcess, game_row_held, wait_until
from tests.support.seeds import TEST_SEEDS

OUTAGE_SECONDS = 3
LONG_SWEEP = 600  # no periodic sweep within a test: only the one after reconnecting can explain a repair


@pytest.fixture
def private_redis(tmp_path):
    server = PrivateRedis(tmp_path / "redis")
    server.start()
    yield server
    server.kill()


@pytest.fixture
def outage(event_store, worker_env, private_redis, tmp_path):
    client = Redis.from_url(private_redis.url)
    table = Table(GameService(event_store, RQScheduler(client), seeds=TEST_SEEDS), event_store)
    env = {**worker_env, "REDIS_URL": private_redis.url}
    started = []

    def worker() -> WorkerProcess:
        process = WorkerProcess(env, sweep_every=LONG_SWEEP, log_path=tmp_path / f"worker-{len(started)}.log")
        started.append(process)
        wait_until(lambda: client.smembers("rq:workers") or process.process.poll() is not None, 60,
                   "the worker to register")
        return process

    yield table, worker
    client.close()
    for process in started:
        process.stop()


def test_an_idle_worker_rides_out_a_redis_outage_and_sweeps_once_redis_is_back(outage, private_redis):
    table, start_worker = outage
    worker = start_worker()
    private_redis.kill()
    game_id = table.game(turn_seconds=1)  # its deadline job cannot be scheduled: Redis is down
    time.sleep(OUTAGE_SECONDS)
    private_redis.start()  # back, and empty
    wait_until(lambda: table.timeouts(game_id) or worker.process.poll() is not None, 90,
               "the deadline made again by the sweep after reconnecting")
    assert worker.process.poll() is None, worker.log()
    assert len(table.timeouts(game_id)) >= 1, worker.log()
    versions = [version for version, _ in table.timeouts(game_id)]
    assert len(versions) == len(set(versions)), "a deadline fired twice"


def test_a_worker_whose_redis_dies_under_a_job_keeps_running_and_finishes_the_work(outage, private_redis, database_url):
    table, start_worker = outage
    game_id = table.game()
    table.play(game_id)  # to the end: the scoring job waits in Redis
    assert table.status(game_id) == "scoring"
    with game_row_held(database_url, game_id) as job_waiting:
        worker = start_worker()
        job_waiting()  # the scoring job, inside its transaction: Redis dies under it
        private_redis.kill()
    wait_until(lambda: table.status(game_id) == "finished", 60, "the job to commit its score")
    time.sleep(OUTAGE_SECONDS)
    private_redis.start()

    later = table.game(turn_seconds=1)  # work that needs the worker, and its scheduler, after the outage
    wait_until(lambda: table.timeouts(later) or worker.process.poll() is not None, 90, "a deadline after the outage")
    assert worker.process.poll() is None, worker.log()
    assert table.timeouts(later), worker.log()
    assert table.count(game_id, "GameScored") == 1


def test_a_worker_started_while_redis_is_down_waits_for_it_and_then_works(
    event_store, worker_env, private_redis, tmp_path
):
    private_redis.kill()  # down before the worker boots (a host restarting both, a worker restarted meanwhile)
    worker = WorkerProcess({**worker_env, "REDIS_URL": private_redis.url}, sweep_every=1,
                           log_path=tmp_path / "worker.log")
    try:
        # Booted: RQ's worker asks Redis for its name first thing; it either gave up or says it waits.
        wait_until(lambda: worker.process.poll() is not None or "Redis unreachable" in worker.log(), 90,
                   "the worker to boot and find Redis away")
        assert worker.process.poll() is None, worker.log()
        private_redis.start()
        client = Redis.from_url(private_redis.url)
        table = Table(GameService(event_store, RQScheduler(client)), event_store)
        game_id = table.game(turn_seconds=1)
        wait_until(lambda: table.timeouts(game_id) or worker.process.poll() is not None, 90,
                   "the deadline fired by the worker once Redis answered")
        assert worker.process.poll() is None, worker.log()
        assert table.timeouts(game_id), worker.log()
        client.close()
    finally:
        worker.stop()
