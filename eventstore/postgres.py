"""The PostgreSQL event store (psycopg 3, a connection pool, one round trip per append)."""

from __future__ import annotations

import contextlib
import functools
from typing import Iterator, Sequence

import psycopg
import psycopg_pool
from psycopg import sql
from psycopg.types.json import Jsonb

from eventstore.chain import verify_chain
from eventstore.listener import VersionListener, Watch
from eventstore.notifier import Notifier
from eventstore.pool import CheckedPool
from eventstore.versions import RecentVersions
from eventstore.types import (
    CommandAppended,
    CommandRows,
    EventIdConflict,
    NewEvent,
    RecordedEvent,
    Snapshot,
    Verification,
    WrongExpectedVersion,
    check_stream_id,
    prepare_append,
)

_COLUMNS = (
    "global_position, stream_id, version, event_id, type, schema_version,"
    " data, metadata, recorded_at, hash"
)
_COLUMNS_BUT_METADATA = (
    "global_position, stream_id, version, event_id, type, schema_version,"
    " data, '{}'::jsonb, recorded_at, hash"
)
# The global feed after %(after)s: its one definition (read_all, read_all_of, read_lean_feed).
_FEED = (
    " from events"
    " where (tx_id, global_position) > ("
    "   coalesce((select tx_id from events where global_position = %(after)s), '0'::xid8),"
    "   %(after)s)"
    " and tx_id < pg_snapshot_xmin(pg_current_snapshot())"
    " order by tx_id, global_position limit %(limit)s"
)
_READ_ALL = f"select {_COLUMNS}{_FEED}"

# The LISTEN connection's sweep (versions.py): where the commit-ordered feed
# ends now, and which streams moved after a point of it.
_FEED_END = (
    "select tx_id::text, global_position from events"
    " where tx_id < pg_snapshot_xmin(pg_current_snapshot())"
    " order by tx_id desc, global_position desc limit 1"
)
_MOVED_SINCE = (
    "select stream_id, version, tx_id::text, global_position from events"
    " where (tx_id, global_position) > (%s::xid8, %s)"
    " and tx_id < pg_snapshot_xmin(pg_current_snapshot())"
    " order by tx_id, global_position limit 10000"
)
_READ_ALL_OF = _READ_ALL.replace(" order by", " and stream_id = any(%(streams)s) order by")


def _moved_since(conn, cursor):
    """The streams that moved in the feed after ``cursor`` (a (tx_id, position)
    of it; None: from its end now), at their versions, and the cursor after them."""
    if cursor is None:
        return {}, conn.execute(_FEED_END).fetchone() or ("0", 0)
    moved: dict[str, int] = {}
    rows = conn.execute(_MOVED_SINCE, cursor).fetchall()
    for stream_id, version, tx_id, position in rows:
        moved[stream_id] = max(version, moved.get(stream_id, 0))
        cursor = (tx_id, position)
    return moved, cursor


@functools.lru_cache(maxsize=8)
def _lean_feed(metadata_keys: tuple[str, ...]) -> sql.Composed:
    kept = sql.SQL(", ").join(sql.SQL("{0}, metadata->{0}").format(sql.Literal(key)) for key in metadata_keys)
    return sql.SQL("select global_position, stream_id, version, event_id, type, schema_version,"
                   " case when type = any(%(data_of)s) then data end, jsonb_strip_nulls(jsonb_build_object({kept})),"
                   " recorded_at, ''::bytea" + _FEED).format(kept=kept)


def read_lean_feed(conn, after: int, limit: int, data_of: Sequence[str],
                   metadata_keys: Sequence[str]) -> list[RecordedEvent]:
    """``read_all`` on ``conn`` (in the same order, with the same guarantees),
    without what a follower of the whole feed never looks at: the data only of
    the events whose type is in ``data_of``, of the metadata only
    ``metadata_keys`` (absent when absent or null), and no hash (empty)."""
    rows = conn.cursor(binary=True).execute(
        _lean_feed(tuple(metadata_keys)), {"after": after, "limit": limit, "data_of": list(data_of)}).fetchall()
    return [_record(row) for row in rows]


