"""Cold reads on a hot standby (DATABASE_REPLICA_URL): the audit, the export,
past views (``?at=V``) and ``check-history`` read the standby when it has
already replayed what they ask for, and the primary otherwise. Polls, views,
commands and LISTEN never come here: a standby cannot LISTEN, and a poll
answered from a lagging copy could say 304 for a version the primary has
passed.

What a read asks for is decided per request, on the primary or from the
request itself, never from the standby:

- ``?at=V``: version V of the stream (stored events never change, and the
  events of one move are one transaction, which a standby replays whole);
- the audit and the export: the stream's head on the primary, read by the
  request (one indexed row), so the standby must hold the whole stream as the
  primary had it when the request began.

The standby's own version of the stream is read in the same round trip as
whether it is still in recovery; a standby that has less, was promoted, is
down or cancels a query (a conflict with recovery) leaves the read to the
primary, and is left alone for ``RETRY_SECONDS`` after a failure. Which
server answered is told in the ``X-Read-From`` header (replica or primary)
of each cold read, only when a replica is configured.
"""

from __future__ import annotations

import logging
import threading
import time

import psycopg
from psycopg.conninfo import conninfo_to_dict

from .settings import SettingError

log = logging.getLogger("boardlog.replica")

READ_FROM = "X-Read-From"
POOL_TIMEOUT = 1.0  # seconds a cold read waits for a standby connection before the primary serves it
CONNECT_TIMEOUT = 3
RETRY_SECONDS = 5.0  # after a failure, the standby is not asked again for this long
_IDENTITY = ("select system_identifier, pg_is_in_recovery(), current_database(), pg_postmaster_start_time()"
             " from pg_control_system()")
_HAS = "select pg_is_in_recovery(), coalesce((select version from streams where stream_id = %s), 0)"


def _place(url: str) -> tuple:
    parts = conninfo_to_dict(url)
    return (parts.get("host") or "", str(parts.get("port") or "5432"), parts.get("dbname") or parts.get("user") or "")


def refusal(primary: tuple | None, replica: tuple) -> str | None:
    """Why ``replica`` (its identity: system identifier, in recovery, database,
    start time) cannot be the primary's hot standby, or None. ``primary`` is
    None when the primary could not be asked."""
    system, recovering, database, started = replica
    if primary is not None:
        if system != primary[0]:
            return (f"DATABASE_REPLICA_URL names a server of another cluster (system identifier {system}, the "
                    f"primary's is {primary[0]}): its games are not the primary's; name a standby made from the "
                    "primary (pg_basebackup)")
        if not recovering and started == primary[3] and database == primary[2]:
            return (f"DATABASE_REPLICA_URL names the primary's own database ({database}), not a standby: unset it, "
                    "or name a hot standby")
        if not recovering and started == primary[3]:
            return (f"DATABASE_REPLICA_URL names the primary server itself (database {database}), not a standby: "
                    "unset it, or name a hot standby")
        if database != primary[2]:
            return (f"DATABASE_REPLICA_URL names the database {database}, and DATABASE_URL {primary[2]}: "
                    "name the same database on the standby")
    if not recovering:
        return (f"DATABASE_REPLICA_URL names a server that is not in recovery (database {database}): a primary, "
                "or a promoted standby, whose games may differ from the primary's; name a hot standby")
    return None


def identity(conn) -> tuple:
    return conn.execute(_IDENTITY).fetchone()


def check_at_start(primary_url: str, replica_url: str) -> bool:
    """Refuse (SettingError: a sentence, no traceback) a replica URL that is
    the primary's own database, the primary server itself, another cluster,
    another database or a server not in recovery. One that does not answer
    now is a warning: cold reads go to the primary until it does, and each of
    its connections is checked the same way then. True when it was checked."""
    if _place(primary_url) == _place(replica_url):
        raise SettingError("DATABASE_REPLICA_URL names the primary's own database (the same host, port and "
                           "database as DATABASE_URL), not a standby: unset it, or name a hot standby")
    try:
        with psycopg.connect(primary_url, connect_timeout=CONNECT_TIMEOUT) as conn:
            primary = identity(conn)
        with psycopg.connect(replica_url, connect_timeout=CONNECT_TIMEOUT) as conn:
            replica = identity(conn)
    except psycopg.Error as error:
        log.warning("DATABASE_REPLICA_URL could not be checked at start-up (%s): cold reads go to the primary "
                    "until the replica answers and passes the checks", str(error).strip().splitlines()[0])
        return False
    why = refusal(primary, replica)
    if why:
        raise SettingError(why)
    return True


