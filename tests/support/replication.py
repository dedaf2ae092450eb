"""A PostgreSQL primary and its streaming standbys, of a test's (or a
benchmark's) own: initdb, pg_basebackup -R and pg_ctl from the machine's
/usr/lib/postgresql/*/bin, as the postgres user when run as root, each on a
free TCP port of 127.0.0.1. Never the machine's shared PostgreSQL.

    with replicated_postgres() as pair:        # a primary, started
        standby = pair.add_standby()           # streaming; synchronous unless told not to
        pair.url                               # every host, target_session_attrs=read-write
        pair.pause_replay(standby); pair.resume_replay(standby)
        pair.primary.stop("immediate")         # the primary's machine dies
        pair.promote(standby)                  # it is the primary now

``missing_binaries()`` names what a machine lacks, for a test's skip.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import psycopg

NEEDED = ("initdb", "pg_ctl", "pg_basebackup")
READY_SECONDS = 60.0


def binaries() -> Path | None:
    """The newest /usr/lib/postgresql/*/bin holding every program needed, or None."""
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda f: int(f.split("/")[-2]), reverse=True):
        if all((Path(folder) / name).exists() for name in NEEDED):
            return Path(folder)
    return None


def missing_binaries() -> str | None:
    """Why the pair cannot run here (a sentence), or None."""
    if binaries() is None:
        return f"no /usr/lib/postgresql/*/bin with {', '.join(NEEDED)} (apt-get install postgresql)"
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """One cluster of the pair: its folder, port and pg_ctl."""

    def __init__(self, name: str, folder: Path, bin_folder: Path):
        self.name = name
        self.folder = folder
        self.data = folder / "pgdata"
        self.bin = bin_folder
        self.port = _free_port()
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        self.folder.mkdir(parents=True)
        if self.as_user:
            shutil.chown(self.folder, "postgres", "postgres")

    @property
    def host(self) -> str:
        return f"127.0.0.1:{self.port}"

    def url(self, database: str = "postgres") -> str:
        """This server alone, whatever it is now (a standby included)."""
        return f"postgresql://postgres@{self.host}/{database}"

    def run(self, program: str, *args: str) -> None:
        result = subprocess.run([*self.as_user, str(self.bin / program), *args], stdin=subprocess.DEVNULL,
                                capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(f"{program} {' '.join(args)} failed for the {self.name}:\n{result.stdout}{result.stderr}")

    def start(self) -> None:
        # fsync off: the tests kill processes, not machines, and the OS keeps
        # what was written. synchronous_commit stays on: it is what waits for
        # a synchronous standby.
        self.run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "log"), "-w", "-t", str(int(READY_SECONDS)),
                 "start", "-o", f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off")

    def stop(self, mode: str = "fast") -> None:
        """``immediate``: every process of the server quits at once, nothing
        flushed or said to the standbys, as when its machine dies."""
        self.run("pg_ctl", "-D", str(self.data), "-w", "-m", mode, "stop")

    def running(self) -> bool:
        return (self.data / "postmaster.pid").exists()

    def in_recovery(self) -> bool:
        with psycopg.connect(self.url(), autocommit=True, connect_timeout=5) as conn:
            return conn.execute("select pg_is_in_recovery()").fetchone()[0]

    def execute(self, query: str, *params):
        with psycopg.connect(self.url(), autocommit=True, connect_timeout=5) as conn:
            cursor = conn.execute(query, params or None)
            return cursor.fetchall() if cursor.description else []


