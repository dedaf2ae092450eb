"""Server-Sent Events: the open streams of one process, their limits, and
the two kinds of stream (a game's, a player's).

A stream is a generator the WSGI server iterates: between messages it waits
on a ``Watch`` of the event store's one LISTEN connection, so under gevent
it holds a greenlet, a socket and a few kilobytes, never a thread or a
database connection. What it sends comes from ``SharedWork``: each event
as a viewer may see it, and each view, is computed once per (version,
viewer) for all the streams of the process.

Limits on newcomers (per player, per client, the server's total, memory,
a saturated pool) are api/http/admission.py's, which ``Streams`` extends. A
stream whose client does not take a message within ``write_timeout``
seconds is closed (under gevent; the watchdog kills the greenlet blocked in
the write). ``drain()``, on shutdown, ends every stream with a ``retry:``
hint so that clients reconnect, to another process.

Revocation: a stream opened with a bearer token (or with a ticket, which
names the token it was issued for) ends when that token is revoked, its last
message a ``problem`` (``token-revoked``): at once in the process that
revoked it (``tokens_revoked``), and in every other within
``revocation_check`` seconds (half the token cache time by default, so
within the bound a revoked token's requests have), by one query per process
that asks which of its open streams' tokens were revoked.

Overload: a process at its capacity refuses NEW waiters (api/http/admission.py)
while the ones it holds keep being served. A held
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
import threading
import time
import uuid

from psycopg_pool import PoolTimeout

from domain import notices as notice_rules
from domain import session as sessions

from .admission import Slot, StreamLimit, Waiters, settings_from_env
from .errors import problem_body
from .game_frames import GameFrames
from ..service.agreements import told
from ..service.games import player_channel, stream_of
from ..service.reminders import stream_of as reminder_stream
from ..service.shared import SharedWork, dumps
from ..service.talk import mutes_of
from ..service.ticket_tokens import TicketTokens
from ..service.tickets import TICKET_SECONDS
from ..service.views import viewer_seat
from .sse import message as _message
from .stream_talk import follow_talk

__all__ = ["Slot", "StreamLimit", "Streams", "settings_from_env"]

log = logging.getLogger("boardlog.streams")

ENDED = (sessions.FINISHED, sessions.CANCELLED)


def database_error(error: BaseException) -> bool:
    """The database could not answer (the pool exhausted, PostgreSQL away): not a bug, a 503."""
    import psycopg

    return isinstance(error, psycopg.OperationalError)


class Streams(Waiters):
    def __init__(self, service, per_player: int = 8, total: int = 12000, heartbeat: float = 15.0,
                 write_timeout: float = 10.0, retry_ms: int = 3000, lifetime: float = 3600.0,
                 redis=None, clock=time.time, revocation_check: float | None = None, **limits):
        """``redis``: where the per-player cap is counted across processes (None: in this one);
        ``revocation_check``: seconds between two looks for revoked tokens (None: half the token cache time);
        ``limits``: the other limits on newcomers (api/http/admission.py)."""
        super().__init__(service, per_player=per_player, total=total, heartbeat=heartbeat, redis=redis,
                         clock=clock, retry_ms=retry_ms, **limits)
        self.shared = SharedWork(service)
        self.frames = GameFrames(service, self.shared)  # what a game's streams write, composed once for all
        self.heartbeat = heartbeat
        self.write_timeout = write_timeout
        self.lifetime = lifetime  # then a stream closes with a retry hint: load spreads again over processes
        self._watchdog = None
        self.closed_slow = 0
        cache = getattr(getattr(service, "players", None), "cache_seconds", 10.0)
        self.revocation_check = cache / 2 if revocation_check is None else revocation_check
        self._sweeper = None  # the thread (greenlet under gevent) that looks for revoked tokens
        # Whether a stream ticket's token stands, mostly without a query; told of every revocation here.
        self.ticket_tokens = (TicketTokens(service.pool, cache, ticket_seconds=TICKET_SECONDS, hears=service.store)
                              if hasattr(service, "pool") else None)

    def _opened(self, slot: Slot) -> None:
        if slot.token is not None and self._sweeper is None:
            with self._lock:
                if self._sweeper is None:
                    self._sweeper = threading.Thread(target=self._sweep_revocations, name="stream-revocations",
                                                     daemon=True)
                    self._sweeper.start()
        if slot.greenlet is not None and self._watchdog is None and self.write_timeout > 0:
            self._start_watchdog()

    # -- revoked tokens --------------------------------------------------------

    def tokens_revoked(self, token_ids) -> None:
        """End the streams opened with these tokens (each at its next look, which this wakes)."""
        revoked = set(token_ids)
        if self.ticket_tokens is not None:
            self.ticket_tokens.revoked(revoked)  # their tickets open nothing here from now on
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
        """Once a second: close the streams whose client stopped reading; give memory back when due."""
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
            if self.memory is not None:
                self.memory.tick()  # memory given back once many waiters left

    # -- the streams -----------------------------------------------------------

    def _send(self, slot: Slot, text: str | bytes):
        """Mark the write, so the watchdog can tell a client that stopped
        reading. Bytes go as they are: a frame shared by many streams."""
        slot.writing_since = slot.written_at = time.monotonic()
        yield text if isinstance(text, bytes) else text.encode()
        slot.writing_since = None

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
        talk = follow_talk(self.shared, watch, game_id, rules, session, player)
        yield from self._send(slot, self._opening(sent))
        if after is None:
            yield from self._send(slot, self.frames.view_now(game_id, rules, session, viewer_seat(session, player)))
        while True:
            if slot.revoked:
                yield from self._send(slot, self._revoked())
                return
            moved = self.frames.moves(game_id, rules, session, sent, player) if session.version > sent else b""
            sent = session.version
            if session.status in ENDED:
                # The last move and the end in one write: one syscall less per stream and game.
                yield from self._send(slot, moved + self.frames.end(game_id, session))
                return
            if moved:
                yield from self._send(slot, moved)
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
        position ``after`` (each with ``id:`` = that position, but a message's,
        which has none); None: from now."""
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
        # The id shown is a position a player may see: a talk message's (negative) counts what others said.
        shown = cursor if cursor >= 0 else self.service.store.last_position(shown=True)
        yield from self._send(slot, self._opening(shown))
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
        reminded = {reminder_stream(row[0]) for row in rows}  # his reminders (api/service/reminders.py)
        return {stream_of(row[0]) for row in rows} | {row[0] for row in talk} | reminded

    def _notices(self, player: str, games: set[str], cursor: int) -> tuple[str, int]:
        parts = []
        muted = None  # whom the player muted, read when the first message comes
        while games:
            records = self.service.store.read_all_of(sorted(games), cursor, 500)
            for record in records:
                for notice in notice_rules.notices_of(record):
                    if not notice.concerns(player) or not notice.reaches("stream"):
                        continue
                    if notice.kind == notice_rules.MESSAGE:
                        muted = self._mutes_of(player) if muted is None else muted
                        if notice_rules.muted_by(notice, player, muted):
                            continue
                    # A message has no id: a position would count the talk of channels the player does
                    # not read. After a reconnection it may come again (deduplicate by the notice's id).
                    shown = None if notice.kind == notice_rules.MESSAGE else record.global_position
                    parts.append(_message(notice.kind, dumps(told(self.service, notice)), shown))
                cursor = record.global_position
            if len(records) < 500:
                break
        return "".join(parts), cursor

    def _mutes_of(self, player: str) -> dict[tuple[str, str], set[str]]:
        """(player, game id) -> the players he muted there."""
        with self.service.pool.connection() as conn:
            return mutes_of(conn, [player])