class ColdReads:
    """Chooses, per cold read, the store it reads: ``replica`` (a
    PostgresEventStore on the standby) or ``primary``. Without a replica,
    always the primary, with no query and no header."""

    def __init__(self, primary, replica=None):
        self.primary = primary
        self.replica = replica
        self._lock = threading.Lock()
        self._skip_until = 0.0
        self.primary_system = None  # learnt from the primary, for checking each standby connection

    @classmethod
    def connect(cls, primary, replica_url: str | None, pool_size: int = 4) -> "ColdReads":
        if not replica_url:
            return cls(primary)
        from eventstore import PostgresEventStore
        from eventstore.pool import CheckedPool

        reads = cls(primary)
        pool = CheckedPool(replica_url, min_size=1, max_size=pool_size, timeout=POOL_TIMEOUT, open=True,
                           kwargs={"autocommit": True, "connect_timeout": CONNECT_TIMEOUT},
                           reconnect_timeout=RETRY_SECONDS, configure=reads._check_connection, name="replica")
        reads.replica = PostgresEventStore(pool)
        reads.replica._owns_pool = True
        return reads

    def _check_connection(self, conn) -> None:
        """Every standby connection, when opened: still the primary's standby?"""
        if self.primary_system is None:
            with self.primary.pool.connection() as primary:
                self.primary_system = identity(primary)
        why = refusal(self.primary_system, identity(conn))
        if why:
            log.error("%s (cold reads go to the primary meanwhile)", why)
            raise psycopg.OperationalError(why)

    def store_for(self, stream_id: str, version: int | None = None):
        """The store that holds ``version`` of the stream (None: the primary's
        head, read now), and which it is: ("replica" | "primary")."""
        if self.replica is None:
            return self.primary, None
        if time.monotonic() < self._skip_until:
            return self.primary, "primary"
        if version is None:
            version = self.primary.stream_version(stream_id)
        try:
            with self.replica.pool.connection() as conn:
                recovering, has = conn.execute(_HAS, (stream_id,)).fetchone()
        except psycopg.Error as error:
            self.failed(error)
            return self.primary, "primary"
        if not recovering:
            self.failed(psycopg.OperationalError("the replica is no longer in recovery (promoted?)"))
            return self.primary, "primary"
        if has >= version:
            return FallingBack(self.replica, self.primary, self), "replica"
        return self.primary, "primary"

    def failed(self, error: Exception) -> None:
        with self._lock:
            if time.monotonic() >= self._skip_until:
                log.warning("the replica failed a cold read (%s); the primary serves cold reads for %.0f s",
                            str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__,
                            RETRY_SECONDS)
            self._skip_until = time.monotonic() + RETRY_SECONDS

    def close(self) -> None:
        if self.replica is not None:
            self.replica.close()


class FallingBack:
    """The standby's store for the reads a cold read makes; one that fails
    there is made again on the primary (which has at least as much)."""

    def __init__(self, replica, primary, reads: ColdReads):
        self.replica, self.primary, self.reads = replica, primary, reads
        self.fell_back = False

    def _either(self, name: str, *args, **kwargs):
        if not self.fell_back:
            try:
                return getattr(self.replica, name)(*args, **kwargs)
            except psycopg.Error as error:
                self.reads.failed(error)
                self.fell_back = True
        return getattr(self.primary, name)(*args, **kwargs)

    def read_stream(self, *args, **kwargs):
        return self._either("read_stream", *args, **kwargs)

    def verify(self, stream_id: str):
        return self._either("verify", stream_id)
