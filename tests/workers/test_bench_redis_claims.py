"""The benchmarks claim a Redis database each (bench/production.py), so
that two runs never run each other's jobs. A run killed before it exits
cannot give its database back: the next run on this machine takes it over
rather than skipping it for good."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

import pytest

from bench.production import CLAIM, _taken_over, claimed_database


def _a_pid_that_has_ended() -> int:
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True)
    return int(done.stdout)


def test_a_database_left_claimed_by_a_bench_that_died_is_emptied_and_claimed_again(redis, redis_url):
    if not redis_url.startswith("redis://"):
        pytest.skip("benches claim numbered databases of a redis:// server")
    base, _, db = redis_url.rpartition("/")
    redis.set(CLAIM, f"{socket.gethostname()}:{_a_pid_that_has_ended()}:dead")
    redis.set("rq:job:left-over", "a job of the dead run")
    assert claimed_database(base, int(db)) == redis_url
    assert redis.get("rq:job:left-over") is None
    assert redis.get(CLAIM).decode().startswith(f"{socket.gethostname()}:{os.getpid()}:")


@pytest.mark.parametrize("holder", ["a bench still running here", "a bench of another machine"])
def test_a_database_claimed_by_a_bench_that_may_still_run_is_left_to_it(redis, holder):
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        host = socket.gethostname() if holder == "a bench still running here" else "elsewhere.example"
        pid = alive.pid if holder == "a bench still running here" else _a_pid_that_has_ended()
        claim = f"{host}:{pid}:theirs"
        redis.set(CLAIM, claim)
        redis.set("rq:job:running", "a job of that run")
        assert not _taken_over(redis, "mine")
        assert redis.get("rq:job:running") is not None and redis.get(CLAIM).decode() == claim
    finally:
        alive.kill()
        alive.wait()
