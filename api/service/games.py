"""The command path, written once: load, decide, append, project, schedule.

The HTTP views and the workers both go through ``GameService``; neither
touches the event store or the read models on its own.
"""

from __future__ import annotations

import datetime as dt
import logging
import pickle
import secrets
import threading
import uuid
from collections import OrderedDict
from typing import Any, Callable, Mapping

from domain import games as registry
from domain import engine
from domain import session as sessions
from domain.engine import DecodeError, Event
from domain.lifecycle import clocks as clock_rules
from domain.lifecycle import decide as lifecycle
from domain.session import SYSTEM, Session
from eventstore import WrongExpectedVersion

from . import readmodels
from . import decisions
from .decisions import Decision, Scheduler
from .idempotency import Idempotent
from .absences import AbsenceCommands
from .pause import PauseCommands
from .takebacks import TakebackCommands
from .lifecycle import LifecycleCommands, access_refusals
from .players import Players
from .receipts import Receipts, Signer
from .errors import (Conflict, DamagedHistory, Forbidden, InvalidRequest, NotFound, PreconditionFailed,
                     UnreadableHistory)

log = logging.getLogger("boardlog.service")

# Snapshots carry the engine's version of the Session shape in the upper digits
# and the game's own state version below, so a change of either ignores them.
SESSION_SHAPE = 7  # 2: Session.rules_version; 3: Session.life; 4: chain and randomness versions; 5: Life.left; 6: contributions; 7: Life.away, paused, takeback and Session.recent


def stream_of(game_id) -> str:
    return f"game-{game_id}"


def player_channel(player: str) -> str:
    """Announced (never stored) when a player takes a seat, so that the
    player's open streams start following that game."""
    return f"player-{player}"


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


