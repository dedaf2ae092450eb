"""``boardlog serve`` keeps its children in hand: one serve per data folder,
SIGHUP stops everything, and a serve killed outright (SIGKILL: nothing can
catch it) leaves orphans that the next serve on the folder stops before it
starts its own."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import psutil
import pytest

from eventstore.processes import alive, read_pid_file

from .conftest import ROOT
from .test_serve import Serve, call, free_port


@pytest.fixture
def data():
    # Outside pytest's private folder: PostgreSQL runs as another user when the tests run as root.
    folder = Path(tempfile.mkdtemp(prefix="boardlog-serve-"))
    folder.chmod(0o755)
    yield folder / "data"
    shutil.rmtree(folder, ignore_errors=True)


def recorded_children(data: Path) -> dict[str, int]:
    return {path.stem: read_pid_file(path).pid for path in (data / "run").glob("*.pid")}


def descendants(serve: Serve) -> list[psutil.Process]:
    return psutil.Process(serve.process.pid).children(recursive=True)


def running(processes: list[psutil.Process]) -> list[str]:
    """Those still running (not zombies), each as its pid and command."""
    found = []
    for process in processes:
        try:
            if process.is_running() and process.status() != psutil.STATUS_ZOMBIE:
                found.append(f"{process.pid} {' '.join(process.cmdline()[:4])}")
        except psutil.NoSuchProcess:
            continue
    return found


def test_a_second_serve_on_the_same_data_folder_refuses_and_names_the_first_ones_pid(tmp_path, data):
    port = free_port()
    first = Serve(data, port, tmp_path / "serve.log")
    try:
        first.wait_running()
        children = recorded_children(data)
        second = subprocess.run(
            [sys.executable, "-m", "api.processes.cli", "serve", "--data", str(data), "--port", str(free_port())],
            cwd=ROOT, capture_output=True, text=True, timeout=60,
            env={k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")})
        assert second.returncode != 0
        assert (f"another boardlog serve (pid {first.process.pid}) is already running on the data folder"
                in second.stderr), second.stderr
        assert recorded_children(data) == children, "the second serve touched none of the first one's children"
        assert all(alive(pid) for pid in children.values())
        assert call(port, "GET", "/readyz")[0] == 200
    finally:
        assert first.stop() == 0


def test_sighup_stops_serve_and_every_process_it_started(tmp_path, data):
    serve = Serve(data, free_port(), tmp_path / "serve.log")
    try:
        serve.wait_running()
        children = recorded_children(data)
        assert set(children) == {"postgres", "redis", "worker"}
        started = descendants(serve)
    finally:
        code = serve.stop(signal.SIGHUP)
    log = (tmp_path / "serve.log").read_text()
    assert code == 0, log
    assert serve.lines[-1].strip() == "boardlog stopped"
    assert running(started) == [], f"processes outlived serve:\n{log}"
    assert not list((data / "run").glob("*.pid")), "no pid file is left behind"
    assert "SIGHUP received: stopping" in log
    for name, pid in children.items():
        assert f"(pid {pid}) stopped on" in log, f"the stop of the {name} is logged"


def test_after_serve_is_killed_outright_the_next_serve_stops_its_orphans_and_keeps_the_data(tmp_path, data):
    port = free_port()
    first = Serve(data, port, tmp_path / "first.log")
    try:
        first.wait_running()
        status, player = call(port, "POST", "/v1/players", {"name": "survivor"})
        assert status == 201, player
        orphans = descendants(first)
        children = recorded_children(data)
    finally:
        first.process.kill()
        first.process.wait(30)
        first.log.close()
    assert running(orphans), "SIGKILL cannot be caught: serve's children outlive it (else this test shows nothing)"

    second = Serve(data, port, tmp_path / "second.log")
    try:
        second.wait_running()
        assert running(orphans) == [], "the new serve stopped every process the killed one left"
        status, inbox = call(port, "GET", "/v1/players/me/inbox", token=player["token"])
        assert status == 200, f"the data outlived the kill: {inbox}"
        started = descendants(second)
    finally:
        code = second.stop()
    log = (tmp_path / "second.log").read_text()
    assert code == 0, log
    for name in ("redis", "postgres"):
        assert f"the {name} (pid {children[name]}) of a boardlog serve that did not stop cleanly still runs" in log
    # The worker stops on its own when serve dies (the kernel sends it SIGTERM), or else is stopped here.
    assert (f"the worker (pid {children['worker']}) of a boardlog serve" in log
            or f"removed the stale pid file {data / 'run' / 'worker.pid'}" in log), log
    assert running(started) == [], f"processes outlived the second serve:\n{log}"
