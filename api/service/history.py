"""A game's history, read: the rules it is played under, its session from
the cache, a snapshot and the tail of its events, the game as it rested at
an earlier version, and why a stored event cannot be read.

``History`` is the loader ``GameService`` holds; the command path
(api/service/games.py) loads through it, decides, appends, and hands it the
session it committed (``remember``) and the snapshot it is due
(``snapshot``). Snapshots are written as JSON that names no module
(domain/snapshots.py).
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections import OrderedDict
from typing import Any, Callable, Iterable

from domain import engine
from domain import games as registry
from domain import session as sessions
from domain import snapshots
from domain.session import Session

from . import readmodels
from .errors import DamagedHistory, InvalidRequest, NotFound, UnreadableHistory

log = logging.getLogger("boardlog.service")

# Snapshots carry the engine's version of the Session shape in the upper digits
# and the game's own state version below, so a change of either ignores them.
SESSION_SHAPE = 7  # 2: Session.rules_version; 3: Session.life; 4: chain and randomness versions; 5: Life.left; 6: contributions; 7: Life.away, paused, takeback and Session.recent

Heads = Callable[[uuid.UUID, Iterable[tuple[int, str]]], None]


def stream_of(game_id) -> str:
    return f"game-{game_id}"


def snapshot_version(rules) -> int:
    return SESSION_SHAPE * 1000 + rules.state_version


def _rests_at(records, version: int) -> bool:
    """Whether the game rested at ``version``: it is the last one, or the next
    event was decided on it (every event's metadata says at which version it
    was decided)."""
    return version == len(records) or records[version].metadata.get("decided_at", version) == version


def rules_of(name: str):
    rules = registry.get(name)
    if rules is None:
        raise NotFound(f"no game called {name!r}; hosted games: {', '.join(sorted(registry.REGISTRY))}",
                       kind="unknown-game")
    return rules


def rules_of_session(session: Session):
    return registry.rules_at(session.game, session.rules_version)


class History:
    """``note_heads`` is told the hash of each version read (for receipts)."""

    def __init__(self, store, note_heads: Heads, cache_size: int = 1024, snapshot_every: int = 200):
        self.store = store
        self.pool = store.pool
        self.note_heads = note_heads
        self.cache_size = cache_size
        self.snapshot_every = snapshot_every
        self._cache: OrderedDict[uuid.UUID, Session] = OrderedDict()
        self._seeds: dict[uuid.UUID, bytes] = {}
        self._lock = threading.Lock()

    # The rules

    def rules_of_stream(self, records):
        """The rules a stored game was created under (its first record), for ever."""
        try:
            created = sessions.created_from_stored(records[0].schema_version, records[0].data)
        except Exception as error:  # a changed first row, or a version this installation lacks
            raise self.unreadable(records[0], error) from error
        rules = registry.rules_for(created)
        if rules is None:
            raise NotFound(f"no game called {created.game!r}; hosted games: {', '.join(sorted(registry.REGISTRY))}")
        return rules

    # The session

    def load(self, game_id: uuid.UUID, trust_known: bool = False,
             keep_tail: Callable[[list], None] | None = None) -> tuple[Any, Session]:
        """The current session: cached or snapshot state, then the tail of
        events, so that a read follows every commit before it, whichever
        process made it. With ``trust_known``, a session this process holds at
        the version it knows the game to be at (eventstore/versions.py) is
        taken without a query: for a decision, whose append refuses a stale
        version anyway and is then taken again on a fresh load.
        ``keep_tail``: given the events read after the session held here,
        with their metadata, for the streams that show them next
        (api/service/shared.py): one read for both."""
        return self._load(game_id, self.store.known_version if trust_known else None, keep_tail)

    def load_for_reading(self, game_id: uuid.UUID) -> tuple[Any, Session]:
        """The current session for an answer that may be as stale as a poll
        (the legal commands): the one this process holds, without a query,
        if its LISTEN connection's sweeps keep coming and it knows the game
        to be at that version, so that it is behind another process's commit
        only until that commit's NOTIFY arrives, or, were it lost, the next
        sweep (eventstore/versions.py); else loaded as ``load`` does."""
        return self._load(game_id, self.store.swept_version)

    def _load(self, game_id: uuid.UUID, known_version, keep_tail=None) -> tuple[Any, Session]:
        with self._lock:
            session = self._cache.get(game_id)
        stream = stream_of(game_id)
        rules = rules_of_session(session) if session else None
        if session is not None and known_version is not None and known_version(stream) == session.version:
            return rules, session
        from_start = session is None
        # A replay reads no metadata: most of a played game's bytes, and none of its state.
        # But a tail after a session held here is a move or two, which streams show next.
        keep_tail = None if from_start else keep_tail
        if session is None:
            records = self.store.read_stream(stream, 1, 1, metadata=False)
            if not records:
                raise NotFound(f"no game {game_id}")
            rules = self.rules_of_stream(records)
            session = self._from_snapshot(stream, rules)
        tail = self.store.read_tail(stream, session.version if session else 0, metadata=keep_tail is not None)
        session = self.fold(rules, session, tail)
        if keep_tail is not None:
            keep_tail(tail)
        if tail:
            self.note_heads(game_id, [(tail[-1].version, tail[-1].hash)])
        if from_start and len(tail) >= self.snapshot_every:
            # No snapshot of this shape and format, or an old one: the next
            # process to load the game starts from here.
            self._save_snapshot_now(stream, rules, session)
        self.remember(game_id, session)
        return rules, session

    def cached(self, game_id: uuid.UUID) -> tuple[Any, Session] | None:
        """The newest session this process holds, without a query (may be behind)."""
        with self._lock:
            session = self._cache.get(game_id)
        return (rules_of(session.game), session) if session is not None else None

    def load_at(self, game_id: uuid.UUID, version: int, store=None) -> tuple[Any, Session]:
        """The game as it rested at ``version``: after a whole move, never
        between two events one decision wrote together (no player ever saw
        that state, and a game's view need not cope with it). ``store``: one
        that holds ``version`` (a replica, api/service/replica.py); the
        primary's by default."""
        records = (store or self.store).read_stream(stream_of(game_id))
        if not records:
            raise NotFound(f"no game {game_id}")
        if len(records) < version:
            raise InvalidRequest(f"the game has only {len(records)} versions, not {version}")
        if not _rests_at(records, version):
            before = records[version].metadata.get("decided_at", version)
            after = next(v for v in range(version, len(records) + 1) if _rests_at(records, v))
            raise InvalidRequest(
                f"version {version} is in the middle of one move (versions {before + 1} to {after} were written "
                f"together); ask for version {after}" + (f" or {before}" if before else "")
            )
        rules = self.rules_of_stream(records)
        self.note_heads(game_id, [(version, records[version - 1].hash)])
        return rules, self.fold(rules, None, records[:version])

    def game_of(self, game_id: uuid.UUID) -> str:
        """Which game a game id plays (it never changes)."""
        with self._lock:
            session = self._cache.get(game_id)
        if session is not None:
            return session.game
        with self.pool.connection() as conn:
            name = readmodels.game_name(conn, game_id)
        if name is None:
            raise NotFound(f"no game {game_id}")
        return name

    def current_version(self, game_id: uuid.UUID) -> int:
        """Answers a conditional poll without replaying, and mostly without a
        query (see eventstore/versions.py for how stale it may be)."""
        version = self.store.recent_version(stream_of(game_id))
        if version == 0:
            raise NotFound(f"no game {game_id}")
        return version

    def fold(self, rules, session, records) -> Session:
        for record in records:
            try:
                event = sessions.decode_stored(rules, record.type, record.schema_version, record.data)
                session = sessions.evolve(rules, session, event)
            except Exception as error:  # whatever a changed row makes decoding or folding raise
                raise self.unreadable(record, error) from error
        return session

    def unreadable(self, record, error: Exception) -> Exception:
        """Why a stored event cannot be read, from the hash chain, checked
        only now (reading never pays for it): changed behind the server's
        back, recorded under rules or a shape this installation lacks (the
        domain's own error, which names them), or a server that cannot read
        what it wrote."""
        why = f"{type(error).__name__}: {error}"
        chain = self.store.verify(record.stream_id)
        game = record.stream_id.removeprefix("game-")
        if not chain.ok:
            log.error("the history of %s is damaged from version %s (%s); version %s does not read: %s",
                      record.stream_id, chain.broken_at, chain.reason, record.version, why)
            return DamagedHistory(
                f"this game's history is damaged: the stored event at version {chain.broken_at} is not the one "
                f"that was recorded ({chain.reason}), so the game cannot be shown or played; "
                f"GET /v1/games/{game}/audit names it, and an operator must restore it from a backup",
                broken_at=chain.broken_at)
        if isinstance(error, engine.UnreadableHistory):
            return error
        log.error("%s version %s has an intact hash chain but does not read: %s", record.stream_id, record.version, why)
        return UnreadableHistory(
            f"the stored event at version {record.version} of this game cannot be read by this server, although its "
            "hash chain is intact: the server is at fault, not the record; this has been logged")

    # This process's copies

    def remember(self, game_id, session: Session) -> None:
        with self._lock:
            current = self._cache.get(game_id)
            if current is None or current.version <= session.version:
                self._cache[game_id] = session
            self._cache.move_to_end(game_id)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)

    def forget(self, game_id) -> None:
        """Drop this process's copy of a game, as a restart would."""
        with self._lock:
            self._cache.pop(game_id, None)

    def seed(self, game_id: uuid.UUID) -> bytes:
        seed = self._seeds.get(game_id)
        if seed is None:
            with self.pool.connection() as conn:
                seed = readmodels.seed_of(conn, game_id)
            if seed is None:
                raise NotFound(f"no game {game_id}")
            self.keep_seed(game_id, seed)
        return seed

    def keep_seed(self, game_id: uuid.UUID, seed: bytes) -> None:
        if len(self._seeds) >= self.cache_size * 16:  # bounded: a forgotten seed is one query away
            self._seeds.clear()
        self._seeds[game_id] = seed

    # Snapshots

    def snapshot_due(self, before: Session, after: Session) -> bool:
        return after.version // self.snapshot_every > before.version // self.snapshot_every

    def snapshot(self, stream: str, rules, session: Session, conn) -> None:
        """Write the session's snapshot in the caller's transaction; a session
        that cannot be written down is logged, and the game replayed instead."""
        try:
            data = snapshots.dumps(session, rules)
        except snapshots.Unwritable as error:
            log.error("no snapshot of %s at version %s: %s", stream, session.version, error)
            return
        self.store.save_snapshot(stream, session.version, snapshot_version(rules), data, conn=conn)

    def _save_snapshot_now(self, stream: str, rules, session: Session) -> None:
        try:
            with self.pool.connection() as conn:
                self.snapshot(stream, rules, session, conn)
        except Exception:  # a read must not fail for want of a snapshot
            log.exception("could not write a snapshot of %s at version %s", stream, session.version)

    def _from_snapshot(self, stream: str, rules) -> Session | None:
        """A snapshot of this state shape, or None: one that cannot be read
        back exactly (another format, an old pickle, a class since renamed or
        changed) is ignored, and the game replayed, never trusted."""
        snapshot = self.store.load_snapshot(stream, snapshot_version(rules))
        if snapshot is None:
            return None
        try:
            session = snapshots.loads(snapshot.state, rules)
        except snapshots.Unreadable as error:
            log.warning("ignoring a snapshot of %s at version %s: %s", stream, snapshot.version, error)
            return None
        if not isinstance(session, Session) or session.version != snapshot.version:
            log.warning("ignoring a snapshot of %s that does not hold version %s", stream, snapshot.version)
            return None
        return session
