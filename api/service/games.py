"""The command path, written once: load, decide, append, project, schedule.

The HTTP views and the workers both go through ``GameService``; neither
touches the event store or the read models on its own.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import pickle
import secrets
import threading
import uuid
from collections import OrderedDict
from typing import Any, Callable, Mapping

from domain import games as registry
from domain import session as sessions
from domain.engine import DecodeError, Event, IllegalCommand, rng_for
from domain.session import SYSTEM, Session
from eventstore import NewEvent, WrongExpectedVersion

from . import readmodels
from . import decisions
from .decisions import Decision, Scheduler
from .players import Players
from .errors import Conflict, Forbidden, IdempotencyMismatch, InvalidRequest, NotFound, PreconditionFailed, ServiceError

log = logging.getLogger("boardlog.service")

# Snapshots carry the engine's version of the Session shape in the upper digits
# and the game's own state version below, so a change of either ignores them.
SESSION_SHAPE = 1


def stream_of(game_id) -> str:
    return f"game-{game_id}"


def parse_game_id(text: str) -> uuid.UUID:
    try:
        return uuid.UUID(str(text))
    except ValueError:
        raise NotFound(f"no game {text!r}") from None


def _rests_at(records, version: int) -> bool:
    """Whether the game rested at ``version``: it is the last one, or the next
    event was decided on it (every event's metadata says at which version it
    was decided)."""
    return version == len(records) or records[version].metadata.get("decided_at", version) == version


class GameService:
    def __init__(self, store, scheduler: Scheduler | None = None, cache_size: int = 1024, snapshot_every: int = 200):
        self.store = store
        self.pool = store.pool
        self.scheduler = scheduler or Scheduler()
        self.cache_size = cache_size
        self.snapshot_every = snapshot_every
        self._cache: OrderedDict[uuid.UUID, Session] = OrderedDict()
        self._seeds: dict[uuid.UUID, bytes] = {}
        self.players = Players(self.pool)
        self._lock = threading.Lock()

    # Loading

    def rules_of(self, name: str):
        rules = registry.get(name)
        if rules is None:
            raise NotFound(f"no game called {name!r}; hosted games: {', '.join(sorted(registry.REGISTRY))}")
        return rules

    def load(self, game_id: uuid.UUID) -> tuple[Any, Session]:
        """The current session: cached or snapshot state, then the tail of events."""
        with self._lock:
            session = self._cache.get(game_id)
        stream = stream_of(game_id)
        rules = self.rules_of(session.game) if session else None
        if session is None:
            records = self.store.read_stream(stream, 1, 1)
            if not records:
                raise NotFound(f"no game {game_id}")
            rules = self.rules_of(records[0].data["game"])
            session = self._from_snapshot(stream, rules)
        tail = self.store.read_stream(stream, (session.version if session else 0) + 1)
        session = self._fold(rules, session, tail)
        self._remember(game_id, session)
        return rules, session

    def _from_snapshot(self, stream: str, rules) -> Session | None:
        """A snapshot of this state shape, or None: one that cannot be read
        back is ignored (and the game replayed), never trusted."""
        snapshot = self.store.load_snapshot(stream, self._snapshot_version(rules))
        if snapshot is None:
            return None
        try:
            session = pickle.loads(snapshot.state)
        except Exception:  # written by other code: any unpickling failure means "replay"
            log.warning("ignoring an unreadable snapshot of %s at version %s", stream, snapshot.version)
            return None
        if not isinstance(session, Session) or session.version != snapshot.version:
            log.warning("ignoring a snapshot of %s that does not hold version %s", stream, snapshot.version)
            return None
        return session

    def load_at(self, game_id: uuid.UUID, version: int) -> tuple[Any, Session]:
        """The game as it rested at ``version``: after a whole move, never
        between two events one decision wrote together (no player ever saw
        that state, and a game's view need not cope with it)."""
        records = self.store.read_stream(stream_of(game_id))
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
        rules = self.rules_of(records[0].data["game"])
        return rules, self._fold(rules, None, records[:version])

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

    def _fold(self, rules, session, records) -> Session:
        for record in records:
            session = sessions.evolve(rules, session, sessions.decode_event(rules, {"type": record.type, **record.data}))
        return session

    def _remember(self, game_id, session: Session) -> None:
        with self._lock:
            current = self._cache.get(game_id)
            if current is None or current.version <= session.version:
                self._cache[game_id] = session
            self._cache.move_to_end(game_id)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)

    def _snapshot_version(self, rules) -> int:
        return SESSION_SHAPE * 1000 + rules.state_version

    def seed(self, game_id: uuid.UUID) -> bytes:
        seed = self._seeds.get(game_id)
        if seed is None:
            with self.pool.connection() as conn:
                seed = readmodels.seed_of(conn, game_id)
            if seed is None:
                raise NotFound(f"no game {game_id}")
            self._keep_seed(game_id, seed)
        return seed

    def _keep_seed(self, game_id: uuid.UUID, seed: bytes) -> None:
        if len(self._seeds) >= self.cache_size * 16:  # bounded: a forgotten seed is one query away
            self._seeds.clear()
        self._seeds[game_id] = seed

    # The one write path

    def execute(
        self,
        game_id: uuid.UUID,
        decide: Callable[[Any, Session], Decision],
        if_match: int | None = None,
        in_transaction: Callable[[Any, Session, list[Event]], None] | None = None,
    ) -> tuple[Session, list[Event]]:
        """Decide on the current state and append with the version decided on.
        On a conflict the decision is taken again once on the fresh state,
        unless the caller pinned the version with If-Match."""
        for attempt in (1, 2):
            rules, session = self.load(game_id)
            if if_match is not None and session.version != if_match:
                raise PreconditionFailed(
                    f"the game is at version {session.version}, not {if_match}", version=session.version
                )
            decision = decide(rules, session)
            if not decision.events:
                return session, []
            after = sessions.replay(rules, decision.events, session)
            try:
                deadline = self._commit(game_id, rules, session, after, decision, in_transaction)
            except WrongExpectedVersion:
                if if_match is not None:
                    raise PreconditionFailed(f"the game moved past version {if_match}") from None
                if attempt == 2:
                    raise Conflict("the game moved twice while deciding; send the command again") from None
                continue
            self._remember(game_id, after)
            self._schedule(game_id, after, deadline)
            return after, decision.events
        raise AssertionError("unreachable")

    def _commit(self, game_id, rules, before: Session, after: Session, decision: Decision, in_transaction):
        """Append and project in one transaction; the deadline set, if any."""
        to_act = sessions.to_act(rules, after)
        metadata = decisions.with_notice_facts(decision.events, decision.metadata, after,
                                               sessions.to_act(rules, before), to_act)
        new_events = [
            NewEvent(type=event.type_name(), data=decisions.event_data(event), metadata=meta)
            for event, meta in zip(decision.events, metadata)
        ]
        deadline = self._deadline(after, to_act)
        stream = stream_of(game_id)
        with self.pool.connection() as conn, conn.transaction():
            # NOTIFY inside the transaction would make concurrent commits wait
            # for each other; the store announces the new version once committed.
            self.store.append(stream, new_events, before.version, conn=conn, announce_later=True)
            readmodels.project(conn, game_id, after, decision.events, to_act, deadline)
            if in_transaction:
                in_transaction(conn, after, decision.events)
            if after.version // self.snapshot_every > before.version // self.snapshot_every:
                self.store.save_snapshot(
                    stream, after.version, self._snapshot_version(rules), pickle.dumps(after), conn=conn
                )
        self.store.announce(stream, after.version)
        return deadline

    def _deadline(self, session: Session, to_act) -> dt.datetime | None:
        seconds = session.options.get("turn_seconds")
        if not seconds or not to_act:
            return None
        return dt.datetime.now(dt.timezone.utc) + dt.timedelta(seconds=seconds)

    def _schedule(self, game_id, session: Session, deadline: dt.datetime | None) -> None:
        try:
            if session.status == sessions.SCORING:
                self.scheduler.schedule_scoring(str(game_id))
            elif deadline is not None:
                self.scheduler.schedule_deadline(str(game_id), session.version, deadline)
        except Exception:  # the sweeper re-creates what was not scheduled
            log.exception("could not schedule jobs for game %s; the sweeper will", game_id)

    # Lobby

    def create(self, player: str, game: str, options: Mapping[str, Any] | None, seat: str | None) -> uuid.UUID:
        rules = self.rules_of(game)
        seed = secrets.token_bytes(32)
        events = sessions.create(rules, player, options, seed, seat)
        game_id = uuid.uuid4()
        session = sessions.replay(rules, events)
        meta = decisions.metadata(player, None, {"type": "CreateGame", "game": game, "seat": seat}, 0)
        metadata = decisions.with_notice_facts(events, [meta] * len(events), session, (), ())
        new_events = [NewEvent(type=e.type_name(), data=decisions.event_data(e), metadata=m) for e, m in zip(events, metadata)]
        with self.pool.connection() as conn, conn.transaction():
            readmodels.insert_game(conn, game_id, session, seed)
            self.store.append(stream_of(game_id), new_events, 0, conn=conn, announce_later=True)
            readmodels.project(conn, game_id, session, events, frozenset(), None)
        self.store.announce(stream_of(game_id), session.version)
        self._keep_seed(game_id, seed)
        self._remember(game_id, session)
        return game_id

    def join(self, game_id: uuid.UUID, player: str, seat: str | None) -> Session:
        command = {"type": "JoinGame", "seat": seat}
        return self.execute(game_id, lambda rules, s: decisions.by(player, None, command, s, sessions.join(s, player, seat)))[0]

    def leave(self, game_id: uuid.UUID, player: str) -> Session:
        command = {"type": "LeaveGame"}
        return self.execute(game_id, lambda rules, s: decisions.by(player, None, command, s, sessions.leave(s, player)))[0]

    def start(self, game_id: uuid.UUID, player: str) -> Session:
        seed = self.seed(game_id)
        command = {"type": "StartGame"}

        def decide(rules, session):
            events = sessions.start(rules, session, player, rng_for(seed, session.version))
            return decisions.by(player, None, command, session, events)

        return self.execute(game_id, decide)[0]

    # Play

    def act(
        self,
        game_id: uuid.UUID,
        player: str,
        command_json: Mapping[str, Any],
        if_match: int | None = None,
        idempotency_key: str | None = None,
        respond: Callable[[Session, list[Event], str], dict] | None = None,
    ) -> dict:
        """A player's command. ``respond`` shapes the answer; with an
        idempotency key, that answer is stored with the events and given again
        for a repeat of the same request."""
        # The game is part of the request: a key reused in another game is a
        # mismatch, never the first game's answer.
        request_sha256 = hashlib.sha256(decisions.canonical([str(game_id), command_json]).encode()).hexdigest()
        if idempotency_key is not None:
            earlier = self._earlier_response(player, idempotency_key, request_sha256)
            if earlier is not None:
                return earlier
        seed = self.seed(game_id)
        answer: dict = {}

        def decide(rules, session):
            seat = session.seat_of(player)
            if seat is None:
                raise Forbidden("you hold no seat in this game; spectators cannot send commands")
            try:
                command = rules.decode_command(command_json)
            except (DecodeError, TypeError) as error:
                raise InvalidRequest(str(error)) from None
            events = sessions.play(rules, session, seat, command, rng_for(seed, session.version), seed)
            return decisions.by(player, seat, command.to_json(), session, events)

        def remember(conn, session, events):
            seat = session.seat_of(player) or ""
            answer.update(respond(session, events, seat) if respond else {"version": session.version})
            if idempotency_key is not None:
                readmodels.remember_response(conn, player, idempotency_key, request_sha256, 200, answer)

        try:
            self.execute(game_id, decide, if_match, remember)
        except Exception as error:
            # A repeat that raced its original (looked for the key before the
            # original committed) fails on the moved game, or on the key's
            # uniqueness: it gets the original's answer, not that failure.
            if idempotency_key is not None and (
                decisions.is_unique_violation(error) or isinstance(error, (ServiceError, IllegalCommand))
            ):
                earlier = self._earlier_response(player, idempotency_key, request_sha256)
                if earlier is not None:
                    return earlier
            raise
        return answer

    def _earlier_response(self, player: str, key: str, request_sha256: str) -> dict | None:
        with self.pool.connection() as conn:
            row = readmodels.idempotent_response(conn, player, key)
        if row is None:
            return None
        if row["request_sha256"] != request_sha256:
            raise IdempotencyMismatch(
                "this Idempotency-Key was already used with another request body; use a new key for a new command"
            )
        return row["response"]

    def fire_deadline(self, game_id: uuid.UUID, version: int) -> bool:
        """Time out every seat to act, if the game is still where the deadline
        was set; a deadline that fires twice or late changes nothing."""
        seed = self.seed(game_id)

        def decide(rules, session):
            if session.version != version or session.status != sessions.ACTIVE:
                return Decision([], [])
            events, metadata = [], []
            current = session
            for seat in sorted(sessions.to_act(rules, session)):
                if current.status != sessions.ACTIVE or seat not in sessions.to_act(rules, current):
                    continue
                rng = rng_for(seed + b"/timeout", current.version)
                command = rules.on_timeout(current.state, seat, rng)
                batch = sessions.timed_out(rules, current, seat, command, rng_for(seed, current.version), seed)
                meta = decisions.metadata(SYSTEM, seat, command.to_json(), current.version, timeout=True)
                events += batch
                metadata += [meta] * len(batch)
                current = sessions.replay(rules, batch, current)
            return Decision(events, metadata)

        try:
            _, events = self.execute(game_id, decide, if_match=version)
        except PreconditionFailed:
            return False
        return bool(events)

    def score(self, game_id: uuid.UUID) -> bool:
        """Append the standings of a game that ended; nothing if already scored."""

        def decide(rules, session):
            if session.status != sessions.SCORING:
                return Decision([], [])
            events = sessions.scored(rules, session)
            return Decision(events, [decisions.metadata(SYSTEM, None, {"type": "ScoreGame"}, session.version)] * len(events))

        _, events = self.execute(game_id, decide)
        return bool(events)


__all__ = ["GameService", "Scheduler", "Decision", "parse_game_id", "stream_of"]
