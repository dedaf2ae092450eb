"""What the benchmarks that run boardlog as production runs it share: the
servers' CPU time, a Redis for them, stopping them, and py-spy on their
workers (``--profile``)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections import Counter
from pathlib import Path

import psutil

from api.processes.supervisor import SERVE_PID


def server_cpu(process: subprocess.Popen) -> float:
    """User + system seconds of a gunicorn master and its workers."""
    parent = psutil.Process(process.pid)
    return sum(sum(proc.cpu_times()[:2]) for proc in [parent, *parent.children(recursive=True)])


CLAIM = "boardlog:bench:claimed-by"  # the key by which a bench holds a database of REDIS_URL's server


def redis_url_for_bench(folder: Path, db: int):
    """REDIS_URL's server on an empty database, ``db`` or the next one free,
    claimed for this run and emptied when it ends (or, should the run be
    killed first, by the next run on this machine); or an embedded server
    (then also returned, to stop). Two benches on one database would run
    each other's jobs: a worker scoring another run's games (which its
    database does not have) failed the bench whose games they were."""
    url = os.environ.get("REDIS_URL")
    if url and url.startswith("redis://"):
        return claimed_database(url.rsplit("/", 1)[0], db), None
    if url:
        return url, None
    from eventstore.embedded import EmbeddedRedis

    server = EmbeddedRedis(folder / "redis", folder / "run", persist=False)
    return server.start(), server


def claimed_database(server: str, first: int) -> str:
    import atexit

    import redis

    mine = f"{socket.gethostname()}:{os.getpid()}:{os.urandom(4).hex()}"
    for db in range(first, 16):  # not below: the tests' databases (REDIS_URL's own, 0, and theirs)
        client = redis.Redis.from_url(f"{server}/{db}")
        try:
            if client.dbsize() == 0 and client.set(CLAIM, mine, nx=True) or _taken_over(client, mine):
                atexit.register(_release, client, mine)
                return f"{server}/{db}"
        except redis.ResponseError:  # past the server's number of databases
            break
    raise SystemExit(f"no empty database on {server} for the bench (each of {first}-15 holds keys: another bench's, "
                     "or left over; empty one, or unset REDIS_URL for an embedded Redis)")


def _taken_over(client, mine: str) -> bool:
    """Whether this run took the database over from a bench of this machine
    that died holding it (killed before it could empty it): its claim names
    this host and a process that no longer runs. Emptied, then claimed."""
    import redis

    held = client.get(CLAIM)
    host, _, rest = (held or b"").decode(errors="replace").partition(":")
    pid = rest.partition(":")[0]
    if host != socket.gethostname() or not pid.isdigit() or psutil.pid_exists(int(pid)):
        return False
    with client.pipeline() as watched:  # another run may be taking it over at the same moment
        try:
            watched.watch(CLAIM)
            if watched.get(CLAIM) != held:
                return False
            watched.multi()
            watched.flushdb()
            watched.set(CLAIM, mine)
            watched.execute()
        except redis.WatchError:  # the other run took it
            return False
    return True


def _release(client, mine: str) -> None:
    """The database emptied for the next bench, if this run still holds it."""
    if client.get(CLAIM) == mine.encode():
        client.flushdb()


def start_worker(code: Path, env: dict, log, pythonpath: tuple[Path, ...] = ()) -> subprocess.Popen:
    """``boardlog worker`` (with its notifier) of checkout ``code``, as a
    deployment runs it beside the API: its own process group, stopped as
    serve stops it (api.processes.supervisor.stop_worker), and stopping by
    itself should this process die; ``pythonpath`` before ``code``."""
    path = os.pathsep.join(map(str, (*pythonpath, code)))
    return subprocess.Popen([sys.executable, "-m", "api.processes.cli", "worker"], cwd=code,
                            env={**os.environ, **env, "PYTHONPATH": path, SERVE_PID: str(os.getpid())},
                            stdout=log, stderr=log, stdin=subprocess.DEVNULL, process_group=0)


def stop(processes) -> None:
    for process in processes:
        if process.poll() is None:
            process.terminate()
            process.wait(timeout=20)


class Profiler:
    """py-spy (``pip install py-spy``) on every worker of a server for one round, raw folded stacks."""

    def __init__(self, folder: Path | None):
        self.folder = folder
        self.rounds = 0
        self.files: list[Path] = []

    def start(self, server: subprocess.Popen, seconds: float) -> list[subprocess.Popen]:
        if self.folder is None:
            return []
        self.folder.mkdir(parents=True, exist_ok=True)
        self.rounds += 1
        spies = []
        for n, worker in enumerate(psutil.Process(server.pid).children()):
            out = self.folder / f"round{self.rounds}-worker{n}.txt"
            self.files.append(out)
            spies.append(subprocess.Popen([str(Path(sys.executable).with_name("py-spy")), "record", "-p",
                                           str(worker.pid), "-f", "raw", "-d", str(int(seconds) + 1), "-r", "200",
                                           "-o", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        return spies

    @staticmethod
    def finish(spies: list[subprocess.Popen]) -> None:
        for spy in spies:
            spy.wait(timeout=60)

    def summary(self, top: int = 40) -> None:
        """Where the workers' busy time went: each function's share of the samples it is on the stack of."""
        if self.folder is None:
            return
        on_stack, total = Counter(), 0
        for out in (f for f in self.files if f.exists()):
            for line in out.read_text().splitlines():
                stack, _, count = line.rpartition(" ")
                total += int(count)
                for function in {_function(frame) for frame in stack.split(";")}:
                    on_stack[function] += int(count)
        if not total:
            print("no profile was taken (is py-spy installed? pip install py-spy)")
            return
        print(f"where the workers' busy time went ({total} samples; share of samples with the function on the stack):")
        for function, count in on_stack.most_common(top):
            print(f"  {100 * count / total:5.1f}%  {function}")
        print("the same samples by the code they were in (the innermost frame's package):")
        for owner, count in self._by_owner().most_common():
            print(f"  {100 * count / total:5.1f}%  {owner}")

    def _by_owner(self) -> Counter:
        """Samples by whose code ran: boardlog's, the web framework's, psycopg's,
        gevent's... A socket's send is its own row: a sample there is mostly the
        worker preempted by the client it woke (a wall-clock sample, not CPU:
        the workers' system time says how little of it is the kernel's work)."""
        owners: Counter = Counter()
        for out in (f for f in self.files if f.exists()):
            for line in out.read_text().splitlines():
                stack, _, count = line.rpartition(" ")
                owners[_owner(stack.rsplit(";", 1)[-1])] += int(count)
        return owners


def _function(frame: str) -> str:
    """``name (file)`` of a py-spy frame ``name (path/file.py:line)``."""
    name, _, where = frame.partition(" (")
    return f"{name} ({where.split(':')[0].rsplit('/', 1)[-1]})"


OWNERS = {"boardlog": ("api", "eventstore", "domain", "games"),
          "Flask, werkzeug, flask-smorest, marshmallow": ("flask", "werkzeug", "flask_smorest", "marshmallow", "webargs"),
          "psycopg": ("psycopg", "psycopg_pool"), "gevent": ("gevent",), "gunicorn": ("gunicorn",), "redis": ("redis",)}


def _owner(frame: str) -> str:
    """Whose code a py-spy frame ``name (package/file.py:line)`` is."""
    name, _, where = frame.partition(" (")
    package = where.split("/", 1)[0] if "/" in where else ""
    if package == "gevent" and name == "SocketMixin.send":
        return "a socket's send (gevent, the system call)"
    for owner, packages in OWNERS.items():
        if package in packages:
            return owner
    return "the standard library and the rest (json, logging...)"