def subscription_lag(conn, name: str) -> dict:
    """How far a catch-up subscription's checkpoint (the ``subscriptions``
    table) is behind the head of the feed (events counted up to 100,000, so
    that a health probe stays cheap)."""
    row = conn.execute(
        "with cp as (select coalesce((select position from subscriptions where name = %(name)s), 0) as position),"
        " start as (select cp.position, coalesce((select tx_id from events where global_position = cp.position),"
        "   '0'::xid8) as tx_id from cp),"
        " behind as (select e.recorded_at from events e, start"
        "   where (e.tx_id, e.global_position) > (start.tx_id, start.position) limit 100000)"
        " select (select position from cp), (select count(*) from behind),"
        " extract(epoch from now() - (select min(recorded_at) from behind)),"
        " extract(epoch from now() - (select updated_at from subscriptions where name = %(name)s))",
        {"name": name}).fetchone()
    # updated_at: the checkpoint's last move, or the notifier's last heartbeat
    # on a quiet feed (workers/notify/subscription.py): its last sign of life.
    return {"checkpoint": row[0], "lag_events": row[1], "lag_seconds": round(float(row[2] or 0), 3),
            "heartbeat_seconds": None if row[3] is None else round(float(row[3]), 3)}


def _record(row) -> RecordedEvent:
    position, stream_id, version, event_id, type_, schema, data, metadata, at, hash_ = row
    return RecordedEvent(position, stream_id, version, event_id, type_, schema, data,
                         metadata, at, hash_.hex())


def _unique_violation_message(stream_id: str, error: psycopg.errors.UniqueViolation) -> str:
    if error.diag.constraint_name == "events_event_id_key":
        return (f"stream {stream_id!r}: an event of this append is already stored in another"
                f" stream ({error.diag.message_detail})")
    return f"stream {stream_id!r}: {error.diag.message_primary}"


DEFAULT_POOL_TIMEOUT = 3.0
CONNECT_TIMEOUT = 5  # seconds; a host that drops packets would otherwise hold a connect for minutes


