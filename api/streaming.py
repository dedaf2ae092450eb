"""Server-Sent Events: the open streams of one process, their limits, and
the two kinds of stream (a game's, a player's).

A stream is a generator the WSGI server iterates: between messages it waits
on a ``Watch`` of the event store's one LISTEN connection, so under gevent
it holds a greenlet, a socket and a few kilobytes, never a thread or a
database connection. What it sends comes from ``SharedWork``: each event
as a viewer may see it, and each view, is computed once per (version,
viewer) for all the streams of the process.

Limits: ``per_player`` open streams for one player (429), across all the
API processes of a deployment when the app has Redis (each stream holds a
lease there, see ``stream_leases``; without Redis, or while it cannot be
reached, per process), and ``total`` waiters in all, streams and long-polls
together (503), per process on purpose: it guards this process's memory and
file descriptors, which the others do not share. Both answer with
Retry-After. Long-polls are not counted per player. A stream whose client
does not take a message within ``write_timeout`` seconds is closed (under gevent; the watchdog kills the
greenlet blocked in the write). ``drain()``, on shutdown, ends every stream
with a ``retry:`` hint so that clients reconnect, to another process.

Revocation: a stream opened with a bearer token (or with a ticket, which
names the token it was issued for) ends when that token is revoked, its last
message a ``problem`` (``token-revoked``): at once in the process that
revoked it (``tokens_revoked``), and in every other within
``revocation_check`` seconds (half the token cache time by default, so
within the bound a revoked token's requests have), by one query per process
that asks which of its open streams' tokens were revoked.

Overload: a process at its capacity refuses NEW waiters (503 server-busy,
Retry-After) while the ones it holds keep being served: at ``total``
waiters, and while its database pool is saturated (``pool_saturated``:
``saturated_waiting`` requests or more queue for a connection). A held
stream never needs the database to stay open: its heartbeat is a comment,
its quiet check of the version is skipped while the pool is saturated and
survives a failure (the LISTEN connection's sweep wakes it anyway). When a
catch-up cannot be read (the pool exhausted, PostgreSQL away) or anything
else goes wrong, the stream ends with a ``problem`` message (503
database-unavailable) after a jittered ``retry:`` hint; the client resumes
from its Last-Event-ID and loses nothing. Every ``retry:`` hint is
jittered (``retry_ms`` to twice that), so that the clients of a process
that stops do not all come back in the same instant.
"""

from __future__ import annotations

import logging
import random
import threading
import time
import uuid
from collections import Counter
from contextlib import contextmanager

from psycopg_pool import PoolTimeout

from domain import notices as notice_rules
from domain import session as sessions
from domain.lifecycle import talk as talk_rules

from .errors import problem_body
from .service.games import player_channel, stream_of
from .service.settings import env_number
from .service.shared import SharedWork, dumps
from .service.views import viewer_seat
from .stream_leases import Refused, StreamLeases

log = logging.getLogger("boardlog.streams")

ENDED = (sessions.FINISHED, sessions.CANCELLED)
TIMED_OUT_SECONDS = 5.0  # a pool whose requests timed out this recently is saturated while any queue


class StreamLimit(Exception):
    def __init__(self, status: int, detail: str, kind: str, retry_after: int):
        super().__init__(detail)
        self.status, self.detail, self.kind, self.retry_after = status, detail, kind, retry_after


def settings_from_env() -> dict:
    return {
        "per_player": env_number("BOARDLOG_STREAMS_PER_PLAYER", 8, minimum=1),
        "total": env_number("BOARDLOG_MAX_WAITERS", 12000, minimum=1),
        "heartbeat": env_number("BOARDLOG_HEARTBEAT_SECONDS", 15.0, minimum=0.01, kind=float),
        "write_timeout": env_number("BOARDLOG_STREAM_WRITE_TIMEOUT", 10.0, minimum=0.01, kind=float),
        "retry_ms": env_number("BOARDLOG_STREAM_RETRY_MS", 3000, minimum=0),
        "lifetime": env_number("BOARDLOG_STREAM_LIFETIME", 3600.0, minimum=0.01, kind=float),
        # Requests queued for a database connection at which new waiters are refused (0: the pool's size).
        "saturated_waiting": env_number("BOARDLOG_POOL_SATURATED_WAITING", 0, minimum=0),
    }