class GameService(LifecycleCommands, AbsenceCommands, PauseCommands, TakebackCommands, Idempotent, Receipts):
    def __init__(self, store, scheduler: Scheduler | None = None, cache_size: int = 1024, snapshot_every: int = 200,
                 clock: Callable[[], dt.datetime] | None = None, signer: Signer | None = None):
        self.store = store
        # What "now" is for clocks and deadlines (tests let time pass with their own).
        self.clock = clock or (lambda: dt.datetime.now(dt.timezone.utc))
        self.pool = store.pool
        self.scheduler = scheduler or Scheduler()
        self.cache_size = cache_size
        self.snapshot_every = snapshot_every
        self._cache: OrderedDict[uuid.UUID, Session] = OrderedDict()
        self._seeds: dict[uuid.UUID, bytes] = {}
        self.players = Players(self.pool)
        self._lock = threading.Lock()
        self._init_receipts(signer)

    # Loading

    def rules_of(self, name: str):
        rules = registry.get(name)
        if rules is None:
            raise NotFound(f"no game called {name!r}; hosted games: {', '.join(sorted(registry.REGISTRY))}",
                           kind="unknown-game")
        return rules

    def rules_of_stream(self, records):
        """The rules a stored game was created under (its first record), for ever."""
        try:
            created = sessions.created_from_stored(records[0].schema_version, records[0].data)
        except Exception as error:  # a changed first row, or a version this installation lacks
            raise self._unreadable(records[0], error) from error
        rules = registry.rules_for(created)
        if rules is None:
            raise NotFound(f"no game called {created.game!r}; hosted games: {', '.join(sorted(registry.REGISTRY))}")
        return rules

    def rules_of_session(self, session: Session):
        return registry.rules_at(session.game, session.rules_version)

    def load(self, game_id: uuid.UUID, trust_known: bool = False) -> tuple[Any, Session]:
        """The current session: cached or snapshot state, then the tail of
        events, so that a read follows every commit before it, whichever
        process made it. With ``trust_known``, a session this process holds at
        the version it knows the game to be at (eventstore/versions.py) is
        taken without a query: for a decision, whose append refuses a stale
        version anyway and is then taken again on a fresh load."""
        with self._lock:
            session = self._cache.get(game_id)
        stream = stream_of(game_id)
        rules = self.rules_of_session(session) if session else None
        if session is not None and trust_known and self.store.known_version(stream) == session.version:
            return rules, session
        if session is None:
            records = self.store.read_stream(stream, 1, 1)
            if not records:
                raise NotFound(f"no game {game_id}")
            rules = self.rules_of_stream(records)
            session = self._from_snapshot(stream, rules)
        tail = self.store.read_stream(stream, (session.version if session else 0) + 1)
        session = self._fold(rules, session, tail)
        if tail:
            self.note_heads(game_id, [(tail[-1].version, tail[-1].hash)])
        self._remember(game_id, session)
        return rules, session

    def cached(self, game_id: uuid.UUID) -> tuple[Any, Session] | None:
        """The newest session this process holds, without a query (may be behind)."""
        with self._lock:
            session = self._cache.get(game_id)
        return (self.rules_of(session.game), session) if session is not None else None

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
        rules = self.rules_of_stream(records)
        self.note_heads(game_id, [(version, records[version - 1].hash)])
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
            try:
                event = sessions.decode_stored(rules, record.type, record.schema_version, record.data)
                session = sessions.evolve(rules, session, event)
            except Exception as error:  # whatever a changed row makes decoding or folding raise
                raise self._unreadable(record, error) from error
        return session

    def _unreadable(self, record, error: Exception) -> Exception:
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
        unless the caller pinned the version with If-Match. A refusal on the
        session this process holds at the version it knows is judged again
        on the stored state when that moved on: another process's commit may
        not have been heard of yet, and read-your-writes must hold across
        processes (a join answered by one, then a start refused by the other)."""
        for attempt in (1, 2):
            # If-Match is judged against the stored version, never a known one.
            trusted = attempt == 1 and if_match is None
            rules, session = self.load(game_id, trust_known=trusted)
            if if_match is not None and session.version != if_match:
                raise PreconditionFailed(
                    f"the game is at version {session.version}, not {if_match}", version=session.version
                )
            try:
                decision = self.with_clocks(rules, session, decide(rules, session))
            except Exception:
                if trusted and self.store.stream_version(stream_of(game_id)) != session.version:
                    continue  # decided on a state behind the stored one: judge it on that
                raise
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
            self._schedule(game_id, rules, after, deadline)
            return after, decision.events
        raise AssertionError("unreachable")

    def _commit(self, game_id, rules, before: Session, after: Session, decision: Decision, in_transaction):
        """Append and project in one transaction; the deadline set, if any."""
        to_act = sessions.to_act(rules, after)
        metadata = decisions.with_notice_facts(decision.events, decision.metadata, after,
                                               sessions.to_act(rules, before), to_act)
        if after.chain_version >= 2:
            metadata = decisions.with_salts(metadata, after, self.seed(game_id), before.version + 1)
        new_events = [decisions.new_event(event, meta) for event, meta in zip(decision.events, metadata)]
        deadline = self._deadline(after, to_act)
        stream = stream_of(game_id)
        try:
            with self.pool.connection() as conn, conn.transaction():
                # NOTIFY inside the transaction would make concurrent commits wait
                # for each other; the store announces the new version once committed.
                self.store.append(stream, new_events, before.version, conn=conn, announce_later=True)
                # Before the answer is shaped (in_transaction), which carries the new head.
                self.appended_heads(game_id, stream, before.version, new_events, conn)
                readmodels.project(conn, game_id, after, decision.events, to_act, deadline)
                if in_transaction:
                    in_transaction(conn, after, decision.events)
                if after.version // self.snapshot_every > before.version // self.snapshot_every:
                    self.store.save_snapshot(
                        stream, after.version, self._snapshot_version(rules), pickle.dumps(after), conn=conn
                    )
        except BaseException:
            self.forget_heads(game_id, range(before.version + 1, after.version + 1))  # never committed
            raise
        self.store.announce(stream, after.version)
        return deadline

    def _deadline(self, session: Session, to_act) -> dt.datetime | None:
        """The earliest deadline of a seat to act (see domain.lifecycle.clocks)."""
        return self.deadline_of(session, to_act) if to_act else None

    def _schedule(self, game_id, rules, session: Session, deadline: dt.datetime | None) -> None:
        try:
            if session.status == sessions.SCORING:
                self.scheduler.schedule_scoring(str(game_id))
            elif deadline is not None:
                self.scheduler.schedule_deadline(str(game_id), session.version, deadline)
            self.schedule_bots(game_id, rules, session)
        except Exception:  # the sweeper re-creates what was not scheduled
            log.exception("could not schedule jobs for game %s; the sweeper will", game_id)

    # Lobby

    def create(self, player: str, game: str, options: Mapping[str, Any] | None, seat: str | None) -> uuid.UUID:
        rules = self.rules_of(game)
        seed = secrets.token_bytes(32)
        events = lifecycle.create(rules, player, options, seed, seat)
        game_id = uuid.uuid4()
        self._insert_game(game_id, rules, events, seed, player, {"type": "CreateGame", "game": game, "seat": seat})
        return game_id

    def _insert_game(self, game_id, rules, events, seed: bytes, player: str, command: dict) -> None:
        with self.pool.connection() as conn, conn.transaction():
            session = self._insert_game_on(conn, game_id, rules, events, seed, player, command)
        self._inserted(game_id, player, seed, session)

    def _insert_game_on(self, conn, game_id, rules, events, seed: bytes, player: str, command: dict) -> Session:
        """A new game's rows and first events, in the caller's transaction;
        once it commits, the caller calls ``_inserted``."""
        session = sessions.replay(rules, events)
        meta = decisions.metadata(player, None, command, 0)
        metadata = decisions.with_salts(decisions.with_notice_facts(events, [meta] * len(events), session, (), ()),
                                        session, seed, 1)
        new_events = [decisions.new_event(e, m) for e, m in zip(events, metadata)]
        readmodels.insert_game(conn, game_id, session, seed)
        self.store.append(stream_of(game_id), new_events, 0, conn=conn, announce_later=True)
        self.appended_heads(game_id, stream_of(game_id), 0, new_events, conn)
        readmodels.project(conn, game_id, session, events, frozenset(), None)
        return session

    def _inserted(self, game_id, player: str, seed: bytes, session: Session) -> None:
        self.store.announce(stream_of(game_id), session.version)
        self.store.announce(player_channel(player), session.version)
        self._keep_seed(game_id, seed)
        self._remember(game_id, session)

    def join(self, game_id: uuid.UUID, player: str, seat: str | None) -> Session:
        command = {"type": "JoinGame", "seat": seat}

        def decide(rules, session):
            with access_refusals():
                return decisions.by(player, None, command, session, lifecycle.join(session, player, seat))

        session = self.execute(game_id, decide)[0]
        self.store.announce(player_channel(player), session.version)
        return session

    def leave(self, game_id: uuid.UUID, player: str) -> Session:
        command = {"type": "LeaveGame"}
        return self.execute(game_id, lambda rules, s: decisions.by(player, None, command, s, sessions.leave(s, player)))[0]

    def start(self, game_id: uuid.UUID, player: str) -> Session:
        seed = self.seed(game_id)
        command = {"type": "StartGame"}

        def decide(rules, session):
            draws = sessions.source(session, seed)
            events = sessions.start(rules, session, player, draws.game(session.version))
            return decisions.by(player, None, command, session, events, draws.draws())

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
        for a repeat of the same request (api/service/idempotency.py)."""
        seed = self.seed(game_id)

        def decide(rules, session):
            seat = session.seat_of(player)
            if seat is None:
                raise Forbidden("you hold no seat in this game; spectators cannot send commands")
            self.check_may_command(session, seat)
            try:
                command = rules.decode_command(command_json)
            except (DecodeError, TypeError) as error:
                raise InvalidRequest(str(error)) from None
            returned, current = self.returned_before(rules, session, seat)  # acting ends an absence
            draws = sessions.source(current, seed)
            events = sessions.play(rules, current, seat, command, draws.game(current.version), seed)
            move = decisions.by(player, seat, command.to_json(), current, events, draws.draws())
            return Decision(returned.events + move.events, returned.metadata + move.metadata)

        self.back_on_acting(player)

        def answer(conn, session, events):
            return respond(session, events, session.seat_seen_by(player)) if respond else {"version": session.version}

        # The command's JSON alone is what is hashed (with the game), as it
        # was before other requests took keys, so remembered keys still answer.
        return self.once(player, game_id, idempotency_key, command_json,
                         lambda in_transaction: self.execute(game_id, decide, if_match, in_transaction), answer)

    def fire_deadline(self, game_id: uuid.UUID, version: int) -> bool:
        """Time out every seat whose deadline passed, if the game is still
        where the deadline was set; a deadline that fires twice or late
        changes nothing. One deadline is one missed turn: the seat's whole
        turn is played out with ``on_timeout``, step after step, until it is
        over (``clocks.turn_goes_on``), and it counts once towards
        ``abandon_after``. Seats timed out too often in a row are abandoned."""
        seed = self.seed(game_id)
        if self.mark_absences(game_id, version):
            return True  # seats away or back: the deadlines that follow are set anew

        def time_out(rules, current, seat):
            events, metadata = [], []
            for step in range(1, clock_rules.MOST_STEPS_OF_A_TIMED_OUT_TURN + 1):
                draws = sessions.source(current, seed)  # each step is a decision of its own, at its own version
                command = rules.on_timeout(current.state, seat, draws.timeout(current.version))
                batch = sessions.timed_out(rules, current, seat, command, draws.game(current.version), seed)
                meta = decisions.metadata(SYSTEM, seat, command.to_json(), current.version, timeout=True,
                                          draws=draws.draws())
                if step > 1:  # the same missed turn: not counted again, nobody told again
                    meta["timeout_step"] = step
                events += batch
                metadata += [meta] * len(batch)
                before = sessions.to_act(rules, current)
                current = sessions.replay(rules, batch, current)
                if current.status != sessions.ACTIVE or not clock_rules.turn_goes_on(
                        seat, before, sessions.to_act(rules, current)):
                    break
            return events, metadata

        return self.seat_by_seat(game_id, version, self.timed_out_seats, time_out,
                                 lambda rules, current, seats: self.abandonment(game_id, rules, current, seats))

    def score(self, game_id: uuid.UUID) -> bool:
        """Append the standings of a game that ended; nothing if already scored."""

        def decide(rules, session):
            if session.status != sessions.SCORING:
                return Decision([], [])
            events = lifecycle.scored(rules, session)
            return Decision(events, [decisions.metadata(SYSTEM, None, {"type": "ScoreGame"}, session.version)] * len(events))

        _, events = self.execute(game_id, decide)
        return bool(events)


__all__ = ["GameService", "Scheduler", "Decision", "parse_game_id", "player_channel", "stream_of"]