class PostgresEventStore:
    """Events in PostgreSQL. ``append`` is a single statement calling ``eventstore_append``.

    ``append``, ``save_snapshot``, ``stream_version`` and ``read_stream`` take an
    optional ``conn``: an open connection inside the caller's transaction, which
    the store then uses without committing, so read models can be written
    atomically with the events. Without it they borrow a pooled connection.
    """

    # append_command on its own: the statement sends its NOTIFY as it commits
    # (True), or the notifier sends it after, batched with others (False).
    notify_in_statement = False

    def __init__(self, pool: psycopg_pool.ConnectionPool):
        self.pool = pool
        self._owns_pool = False
        self.recent = RecentVersions()
        self._listener = VersionListener(self._autocommit_connect, self.recent_version, self.recent, _moved_since)
        self._notifier = Notifier(self._autocommit_connect)

    @classmethod
    def connect(cls, url: str, min_size: int = 1, max_size: int = 10,
                timeout: float = DEFAULT_POOL_TIMEOUT) -> "PostgresEventStore":
        """``timeout``: the longest a caller waits for a pooled connection
        before psycopg_pool.PoolTimeout (an OperationalError: the API's 503).
        While PostgreSQL is down no connection comes back to the pool, so this
        is how long each request hangs before it fails."""
        pool = CheckedPool(  # skips, at checkout, connections a PostgreSQL restart closed
            url, min_size=min_size, max_size=max_size, timeout=timeout,
            kwargs={"autocommit": True, "connect_timeout": CONNECT_TIMEOUT},
            open=True, name="eventstore",
        )
        store = cls(pool)
        store._owns_pool = True
        return store

    def _autocommit_connect(self) -> psycopg.Connection:
        kwargs = dict(self.pool.kwargs or {})
        kwargs["autocommit"] = True
        return psycopg.connect(self.pool.conninfo, **kwargs)

    @contextlib.contextmanager
    def _connection(self, conn) -> Iterator[psycopg.Connection]:
        if conn is not None:
            yield conn
        else:
            with self.pool.connection() as pooled:
                yield pooled

    # -- writing -----------------------------------------------------------------

    def append(self, stream_id: str, events: Sequence[NewEvent], expected_version,
               conn=None, *, announce_later: bool = False) -> int:
        """Append events; return the stream's new version.

        Outside a transaction the append commits on its own, and the notifier
        sends its NOTIFY (see eventstore/notifier.py). Inside the caller's
        transaction the NOTIFY rides along and fires when that transaction
        commits, but it also makes concurrent commits wait for each other; a
        caller that passes ``announce_later=True`` skips it and calls
        ``announce(stream_id, version)`` itself once its transaction committed.
        """
        events, expected, bodies = prepare_append(stream_id, events, expected_version)
        if not events:
            actual = self.stream_version(stream_id, conn=conn)
            if expected is not None and expected != actual:
                raise WrongExpectedVersion(stream_id, expected_version, actual)
            return actual
        with self._connection(conn) as c:
            commits_now = (c.autocommit and c.info.transaction_status
                           == psycopg.pq.TransactionStatus.IDLE)
            try:
                outcome, version, detail = c.execute(
                    "select outcome, version, detail"
                    " from eventstore_append(%s, %s, %b::text[], %s)",
                    (stream_id, expected, bodies, not (commits_now or announce_later)),
                ).fetchone()
            except psycopg.errors.UniqueViolation as error:
                raise EventIdConflict(_unique_violation_message(stream_id, error)) from None
        if outcome == "ok" and commits_now:
            self.announce(stream_id, version)
        if outcome in ("ok", "duplicate"):
            return version
        if outcome == "conflict":
            raise WrongExpectedVersion(stream_id, expected_version, version)
        raise EventIdConflict(f"stream {stream_id!r}: {detail}")

    def append_command(self, stream_id: str, events: Sequence[NewEvent], expected_version, rows: CommandRows,
                       conn=None, *, announce_later: bool = False) -> CommandAppended:
        """``append`` and the rows of a game's command (``CommandRows``) in
        one statement, ``boardlog_command`` (migration 0117): one round trip.
        Returns the stream's new version, how many absences it ended, and
        when its events were recorded (the statement's ``now()``, which is
        what their ``recorded_at`` defaults to: the caller may show them
        without reading them back).

        The rows are written only if the events are: a stale
        ``expected_version`` raises WrongExpectedVersion and writes nothing,
        an Idempotency-Key already taken raises psycopg's UniqueViolation and
        takes the events down with it. On an autocommit connection outside a
        transaction the statement commits on its own, and the NOTIFY is sent
        as ``append`` sends it: by the notifier, or, with ``notify_in_statement``,
        by the statement itself when it commits. Inside the caller's
        transaction it behaves as ``append`` does there."""
        events, expected, bodies = prepare_append(stream_id, events, expected_version)
        if not events:
            raise ValueError("a command's rows are written with its events: there are none")
        with self._connection(conn) as c:
            commits_now = (c.autocommit and c.info.transaction_status
                           == psycopg.pq.TransactionStatus.IDLE)
            by_statement = (self.notify_in_statement and commits_now) or not (commits_now or announce_later)
            try:
                outcome, version, detail, ended, recorded_at = c.execute(
                    "select outcome, version, detail, absences_ended, now() from boardlog_command("
                    "%s, %s, %b::text[], %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                    (stream_id, expected, bodies, by_statement, rows.game_id, rows.status, rows.host,
                     list(rows.to_act), rows.deadline, rows.outcome,
                     None if rows.seats is None else Jsonb(rows.seats),
                     None if rows.life is None else Jsonb(rows.life),
                     rows.back_player, rows.now, None if rows.key is None else Jsonb(rows.key)),
                    # Never prepared: psycopg prepares a statement on its fifth use in a
                    # round trip of its own, and its plan is a function call's anyway.
                    prepare=False,
                ).fetchone()
            except psycopg.errors.UniqueViolation as error:
                if error.diag.table_name != "events":
                    raise  # an Idempotency-Key already taken, a seat already held: the caller's to judge
                raise EventIdConflict(_unique_violation_message(stream_id, error)) from None
        if outcome == "ok":
            if commits_now and by_statement:
                self.recent.heard(stream_id, version)
            elif commits_now:
                self.announce(stream_id, version)
            return CommandAppended(version, ended, recorded_at)
        if outcome == "conflict":
            raise WrongExpectedVersion(stream_id, expected_version, version)
        if outcome == "duplicate":
            raise EventIdConflict(f"stream {stream_id!r}: the events of this command are stored already")
        raise EventIdConflict(f"stream {stream_id!r}: {detail}")

    def announce(self, stream_id: str, version: int) -> None:
        """NOTIFY ``stream_id:version`` soon, from the notifier's connection."""
        self.recent.heard(stream_id, version)
        self._notifier.notify(stream_id, version)

    def save_snapshot(self, stream_id: str, version: int, schema_version: int, state: bytes,
                      conn=None) -> None:
        check_stream_id(stream_id)
        with self._connection(conn) as c:
            c.execute(
                "insert into snapshots (stream_id, schema_version, version, state)"
                " values (%s, %s, %s, %s)"
                " on conflict (stream_id, schema_version) do update"
                " set version = excluded.version, state = excluded.state, created_at = now()"
                " where snapshots.version <= excluded.version",
                (stream_id, schema_version, version, bytes(state)),
            )

    # -- reading -----------------------------------------------------------------

    def stream_version(self, stream_id: str, conn=None) -> int:
        with self._connection(conn) as c:
            row = c.execute("select version from streams where stream_id = %s",
                            (stream_id,)).fetchone()
        return row[0] if row else 0

    def read_stream(self, stream_id: str, from_version: int = 1, to_version: int | None = None,
                    conn=None, *, metadata: bool = True) -> list[RecordedEvent]:
        """``metadata=False``: each event's metadata is not read (an empty
        dict in its place): what a replay needs, and a played game's
        metadata (who sat where, salts, draws) is most of its bytes."""
        columns = _COLUMNS if metadata else _COLUMNS_BUT_METADATA
        with self._connection(conn) as c:
            cursor = c.cursor(binary=True)
            rows = cursor.execute(
                f"select {columns} from events where stream_id = %s and version >= %s"
                " and (%s::bigint is null or version <= %s::bigint) order by version",
                (stream_id, max(1, from_version), to_version, to_version),
            ).fetchall()
        return [_record(row) for row in rows]

    def read_tail(self, stream_id: str, after: int, metadata: bool = False) -> list[RecordedEvent]:
        """The events after version ``after`` (which the stream has reached)
        to its end (without their metadata unless asked); the version they end at is then
        known here as a read confirms it (eventstore/versions.py), so that a
        decision taken right after on what they gave (a seat reads its view,
        then moves) needs no query of its own: its statement checks the version.
        Only in a process that listens already (a server does; a read does not
        start a LISTEN connection of its own, as in a worker or a CLI)."""
        listening = self._listener.listening
        epoch = self.recent.epoch()
        records = self.read_stream(stream_id, after + 1, metadata=metadata)
        if listening and (records or after > 0):
            self.recent.confirmed(stream_id, records[-1].version if records else after, epoch)
        return records

    def read_all(self, after: int = 0, limit: int = 1000) -> list[RecordedEvent]:
        """The global feed after a checkpoint (the global_position of the last event seen).

        Events come in (tx_id, global_position) order and only once every
        transaction that could still add an event before them has ended
        (``tx_id < pg_snapshot_xmin``), so a reader that resumes from the last
        position it saw never skips an event, even when transactions commit out
        of order. The positions are therefore not always increasing in the feed.
        """
        with self.pool.connection() as c:
            cursor = c.cursor(binary=True)
            rows = cursor.execute(_READ_ALL, {"after": after, "limit": limit}).fetchall()
        return [_record(row) for row in rows]

    def read_all_of(self, stream_ids: Sequence[str], after: int = 0, limit: int = 1000) -> list[RecordedEvent]:
        """``read_all`` restricted to some streams (a player's games), with the same order and guarantees."""
        with self.pool.connection() as c:
            cursor = c.cursor(binary=True)
            rows = cursor.execute(_READ_ALL_OF, {"after": after, "limit": limit,
                                                 "streams": list(stream_ids)}).fetchall()
        return [_record(row) for row in rows]

    def last_position(self, shown: bool = False) -> int:
        """Where the global feed ends now: ``read_all(after=last_position())``
        gives only what comes later. ``shown``: the last of the positions a
        player may be shown (not a talk message's, which are negative), a
        point to resume from that may give again the messages after it."""
        with self.pool.connection() as c:
            row = c.execute(
                "select global_position from events where tx_id < pg_snapshot_xmin(pg_current_snapshot())"
                + (" and global_position > 0" if shown else "") +
                " order by tx_id desc, global_position desc limit 1").fetchone()
        return row[0] if row else 0

    def load_snapshot(self, stream_id: str, schema_version: int) -> Snapshot | None:
        with self.pool.connection() as c:
            row = c.execute(
                "select version, schema_version, state from snapshots"
                " where stream_id = %s and schema_version = %s",
                (stream_id, schema_version),
            ).fetchone()
        return Snapshot(row[0], row[1], bytes(row[2])) if row else None

    def verify(self, stream_id: str) -> Verification:
        with self.pool.connection() as c:
            with c.transaction():
                c.execute("set transaction isolation level repeatable read")
                head = c.execute("select version, last_hash from streams where stream_id = %s",
                                 (stream_id,)).fetchone()
                events = self.read_stream(stream_id, conn=c)
        head_pair = (head[0], head[1].hex() if head[1] else None) if head else (0, None)
        return verify_chain(events, head_pair)

    # -- waiting -----------------------------------------------------------------

    def wait_for_version(self, stream_id: str, version: int, timeout: float, until=None, watching=None) -> int:
        """``until``, ``watching``: end the wait early (eventstore/listener.py, ``VersionListener.wait``)."""
        return self._listener.wait(stream_id, version, timeout, until, watching)

    def watch(self, stream_ids) -> Watch:
        """Follow streams: ``watch.wait(timeout)`` returns when one moved.
        Register first, then read the versions to compare with."""
        return self._listener.watch(stream_ids)

    def wake_waiters(self) -> None:
        """The server is shutting down: end every wait now."""
        self._listener.drain()

    def on_notice(self, channel: str, hear) -> None:
        """``hear(payload)`` for each NOTIFY on ``channel``, through the LISTEN connection."""
        self._listener.on_notice(channel, hear)

    def listening_to(self, channel: str) -> int | None:
        """An epoch while ``channel`` has been heard without a break since it began, else None."""
        return self._listener.listening_to(channel)

    def listening_since(self, channel: str) -> float | None:
        """Since when (``time.time()``) ``channel`` has been heard without a break, else None."""
        return self._listener.listening_since(channel)

    def known_version(self, stream_id: str) -> int | None:
        """The stream's version as this process knows it without a query
        (eventstore/versions.py says how stale it may be), or None."""
        return self.recent.get(stream_id)

    def swept_version(self, stream_id: str) -> int | None:
        """The stream's version as this process knows it, only while its
        LISTEN connection's sweeps of the feed keep coming (which this starts
        if need be), or None: for a read that may be as stale as a poll;
        a process without the connection knows nothing this way."""
        if not self._listener.start():
            return None
        return self.recent.get_while_swept(stream_id)

    def recent_version(self, stream_id: str, max_age: float | None = None) -> int:
        """The stream's version as this process confirmed it within the last
        ``max_age`` seconds (default ``recent.max_age``; read, appended or
        heard of), else read now. For answering polls cheaply; never for deciding."""
        known = self.recent.get(stream_id, max_age)
        if known is not None:
            return known
        listening = self._listener.start()
        epoch = self.recent.epoch()
        version = self.stream_version(stream_id)
        if listening:
            self.recent.confirmed(stream_id, version, epoch)
        return version

    def close(self) -> None:
        self._notifier.stop()
        self._listener.stop()
        if self._owns_pool:
            self.pool.close()