def database_error(error: BaseException) -> bool:
    """The database could not answer (the pool exhausted, PostgreSQL away): not a bug, a 503."""
    import psycopg

    return isinstance(error, psycopg.OperationalError)


class Slot:
    """One open stream or long-poll."""

    __slots__ = ("player", "token", "greenlet", "writing_since", "written_at", "registry", "lease", "watch",
                 "revoked")

    def __init__(self, registry: "Streams", player: str | None, token: str | None = None):
        self.registry = registry
        self.player = player
        self.token = token  # the id of the bearer token the stream was opened with, if any
        self.greenlet = _current_greenlet()
        self.writing_since: float | None = None
        self.written_at = time.monotonic()  # when the stream last wrote anything (a heartbeat is due 15 s on)
        self.lease = None  # the stream's lease in Redis, if any
        self.watch = None  # what the stream waits on, once it runs
        self.revoked = False  # its token was revoked: the stream ends


def _current_greenlet():
    """The greenlet serving this request when gevent patched the process, else None."""
    import sys

    monkey = sys.modules.get("gevent.monkey")
    if monkey is None or not monkey.is_module_patched("socket"):
        return None
    import gevent

    return gevent.getcurrent()


class Streams:
    def __init__(self, service, per_player: int = 8, total: int = 12000, heartbeat: float = 15.0,
                 write_timeout: float = 10.0, retry_ms: int = 3000, lifetime: float = 3600.0,
                 redis=None, clock=time.time, revocation_check: float | None = None,
                 saturated_waiting: int = 0):
        """``redis``: where the per-player cap is counted across processes (None: in this one);
        ``revocation_check``: seconds between two looks for revoked tokens (None: half the token cache time)."""
        self.service = service
        self.shared = SharedWork(service)
        self.per_player = per_player
        self.total = total
        self.heartbeat = heartbeat
        self.write_timeout = write_timeout
        self.retry_ms = retry_ms
        self.lifetime = lifetime  # then a stream closes with a retry hint: load spreads again over processes
        self.saturated_waiting = saturated_waiting
        self._pool_errors = 0  # the pool's count of requests that timed out, when last looked at
        self._timed_out_at: float | None = None  # when that count last grew
        self.draining = False
        self._lock = threading.Lock()
        self._slots: set[Slot] = set()
        self._streams_of: Counter = Counter()
        self._watchdog = None
        self.closed_slow = 0
        cache = getattr(getattr(service, "players", None), "cache_seconds", 10.0)
        self.revocation_check = cache / 2 if revocation_check is None else revocation_check
        self._sweeper = None  # the thread (greenlet under gevent) that looks for revoked tokens
        self.leases = StreamLeases(redis, per_player, heartbeat, clock) if redis is not None else None

    # -- limits --------------------------------------------------------------

    def open(self, player: str | None, stream: bool = True, token: str | None = None) -> Slot:
        """A slot for a new waiter, or StreamLimit (429 per player, 503 in all);
        ``token``: the id of the token a stream is opened with, which ends it when revoked."""
        saturated = self.pool_saturated()
        with self._lock:
            self._refuse_if_full(saturated)
            if stream and player is not None and self._streams_of[player] >= self.per_player:
                raise self._too_many()
            slot = Slot(self, player if stream else None, token if stream else None)
            self._slots.add(slot)
            if slot.player is not None:
                self._streams_of[player] += 1
            if slot.token is not None and self._sweeper is None:
                self._sweeper = threading.Thread(target=self._sweep_revocations, name="stream-revocations",
                                                 daemon=True)
                self._sweeper.start()
        if slot.player is not None and self.leases is not None:
            try:
                slot.lease = self.leases.take(slot.player)  # outside the lock: a round trip to Redis
            except Refused:
                self.close(slot)
                raise self._too_many() from None
        if slot.greenlet is not None and self._watchdog is None and self.write_timeout > 0:
            self._start_watchdog()
        return slot

    def admit(self) -> None:
        """StreamLimit (503) if a new waiter would be refused now: checked
        before a stream's open does any work (its game's load queues for the
        pool too), and again when it takes its slot."""
        saturated = self.pool_saturated()
        with self._lock:
            self._refuse_if_full(saturated)

    def _refuse_if_full(self, saturated: bool) -> None:
        if self.draining:
            raise StreamLimit(503, "this server is shutting down; connect again", "shutting-down",
                              max(1, self._retry() // 1000))
        if len(self._slots) >= self.total:
            raise StreamLimit(503, f"this server holds its limit of {self.total} waiting requests; "
                                   "try again shortly", "server-busy", random.randint(2, 10))
        if saturated:
            raise StreamLimit(503, "this server's database connections are all in use and requests queue "
                                   "for them; try again shortly", "server-busy", random.randint(2, 10))

    def _too_many(self) -> StreamLimit:
        return StreamLimit(429, f"you have {self.per_player} streams open, the most one player may at once; "
                                "close one (another tab or device) and try again", "too-many-streams", 30)

    def close(self, slot: Slot) -> None:
        with self._lock:
            if slot not in self._slots:
                return
            self._slots.remove(slot)
            if slot.player is not None:
                self._streams_of[slot.player] -= 1
                if not self._streams_of[slot.player]:
                    del self._streams_of[slot.player]
        if self.leases is not None:
            self.leases.release(slot.lease)

    def _keep(self, slot: Slot) -> None:
        """Renew the stream's lease when due (each loop of a stream, which wakes at least once a heartbeat)."""
        if self.leases is not None:
            self.leases.keep(slot.lease)

    @contextmanager
    def waiting(self, player: str | None = None):
        """A long-poll's slot, for the server-wide limit."""
        slot = self.open(player, stream=False)
        try:
            yield slot
        finally:
            self.close(slot)

    def count(self) -> int:
        with self._lock:
            return len(self._slots)

    # -- saturation --------------------------------------------------------------

    def pool_stats(self) -> dict | None:
        """The database pool's size, free connections, queued requests and
        requests that timed out so far (None: no pool to ask)."""
        pool = getattr(self.service, "pool", None)
        if pool is None or not hasattr(pool, "get_stats"):
            return None
        stats = pool.get_stats()
        return {"max": pool.max_size, "size": stats.get("pool_size", 0),
                "available": stats.get("pool_available", 0), "waiting": stats.get("requests_waiting", 0),
                "timed_out": stats.get("requests_errors", 0)}

    def pool_saturated(self, stats: dict | None = None) -> bool:
        """No free connection, and requests queue for one: at least
        ``saturated_waiting`` of them (default twice the pool's size), or any
        while requests timed out waiting within the last ``TIMED_OUT_SECONDS``.
        A short queue behind a burst drains in milliseconds and is no reason
        to refuse anyone; a queue that long, or one whose requests give up, is."""
        stats = self.pool_stats() if stats is None else stats
        if stats is None:
            return False
        now = time.monotonic()
        if stats["timed_out"] > self._pool_errors:
            self._pool_errors, self._timed_out_at = stats["timed_out"], now
        if stats["available"] > 0 or stats["waiting"] == 0:
            return False
        if stats["waiting"] >= (self.saturated_waiting or 2 * stats["max"]):
            return True
        return self._timed_out_at is not None and now - self._timed_out_at < TIMED_OUT_SECONDS

    def saturation(self) -> dict:
        """What readiness reports: waiters held against the limit, and the pool."""
        stats = self.pool_stats()
        held = self.count()
        return {"waiters": held, "max_waiters": self.total, "waiters_near_limit": held >= 0.9 * self.total,
                "pool": stats, "pool_saturated": self.pool_saturated(stats) if stats is not None else False,
                "draining": self.draining}

    # -- revoked tokens --------------------------------------------------------

    def tokens_revoked(self, token_ids) -> None:
        """End the streams opened with these tokens (each at its next look, which this wakes)."""
        revoked = set(token_ids)
        with self._lock:
            ending = [s for s in self._slots if s.token in revoked and not s.revoked]
        for slot in ending:
            slot.revoked = True
            if slot.watch is not None:
                slot.watch.wake()

    def _sweep_revocations(self) -> None:
        """Every ``revocation_check`` seconds, while streams opened with tokens
        are open: which of their tokens were revoked (here or in another process)."""
        while True:
            time.sleep(self.revocation_check)
            with self._lock:
                tokens = {s.token for s in self._slots if s.token is not None and not s.revoked}
                if not tokens:
                    self._sweeper = None  # the next stream with a token starts another
                    return
            try:
                revoked = self.service.players.revoked_among(tokens)
            except Exception as error:  # the database away: look again next time
                log.warning("could not look for revoked tokens of open streams: %s", error)
                continue
            if revoked:
                self.service.players.forget_tokens(revoked)  # its reconnection is refused here at once too
                self.tokens_revoked(revoked)

    def _revoked(self) -> str:
        return _message("problem", dumps(problem_body(
            401, "the token this stream was opened with has been revoked: sign in again (get a new token), "
                 "then open the stream again", kind="token-revoked")))

    # -- shutdown and slow clients ---------------------------------------------

    def drain(self) -> None:
        """End every stream with a retry hint; refuse new ones."""
        self.draining = True
        self.service.store.wake_waiters()

    def _start_watchdog(self) -> None:
        import gevent

        with self._lock:
            if self._watchdog is not None:
                return
            self._watchdog = gevent.spawn(self._watch_writes)

    def _watch_writes(self) -> None:
        import errno

        import gevent

        while True:
            gevent.sleep(min(1.0, self.write_timeout / 2))
            now = time.monotonic()
            with self._lock:
                stuck = [s for s in self._slots
                         if s.writing_since is not None and now - s.writing_since > self.write_timeout]
            for slot in stuck:
                log.info("closing a stream whose client took no data for %.0f s", now - slot.writing_since)
                slot.writing_since = None
                self.closed_slow += 1
                # An OSError the servers treat as the client gone: they close the socket quietly.
                slot.greenlet.kill(ConnectionResetError(errno.ECONNRESET, "client too slow"), block=False)

    # -- the streams -----------------------------------------------------------

    def _send(self, slot: Slot, text: str):
        """Mark the write, so the watchdog can tell a client that stopped reading."""
        slot.writing_since = slot.written_at = time.monotonic()
        yield text.encode()
        slot.writing_since = None

    def _retry(self) -> int:
        """A reconnection delay in milliseconds, jittered (``retry_ms`` to twice
        that) so that the clients of one process do not all come back at once."""
        return self.retry_ms + random.randint(0, self.retry_ms)

    def _opening(self, resume_at: int) -> str:
        """The first message: the retry hint, and an ``id:`` the client may
        resume from even if nothing else comes before the connection drops
        (an id with no data sets EventSource's lastEventId and dispatches
        nothing: WHATWG HTML, "dispatch the event", steps 1-2)."""
        return f"retry: {self._retry()}\nid: {resume_at}\n\n"

    def _quiet_for(self, slot: Slot, ends_at: float) -> float:
        """How long the stream may wait before a heartbeat is due (or its lifetime ends)."""
        now = time.monotonic()
        return max(0.0, min(slot.written_at + self.heartbeat - now, ends_at - now))

    def _heartbeat(self, slot: Slot):
        """A comment, when nothing was written for a heartbeat interval, whatever woke the stream meanwhile."""
        if time.monotonic() - slot.written_at >= self.heartbeat and not self.draining:
            yield from self._send(slot, ": heartbeat\n\n")

    def _closing(self) -> str:
        """The server closes the stream (shutting down, or the stream's lifetime is over): reconnect."""
        return f"retry: {self._retry()}\nevent: shutdown\ndata: {{}}\n\n"

    def _failed(self, error: BaseException) -> str:
        """The last message of a stream that could not go on: reconnect later and resume."""
        if database_error(error):
            log.warning("a stream ends: the database could not answer (%s: %s)", type(error).__name__, error)
            body = problem_body(503, "the database is unreachable or busy: reconnect after the retry delay, "
                                     "resuming from the last id you received", kind="database-unavailable")
        else:
            log.error("a stream ends on an unexpected error", exc_info=error)
            body = problem_body(500, "the server failed while serving this stream: reconnect after the retry "
                                     "delay, resuming from the last id you received", kind="internal-error")
        return f"retry: {self._retry()}\n" + _message("problem", dumps(body))

    def _held(self, slot: Slot, body):
        """The stream's messages; whatever its loop raises ends it with a retry
        hint and a problem message, never by an exception the server logs as
        a crash and the client sees as a cut connection."""
        try:
            yield from body
        except Exception as error:
            yield from self._send(slot, self._failed(error))

    def game(self, slot: Slot, game_id: uuid.UUID, player: str | None, after: int | None):
        """The game's events as ``player`` may see them after version ``after``
        (each with ``id:`` = its version), then a ``view``; None: the view now."""
        store = self.service.store
        watch = slot.watch = store.watch([stream_of(game_id)])
        try:
            yield from self._held(slot, self._game(slot, watch, game_id, player, after))
        finally:
            watch.close()
            self.close(slot)

    def _game(self, slot: Slot, watch, game_id: uuid.UUID, player: str | None, after: int | None):
        stream = stream_of(game_id)
        ends_at = time.monotonic() + self.lifetime
        rules, session = self.shared.session(game_id, after or 0)
        sent = session.version if after is None else after
        talk = self._talk_of(watch, game_id, rules, session, player)
        yield from self._send(slot, self._opening(sent))
        if after is None:
            seat = viewer_seat(session, player)
            yield from self._send(slot, _message("view", self.shared.view_json(game_id, rules, session, seat),
                                                 session.version))
        while True:
            if slot.revoked:
                yield from self._send(slot, self._revoked())
                return
            if session.version > sent:
                yield from self._send(slot, self._moves(game_id, rules, session, sent, player))
                sent = session.version
            if session.status in ENDED:
                yield from self._send(slot, _message("end", dumps({
                    "status": session.status, "version": session.version,
                    "receipt": self.service.heads.receipt_for(game_id, session)})))
                return
            if self.draining or time.monotonic() >= ends_at:
                yield from self._send(slot, self._closing())
                return
            yield from self._heartbeat(slot)
            target, talked = self._next(watch, stream, sent, self._quiet_for(slot, ends_at))
            self._keep(slot)
            if talked and talk:
                said = talk.said(talked)
                if said:
                    yield from self._send(slot, said)
            if target > sent:
                rules, session = self.shared.session(game_id, target)

    def _talk_of(self, watch, game_id, rules, session, player: str | None) -> "_Talk | None":
        """The channels the viewer reads, followed from their version now."""
        readable = talk_rules.channels_of(rules.name, session, player)
        if not readable:
            return None
        streams = {talk_rules.stream_of(game_id, channel): channel for channel in readable}
        for name in streams:
            watch.follow(name)
        with self.service.pool.connection() as conn:
            versions = dict(conn.execute("select stream_id, max(version) from events where stream_id = any(%s)"
                                         " group by stream_id", (list(streams),)).fetchall())
            muted = {str(row[0]) for row in conn.execute(
                "select muted_id from talk_mutes where player_id = %s and game_id = %s", (player, game_id))
                } if player is not None else set()
        return _Talk(self.service.store, streams, muted, {name: versions.get(name, 0) for name in streams})

    def _moves(self, game_id, rules, session, after: int, player: str | None) -> str:
        records = self.shared.records(game_id, after, session.version)
        parts = [_message(None, text, version) for version, text in
                 self.shared.events_json(game_id, rules, session, records, player)]
        view = self.shared.view_json(game_id, rules, session, viewer_seat(session, player))
        parts.append(_message("view", view, session.version))
        return "".join(parts)

    def _next(self, watch, stream: str, sent: int, wait: float) -> tuple[int, dict[str, int]]:
        """The version to catch up to (``sent`` when nothing moved) after
        waiting at most ``wait`` seconds, and the other streams heard (a channel's)."""
        happened = watch.wait(wait)
        heard, woken = watch.take()
        talked = {name: version for name, version in heard.items() if name != stream}
        return self._caught_up(stream, sent, happened, heard, woken), talked

    def _caught_up(self, stream: str, sent: int, happened: bool, heard: dict, woken: bool) -> int:
        if self.draining:
            return sent
        if not happened:
            # A quiet wait also checks the version, in case a notification was
            # lost (a process that died between its commit and its NOTIFY):
            # mostly from what the LISTEN connection's sweep keeps known, else
            # from the database at most once a minute per game, shared. Only a
            # safety net (the sweep wakes a stream whose notification was
            # lost): skipped while the pool is saturated, and never fatal.
            if self.pool_saturated():
                return sent  # a quiet check would only lengthen the queue
            return self._version_or(sent, stream, max(60.0, 4 * self.heartbeat))
        return max(heard.get(stream, 0), sent,
                   self._version_or(sent, stream) if woken or not heard else 0)

    def _version_or(self, sent: int, stream: str, max_age: float | None = None) -> int:
        """The stream's recent version, or ``sent`` when the database cannot tell now."""
        try:
            return self.service.store.recent_version(stream, max_age=max_age)
        except Exception as error:
            if not database_error(error):
                raise
            log.info("a stream's version check found the database busy or away (%s); next time", error)
            return sent

    def player(self, slot: Slot, player: str, after: int | None):
        """Notices for ``player`` from all their games, after the global
        position ``after`` (each with ``id:`` = that position); None: from now."""
        watch = slot.watch = self.service.store.watch([player_channel(player)])  # first: seats from now on
        try:
            yield from self._held(slot, self._player(slot, watch, player, after))
        finally:
            watch.close()
            self.close(slot)

    def _player(self, slot: Slot, watch, player: str, after: int | None):
        channel = player_channel(player)
        ends_at = time.monotonic() + self.lifetime
        games = self._games_of(player)
        for game in games:
            watch.follow(game)
        cursor = self.service.store.last_position() if after is None else after
        yield from self._send(slot, self._opening(cursor))
        look = True  # read the notices after the cursor: at the start, then when something moved
        refresh = False  # look for games (and channels) the player has joined since
        while True:
            if slot.revoked:
                yield from self._send(slot, self._revoked())
                return
            # While the pool is exhausted the reads wait for the next round (what
            # moved stays after the cursor): a held stream outlives the
            # exhaustion on its heartbeats; PostgreSQL away still ends it (503).
            batch = ""
            if (look or refresh) and not self.pool_saturated():
                try:
                    if refresh:
                        for stream in self._games_of(player) - games:
                            watch.follow(stream)
                            games.add(stream)
                        refresh = False
                    if look:
                        batch, cursor = self._notices(player, games, cursor)
                        look = False
                except PoolTimeout:
                    log.info("a player stream found no free connection; it reads next round")
            if batch:
                yield from self._send(slot, batch)
            if self.draining or time.monotonic() >= ends_at:
                yield from self._send(slot, self._closing())
                return
            # Any move of any of the player's games wakes the wait, with or
            # without a notice for him: the heartbeat goes by what was written.
            # A quiet wait reads nothing: a heartbeat needs no database.
            yield from self._heartbeat(slot)
            watch.wait(self._quiet_for(slot, ends_at))
            heard, woken = watch.take()
            self._keep(slot)
            look = look or bool(heard) or woken
            refresh = refresh or channel in heard or woken

    def _games_of(self, player: str) -> set[str]:
        """The streams of the player's games: each game's, and its channels' (table talk)."""
        with self.service.pool.connection() as conn:
            rows = conn.execute("select game_id from game_seats where player_id = %s", (player,)).fetchall()
            talk = conn.execute("select c.stream_id from talk_channels c join game_seats s on s.game_id = c.game_id"
                                " where s.player_id = %s", (player,)).fetchall()
        return {stream_of(row[0]) for row in rows} | {row[0] for row in talk}

    def _notices(self, player: str, games: set[str], cursor: int) -> tuple[str, int]:
        parts = []
        while games:
            records = self.service.store.read_all_of(sorted(games), cursor, 500)
            for record in records:
                for notice in notice_rules.notices_of(record):
                    if notice.concerns(player):
                        parts.append(_message(notice.kind, dumps(notice.to_json()), record.global_position))
                cursor = record.global_position
            if len(records) < 500:
                break
        return "".join(parts), cursor


class _Talk:
    """The messages a game stream's viewer reads, sent as ``talk`` events
    (without an ``id:``: a stream resumes by the game's version; a client
    fetches what it missed with listMessages)."""

    def __init__(self, store, streams: dict[str, str], muted: set[str], sent: dict[str, int]):
        self.store = store
        self.streams = streams
        self.muted = muted
        self.sent = sent

    def said(self, heard: dict[str, int]) -> str:
        parts = []
        for name in sorted(set(heard) & set(self.streams)):
            for record in self.store.read_stream(name, self.sent[name] + 1):
                self.sent[name] = record.version
                if record.data.get("player") in self.muted:
                    continue
                data = {"channel": self.streams[name], "version": record.version, "seat": record.data.get("seat"),
                        "player": record.data.get("player"), "text": record.data.get("text"),
                        "sent_at": record.recorded_at.isoformat()}
                parts.append(_message("talk", dumps(data)))
        return "".join(parts)


def _message(event: str | None, data: str, id: int | None = None) -> str:
    head = (f"id: {id}\n" if id is not None else "") + (f"event: {event}\n" if event else "")
    return f"{head}data: {data}\n\n"
