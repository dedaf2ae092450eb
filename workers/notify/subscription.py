"""The notifications subscription: follows the store's global feed from a
checkpoint kept in PostgreSQL, at least once.

One batch is: read events after the checkpoint (outside any transaction, so
that the reader holds back nobody's view of the feed), derive notifications,
then in ONE transaction insert them (stable ids), their deliveries (the
outbox), the players' activity, and move the checkpoint. A crash anywhere
before that commit leaves the checkpoint where it was and the batch is done
again; after it, everything of the batch is stored. Nothing is sent from
here: the delivery loop reads the outbox.

Several notifiers may run: the one holding the subscription's session
advisory lock (its lease, released by PostgreSQL when its connection dies)
follows the feed; the others wait for the lease and meanwhile deliver. The
checkpoint update also checks that it moves from where this batch started,
so even two holders at once (which the lock prevents) could not both commit
the same batch.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
import uuid
from concurrent.futures import Future, ThreadPoolExecutor

import psycopg

from api.service.notifications import HEARTBEAT_SECONDS, SUBSCRIPTION, WAKE_CHANNEL
from api.service.reminders import REMINDER_EVENT
from api.service.talk import mutes_of
from domain.session import ENGINE_EVENT_TYPES
from eventstore.postgres import read_lean_feed, subscription_lag

from api.service.settings import settings

from . import payloads
from .derive import derive, game_ids, proposers, readers_of_messages

log = logging.getLogger("boardlog.notify")

# What notices look at: the engine's events' data (a game event's own data is
# never read), and of the metadata not the command, only these.
# Notices read the data of the engine's events and of messages (MessageSent), and these metadata keys.
ENGINE_TYPES = [*sorted(ENGINE_EVENT_TYPES), "MessageSent", REMINDER_EVENT]
METADATA_READ = ("actor", "seated", "to_act", "turn_came", "timeout_step", "readers")
# Acts of the lobby, which do not make a player "active" in a game for the
# `idle` mail setting: one who took a seat and went away must still hear
# that his first turn came (the game may start hours after he joined).
NOT_PLAYING = frozenset({"GameCreated", "SeatTaken", "SeatLeft"})


class LeaseLost(Exception):
    """The checkpoint moved under this notifier: another one holds the subscription."""


def lock_key(name: str) -> int:
    return int.from_bytes(hashlib.sha256(f"boardlog-subscription:{name}".encode()).digest()[:8], "big", signed=True)


class Subscription:
    def __init__(self, database_url: str, name: str = SUBSCRIPTION, batch_size: int = 1000,
                 email_enabled: bool = False):
        self.database_url = database_url
        self.name = name
        self.batch_size = batch_size
        self.email_enabled = email_enabled
        self.conn: psycopg.Connection | None = None
        self.leased = False
        self._names: dict[str, str] = {}
        self._actors: dict[object, bool] = {}
        self._staging = False
        self._position = None
        self._last_beat = float("-inf")
        # While one batch is written, the next is read on a second connection.
        self._reader: psycopg.Connection | None = None
        self._prefetch: tuple[int, Future] | None = None
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="notify-read")

    # The lease

    def acquire(self) -> bool:
        """Hold the subscription's lease (a session advisory lock), or not yet."""
        if self.conn is None or self.conn.closed or self.conn.broken:
            self.close()
            self.conn = psycopg.connect(self.database_url, autocommit=True, connect_timeout=10)
            self.leased = False
        if not self.leased:
            self.leased = self.conn.execute("select pg_try_advisory_lock(%s)", (lock_key(self.name),)).fetchone()[0]
            if self.leased:
                self.conn.execute("insert into subscriptions (name) values (%s) on conflict do nothing", (self.name,))
                log.info("notifier holds the %r subscription from position %s", self.name, self.checkpoint())
        return self.leased

    def close(self) -> None:
        self._drop_prefetch()
        if self.leased and self.conn is not None and not self.conn.closed and not self.conn.broken:
            try:  # let the lease go now: a closed connection's backend frees its locks only once it has ended
                self.conn.execute("select pg_advisory_unlock(%s)", (lock_key(self.name),))
            except Exception:
                pass
        for conn in (self.conn, self._reader):
            if conn is not None:
                try:
                    conn.close()
                except Exception:
                    pass
        self.conn = self._reader = None
        self.leased = False
        self._staging = False
        self._position = None

    def checkpoint(self) -> int:
        row = self.conn.execute("select position from subscriptions where name = %s", (self.name,)).fetchone()
        return row[0] if row else 0

    # One batch

    def _is_player(self, actor) -> bool:
        known = self._actors.get(actor)
        if known is None:
            if len(self._actors) > 100_000:
                self._actors.clear()
            known = self._actors[actor] = _is_uuid(actor)
        return known

    def _game_names(self, records) -> dict[str, str]:
        """Which game each game id plays (it never changes), kept in memory, bounded."""
        missing = [g for g in game_ids(records) if g not in self._names and _is_uuid(g)]
        if missing:
            if len(self._names) > 100_000:
                self._names.clear()
            self._names.update(self.conn.execute(
                "select id::text, game from games where id = any(%s::uuid[])", (missing,)).fetchall())
        return self._names

    def _player_names(self, players: set[str]) -> dict[str, str]:
        """The names of ``players`` (proposers are few: read each time, never kept)."""
        wanted = [p for p in players if _is_uuid(p)]
        if not wanted:
            return {}
        return dict(self.conn.execute("select id::text, name from players where id = any(%s::uuid[])",
                                      (wanted,)).fetchall())

    def _read(self, after: int) -> list:
        if self._reader is None or self._reader.closed or self._reader.broken:
            self._reader = psycopg.connect(self.database_url, autocommit=True, connect_timeout=10)
        return read_lean_feed(self._reader, after, self.batch_size, ENGINE_TYPES, METADATA_READ)

    def _drop_prefetch(self) -> None:
        if self._prefetch is not None:
            try:
                self._prefetch[1].result()
            except Exception:
                pass
            self._prefetch = None

    def _records_after(self, start: int) -> list:
        """The batch after ``start``: read ahead during the last write when it was a full batch."""
        if self._prefetch is not None and self._prefetch[0] == start:
            future, self._prefetch = self._prefetch[1], None
            return future.result()
        self._drop_prefetch()
        return self._read(start)

    def step(self) -> int:
        """Process one batch; the number of events it consumed (0: caught up)."""
        if self._position is None:
            self._position = self.checkpoint()
        start = self._position
        records = self._records_after(start)
        if not records:
            self._beat(start)
            return 0
        if len(records) == self.batch_size:  # more is waiting: read it while this batch is written
            after = records[-1].global_position
            self._prefetch = (after, self._pool.submit(self._read, after))
        readers = readers_of_messages(records)
        notifications = derive(records, self._game_names(records), mutes_of(self.conn, readers) if readers else None,
                               self._player_names(proposers(records)), settings().public_url)
        activity: dict[tuple[str, str], object] = {}
        for record in records:
            actor = record.metadata.get("actor")
            if record.stream_id.startswith("game-") and record.type not in NOT_PLAYING and self._is_player(actor):
                key = (actor, record.stream_id[5:])
                if key not in activity or activity[key] < record.recorded_at:
                    activity[key] = record.recorded_at
        with self.conn.transaction():
            self._store(notifications, activity)
            moved = self.conn.execute(
                "update subscriptions set position = %s, updated_at = now() where name = %s and position = %s",
                (records[-1].global_position, self.name, start)).rowcount
            if moved != 1:
                raise LeaseLost(f"the {self.name!r} checkpoint moved from {start} under this notifier")
        self._position = records[-1].global_position
        return len(records)

    def _beat(self, position: int) -> None:
        """The notifier's sign of life on a quiet feed: ``updated_at`` moves
        at least every HEARTBEAT_SECONDS while it holds the lease and finds
        nothing to do, so /readyz tells a dead notifier from an idle one
        before any event arrives (a batch moves it too)."""
        now = time.monotonic()
        if now - self._last_beat < HEARTBEAT_SECONDS:
            return
        self.conn.execute("update subscriptions set updated_at = now() where name = %s and position = %s",
                          (self.name, position))
        self._last_beat = now

    def _store(self, notifications, activity) -> None:
        """COPY the batch into a staging table, then move it with one
        statement per table (a re-run finds the ids there and adds nothing)."""
        conn = self.conn
        if notifications:
            if not self._staging:
                conn.execute("create temp table if not exists notification_batch"
                             " (like notifications including defaults) on commit delete rows")
                self._staging = True
            with conn.cursor().copy("copy notification_batch (id, position, player_id, game_id, kind, version,"
                                    " payload, event_at) from stdin") as copy:
                copy.set_types(["text", "int8", "text", "text", "text", "int4", "text", "timestamptz"])
                for n in notifications:
                    stored = payloads.stored(n.payload, n.id, n.kind, n.game_id, n.version, n.event_at)
                    copy.write_row((n.id, n.position, n.player_id, n.game_id, n.kind, n.version,
                                    json.dumps(stored, separators=(",", ":")), n.event_at))
            conn.execute("insert into notifications (id, position, player_id, game_id, kind, version, payload,"
                         " event_at) select id, position, player_id, game_id, kind, version, payload, event_at"
                         " from notification_batch on conflict (id) do nothing")
            made = conn.execute(
                "insert into deliveries (notification_id, target, webhook_id, player_id)"
                " select n.id, 'webhook:' || w.id, w.id, n.player_id from notification_batch n"
                " join webhooks w on w.player_id = n.player_id"
                " where w.deleted_at is null and w.disabled_at is null and n.kind = any(w.kinds)"
                # a reminder only where its player chose webhooks for it (domain.notices.Notice.reaches)
                " and (n.kind <> 'reminder' or n.payload -> 'data' -> 'channels' ? 'webhook')"
                " on conflict do nothing").rowcount
            made += conn.execute(
                "insert into deliveries (notification_id, target, player_id)"
                " select n.id, 'push:' || s.id, n.player_id from notification_batch n"
                " join push_subscriptions s on s.player_id = n.player_id"
                " where n.kind in ('turn', 'ended', 'end-proposed') or n.kind = 'message' and s.messages"
                # a game cancelled by its players' agreement is a game over (domain.notices: ``ending``)
                "  or n.kind = 'cancelled' and n.payload -> 'data' ? 'ending'"
                "  or n.kind = 'reminder' and n.payload -> 'data' -> 'channels' ? 'push'"
                " on conflict do nothing").rowcount
            if self.email_enabled:
                made += conn.execute(
                    "insert into deliveries (notification_id, target, player_id)"
                    " select n.id, 'email', n.player_id from notification_batch n"
                    " join notification_preferences p on p.player_id = n.player_id"
                    " where p.email_confirmed_at is not null and p.email_turns <> 'off'"
                    " and (n.kind = 'turn' and not p.digest"
                    "  or n.kind = 'reminder' and n.payload -> 'data' -> 'channels' ? 'mail'"
                    "  or n.kind = 'end-proposed')"
                    " on conflict do nothing").rowcount
            if made:
                conn.execute("select pg_notify(%s, '')", (WAKE_CHANNEL,))
        if activity:
            keys = list(activity)
            conn.execute(
                "insert into notification_activity (player_id, game_id, last_active_at)"
                " select * from unnest(%s::uuid[], %s::uuid[], %s::timestamptz[])"
                " on conflict (player_id, game_id) do update set last_active_at ="
                " greatest(notification_activity.last_active_at, excluded.last_active_at)",
                ([p for p, _ in keys], [g for _, g in keys], [activity[k] for k in keys]))


def _is_uuid(value) -> bool:
    if not isinstance(value, str):
        return False
    try:
        uuid.UUID(value)
    except ValueError:
        return False
    return True


def lag(conn, name: str = SUBSCRIPTION) -> dict:
    """How far the subscription's checkpoint is behind the head of the feed."""
    return subscription_lag(conn, name)