class ReplicatedPostgres:
    def __init__(self, folder: Path):
        bin_folder = binaries()
        if bin_folder is None:
            raise RuntimeError(missing_binaries())
        self.folder = folder
        self.bin = bin_folder
        self.primary = Server("primary", folder / "primary", bin_folder)
        self.standbys: list[Server] = []

    @property
    def servers(self) -> list[Server]:
        return [self.primary, *self.standbys]

    @property
    def url(self) -> str:
        """Every server, the primary first, as an application's DATABASE_URL names them."""
        return self.url_of("postgres")

    def url_of(self, database: str) -> str:
        hosts = ",".join(server.host for server in self.servers)
        return f"postgresql://postgres@{hosts}/{database}?target_session_attrs=read-write"

    def start_primary(self) -> Server:
        self.primary.run("initdb", "-D", str(self.primary.data), "-A", "trust", "-U", "postgres", "--no-sync",
                         "--no-instructions")
        self.primary.start()
        return self.primary

    def add_standby(self, synchronous: bool = True) -> Server:
        """A streaming standby of the current primary (pg_basebackup -R).
        ``synchronous``: the primary's commits then wait for its flush
        (synchronous_standby_names, set on the primary only, so that the
        standby once promoted does not wait for a standby it does not have)."""
        standby = Server(f"standby{len(self.standbys) + 1}", self.folder / f"standby{len(self.standbys) + 1}", self.bin)
        self.primary.run("pg_basebackup", "-D", str(standby.data), "-R", "-X", "stream", "--no-sync",
                         "-d", f"host=127.0.0.1 port={self.primary.port} user=postgres application_name={standby.name}")
        standby.start()
        self.standbys.append(standby)
        self._wait(lambda: self._streaming(standby), f"the {standby.name} to stream from the primary")
        if synchronous:
            names = ",".join(s.name for s in self.standbys)
            self.primary.execute(f"alter system set synchronous_standby_names = 'FIRST 1 ({names})'")
            self.primary.execute("select pg_reload_conf()")
            self._wait(lambda: self.primary.execute(
                "select count(*) from pg_stat_replication where sync_state = 'sync'")[0][0] == 1,
                "a synchronous standby")
        return standby

    def _streaming(self, standby: Server) -> bool:
        return bool(self.primary.execute(
            "select 1 from pg_stat_replication where application_name = %s and state = 'streaming'", standby.name))

    def wait_replayed(self, standby: Server, timeout: float = READY_SECONDS) -> None:
        target = self.primary.execute("select pg_current_wal_lsn()::text")[0][0]
        self._wait(lambda: standby.execute("select pg_last_wal_replay_lsn() >= %s::pg_lsn", target)[0][0],
                   f"the {standby.name} to replay up to {target}", timeout)

    def pause_replay(self, standby: Server) -> None:
        """The standby goes on receiving WAL but applies none of it (a lagging replica)."""
        standby.execute("select pg_wal_replay_pause()")

    def resume_replay(self, standby: Server) -> None:
        standby.execute("select pg_wal_replay_resume()")

    def promote(self, standby: Server) -> None:
        """pg_ctl promote, waited for: the standby takes writes; it becomes ``primary``."""
        standby.run("pg_ctl", "-D", str(standby.data), "-w", "promote")
        self._wait(lambda: not standby.in_recovery(), f"the {standby.name} to leave recovery")
        self.standbys.remove(standby)
        self.standbys.insert(0, self.primary)  # the old primary stays in the URL, where clients still try it
        self.primary = standby

    def _wait(self, condition, what: str, timeout: float = READY_SECONDS) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                if condition():
                    return
            except psycopg.OperationalError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"waited {timeout:.0f} s for {what}")
            time.sleep(0.05)

    def close(self) -> None:
        for server in self.servers:
            if server.running():
                try:
                    server.stop("immediate")
                except RuntimeError:
                    pass


@contextmanager
def replicated_postgres() -> Iterator[ReplicatedPostgres]:
    """A started primary (no standby yet); every server stopped and deleted afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="boardlog-replication-"))
    folder.chmod(0o755)  # as root, PostgreSQL runs as a user of its own, which must reach it
    pair = ReplicatedPostgres(folder)
    try:
        pair.start_primary()
        yield pair
    finally:
        try:
            pair.close()
        finally:
            shutil.rmtree(folder, ignore_errors=True)
