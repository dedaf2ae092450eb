"""The command path, written once: load, decide, append, project, schedule.

The HTTP views and the workers both go through ``GameService``; neither
touches the event store or the read models on its own. Loading a game's
history (cache, snapshot, tail; the game at an earlier version) is
``History``'s (api/service/history.py); the chain heads and receipts are
``ChainHeads``' (api/service/receipts.py); both are handed in, not mixed in.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
import uuid
from typing import Any, Callable, Mapping

from domain import session as sessions
from domain.engine import DecodeError, Event
from domain.lifecycle import clocks as clock_rules
from domain.lifecycle import decide as lifecycle
from domain.lifecycle.state import LIFECYCLE_EVENTS, SeatReplaced
from domain.session import SYSTEM, SeatLeft, SeatTaken, Session
from eventstore import CommandRows, WrongExpectedVersion

from . import readmodels
from . import decisions
from .decisions import Decision, Scheduler
from .idempotency import NEW_GAMES, IdempotencyKeys, endpoint_request, request_sha256
from .absences import Absences
from .agreements import Agreements
from .pause import Pauses
from .takebacks import Takebacks
from .lifecycle import SeatLife, access_refusals, check_may_command
from .bots import Bots
from .clocks import Clocks
from .players import Players
from . import reminders as reminder_rules
from .reminders import Reminders
from .player_names import PlayerNames
from .receipts import ChainHeads, Signer
from . import history
from .history import History, stream_of
from .appended import AppendedHere
from .seeds import SeedSource, secret_seeds
from .errors import Conflict, Forbidden, InvalidRequest, NotFound, PreconditionFailed

log = logging.getLogger("boardlog.service")


def player_channel(player: str) -> str:
    """Announced (never stored) when a player takes a seat, so that the
    player's open streams start following that game."""
    return f"player-{player}"


def parse_game_id(text: str) -> uuid.UUID:
    try:
        return uuid.UUID(str(text))
    except ValueError:
        raise NotFound(f"no game {text!r}") from None


class Along:
    """What a player's accepted command writes in the statement of its
    events: the end of his absence running ``now`` and, with a key, the
    key's record of the answer ``answer(session, events)`` shapes. After
    the commit: ``answer``, and ``ended``, how many absences it ended."""

    def __init__(self, player: str, now: dt.datetime, answer: Callable[[Session, list[Event]], dict],
                 key: dict | None):
        self.player, self.now, self._answer, self._key = player, now, answer, key
        self.answer: dict = {}
        self.ended = 0

    def rows_of(self, rows: CommandRows, after: Session, events: list[Event]) -> CommandRows:
        self.answer = self._answer(after, events)  # shaped anew for each attempt
        key = None
        if self._key is not None:
            # Not a copy of the answer: what the command produced, from which
            # ``GameService.answer_again`` shapes it again (migration 0117).
            receipt = self.answer.get("receipt") or {}
            key = {**self._key, "first": after.version - len(events) + 1, "last": after.version,
                   "signed_by": receipt.get("key_id"), "signature": receipt.get("signature")}
        return dataclasses.replace(rows, back_player=self.player, now=self.now, key=key)


def _command_rows(game_id, after: Session, events, to_act, deadline) -> CommandRows:
    """The read-model rows of a commit (as readmodels.project writes them)."""
    seats = []
    for event in events:
        if isinstance(event, SeatTaken):
            seats.append({"op": "take", "seat": event.seat, "player": str(event.player)})
        elif isinstance(event, SeatLeft):
            seats.append({"op": "leave", "seat": event.seat})
        elif isinstance(event, SeatReplaced):
            seats.append({"op": "replace", "seat": event.seat, "player": str(event.player)})
    life = None
    if any(isinstance(event, LIFECYCLE_EVENTS) for event in events):
        rematch = after.life.rematch
        life = {"bots": dict(after.life.bots), "visibility": after.options.get("visibility", "public"),
                "rematch": None if rematch is None else str(rematch)}
    return CommandRows(game_id, after.status, after.host, sorted(to_act), deadline, after.outcome,
                       seats=seats or None, life=life)


class GameService:
    """``history`` loads games (api/service/history.py); ``heads`` knows and
    signs the chain head after each version (api/service/receipts.py); ``seeds`` gives each
    new game its seed (api/service/seeds.py); ``clock`` says what "now" is
    for clocks and deadlines (tests let time pass with their own).

    The families of commands are collaborators the service holds, each
    given ``execute`` and what else it needs: ``seat_life`` (resign, abort,
    invites, rematch: api/service/lifecycle.py), ``bots``, ``clocks``
    (deadlines, missed turns, abandonment), ``absences``, ``pauses``,
    ``takebacks``; ``idempotency`` answers a request once per key."""

    def __init__(self, store, scheduler: Scheduler | None = None, cache_size: int = 1024, snapshot_every: int = 200,
                 clock: Callable[[], dt.datetime] | None = None, signer: Signer | None = None,
                 seeds: SeedSource = secret_seeds):
        self.store = store
        self.clock = clock or (lambda: dt.datetime.now(dt.timezone.utc))
        self.pool = store.pool
        self._scheduler = scheduler or Scheduler()
        self.seeds = seeds
        self.cache_size = cache_size
        self.players = Players(self.pool, notices=store)
        self.player_names = PlayerNames(self.pool)
        self.signer = signer or Signer(self.pool)
        self.heads = ChainHeads(store, self.signer, cache_size)
        self.history = History(store, self.heads.note_heads, cache_size, snapshot_every)
        self.appended = AppendedHere()  # this process's streams show its own moves without reading them back
        self.idempotency = IdempotencyKeys(self.pool)
        self.pauses = Pauses(self.execute)
        self.agreements = Agreements(self.execute, self.seed)
        self.takebacks = Takebacks(self.execute, store, self.current_version)
        self.absences = Absences(self.pool, self.clock, self._scheduler, self.execute)
        self.seat_life = SeatLife(execute=self.execute, seed=self.seed, store=store, heads=self.heads,
                                  once=self.idempotency.once, seeds=seeds, insert_on=self._insert_game_on,
                                  inserted=self._inserted)
        self.bots = Bots(self.execute, self.seed, self._scheduler)
        self.clocks = Clocks(self.clock, self.seat_life.seat_history)
        self.reminders = Reminders(self.pool, store, self.clock, self.seat_life.seat_history)

    @property
    def scheduler(self) -> Scheduler:
        return self._scheduler

    @scheduler.setter
    def scheduler(self, scheduler: Scheduler) -> None:
        # A running service may be handed another scheduler (tests do): its collaborators schedule there too.
        self._scheduler = self.absences.scheduler = self.bots.scheduler = scheduler

    # Reading: the loader's, asked through the service by the views and workers

    def rules_of(self, name: str):
        return history.rules_of(name)

    def rules_of_stream(self, records):
        return self.history.rules_of_stream(records)

    def rules_of_session(self, session: Session):
        return history.rules_of_session(session)

    def load(self, game_id: uuid.UUID, trust_known: bool = False,
             keep_tail: Callable[[list], None] | None = None) -> tuple[Any, Session]:
        return self.history.load(game_id, trust_known, keep_tail)

    def load_for_reading(self, game_id: uuid.UUID) -> tuple[Any, Session]:
        return self.history.load_for_reading(game_id)

    def cached(self, game_id: uuid.UUID) -> tuple[Any, Session] | None:
        return self.history.cached(game_id)

    def load_at(self, game_id: uuid.UUID, version: int) -> tuple[Any, Session]:
        return self.history.load_at(game_id, version)

    def game_of(self, game_id: uuid.UUID) -> str:
        return self.history.game_of(game_id)

    def current_version(self, game_id: uuid.UUID) -> int:
        return self.history.current_version(game_id)

    def seed(self, game_id: uuid.UUID) -> bytes:
        return self.history.seed(game_id)

    # The one write path

    def execute(
        self,
        game_id: uuid.UUID,
        decide: Callable[[Any, Session], Decision],
        if_match: int | None = None,
        in_transaction: Callable[[Any, Session, list[Event]], None] | None = None,
        along: "Along | None" = None,
    ) -> tuple[Session, list[Event]]:
        """Decide on the current state and append with the version decided on.
        On a conflict the decision is taken again once on the fresh state,
        unless the caller pinned the version with If-Match. A refusal on the
        session this process holds at the version it knows is judged again
        on the stored state when that moved on: another process's commit may
        not have been heard of yet, and read-your-writes must hold across
        processes (a join answered by one, then a start refused by the other).

        ``along``: what a player's command writes with its events (``Along``),
        in the same statement; without ``in_transaction``, reminders or a
        snapshot to write, the whole commit is that one statement."""
        for attempt in (1, 2):
            # The first attempt decides on the session this process holds at the version it knows, without a
            # query; the statement's version check is the stored one's. If-Match is refused only on the stored
            # version: a known one that differs may be behind, and one that matches may be past, which the
            # append then finds (and the second attempt reads the stored version to say so).
            trusted = attempt == 1
            rules, session = self.load(game_id, trust_known=trusted)
            if if_match is not None and session.version != if_match:
                if trusted:
                    continue
                raise PreconditionFailed(
                    f"the game is at version {session.version}, not {if_match}", version=session.version
                )
            try:
                decision = self.clocks.with_clocks(rules, session, decide(rules, session))
            except Exception:
                if trusted and self.store.stream_version(stream_of(game_id)) != session.version:
                    continue  # decided on a state behind the stored one: judge it on that
                raise
            if not decision.events:
                # Nothing to do on a state this process knew may be nothing to do
                # yet: a worker's job (a score, the bots' move) comes right after
                # another process's commit that this one has not heard of.
                if trusted and self.store.stream_version(stream_of(game_id)) != session.version:
                    continue
                return session, []
            after = sessions.replay(rules, decision.events, session)
            try:
                deadline = self._commit(game_id, rules, session, after, decision, in_transaction, along)
            except WrongExpectedVersion:
                if trusted:
                    continue  # decided on a version the store had left: judged again on the stored one
                if if_match is not None:
                    raise PreconditionFailed(f"the game moved past version {if_match}") from None
                raise Conflict("the game moved twice while deciding; send the command again") from None
            self.history.remember(game_id, after)
            self._schedule(game_id, rules, after, deadline)
            return after, decision.events
        raise AssertionError("unreachable")

    def _commit(self, game_id, rules, before: Session, after: Session, decision: Decision, in_transaction,
                along: "Along | None" = None):
        """Append and project in one statement (``boardlog_command``, migration
        0117), or, when more is written with it (reminders, a snapshot,
        ``in_transaction``), in one transaction of which it is the first
        statement; the deadline set, if any."""
        to_act = sessions.to_act(rules, after)
        metadata = decisions.with_notice_facts(decision.events, decision.metadata, after,
                                               sessions.to_act(rules, before), to_act)
        if after.chain_version >= 2:
            metadata = decisions.with_salts(metadata, after, self.seed(game_id), before.version + 1)
        new_events = [decisions.new_event(event, meta) for event, meta in zip(decision.events, metadata)]
        deadline = self._deadline(after, to_act)
        stream = stream_of(game_id)
        rows = _command_rows(game_id, after, decision.events, to_act, deadline)
        more = in_transaction is not None or reminder_rules.timed(after.options) \
            or self.history.snapshot_due(before, after)
        try:
            with self.pool.connection() as conn:
                # Before the answer is shaped (along), which carries the new head; the
                # links are computed here as the statement will store them.
                links = self.heads.appended_heads(game_id, stream, before.version, new_events, conn)
                if along is not None:
                    rows = along.rows_of(rows, after, decision.events)
                if not more:
                    # Autocommit: one statement, its own transaction, no BEGIN or COMMIT.
                    appended = self.store.append_command(stream, new_events, before.version, rows, conn=conn)
                    self.appended.keep(game_id, stream, new_events, links, appended.recorded_at)
                else:
                    with conn.transaction():
                        # NOTIFY inside the transaction would make concurrent commits wait
                        # for each other; the store announces the new version once committed.
                        appended = self.store.append_command(stream, new_events, before.version, rows, conn=conn,
                                                             announce_later=True)
                        reminder_rules.project(conn, game_id, rules, after, to_act, decision.metadata, self.clock())
                        if in_transaction:
                            in_transaction(conn, after, decision.events)
                        if self.history.snapshot_due(before, after):
                            self.history.snapshot(stream, rules, after, conn)
                    self.appended.keep(game_id, stream, new_events, links, appended.recorded_at)  # committed
                    self.store.announce(stream, after.version)
        except BaseException:
            self.heads.forget_heads(game_id, range(before.version + 1, after.version + 1))  # never committed
            raise
        if along is not None:
            along.ended = appended.ended
        return deadline

    def _deadline(self, session: Session, to_act) -> dt.datetime | None:
        """The earliest deadline of a seat to act (see domain.lifecycle.clocks)."""
        return self.clocks.deadline_of(session, to_act) if to_act else None

    def _schedule(self, game_id, rules, session: Session, deadline: dt.datetime | None) -> None:
        try:
            if session.status == sessions.SCORING:
                self.scheduler.schedule_scoring(str(game_id))
            elif deadline is not None:
                self.scheduler.schedule_deadline(str(game_id), session.version, deadline)
            self.bots.schedule_bots(game_id, rules, session)
            if session.status == sessions.ACTIVE and reminder_rules.timed(session.options):
                self.reminders.schedule(game_id, self.scheduler)
        except Exception:  # the sweeper re-creates what was not scheduled
            log.exception("could not schedule jobs for game %s; the sweeper will", game_id)

    # Lobby

    def create(self, player: str, game: str, options: Mapping[str, Any] | None, seat: str | None,
               in_transaction: Callable[..., None] | None = None) -> uuid.UUID:
        """A new game in its lobby; ``in_transaction(conn, game_id)`` is
        called in the transaction of its first events (create_once's answer)."""
        rules = self.rules_of(game)
        seed = self.seeds()
        events = lifecycle.create(rules, player, options, seed, seat)
        game_id = uuid.uuid4()
        command = {"type": "CreateGame", "game": game, "seat": seat}
        with self.pool.connection() as conn, conn.transaction():
            session = self._insert_game_on(conn, game_id, rules, events, seed, player, command)
            if in_transaction is not None:
                in_transaction(conn, game_id)
        self._inserted(game_id, player, seed, session)
        return game_id

    def create_once(self, player: str, body: Mapping[str, Any], options: Mapping[str, Any] | None,
                    key: str | None, respond: Callable[..., dict]) -> dict:
        """``create`` at most once per Idempotency-Key: a web client that
        lost the answer sends the same request again with the same key and
        must get the game it made, not a second one. A new game has no id
        yet to scope its key by, so such keys are the player's among his
        new games (idempotency.NEW_GAMES); ``body`` is the request as sent."""
        return self.idempotency.once(
            player, NEW_GAMES, key, endpoint_request("games", dict(body)),
            lambda in_transaction: self.create(player, body["game"], options, body.get("seat"), in_transaction),
            respond, status=201)

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
        self.heads.appended_heads(game_id, stream_of(game_id), 0, new_events, conn)
        readmodels.project(conn, game_id, session, events, frozenset(), None)
        return session

    def _inserted(self, game_id, player: str, seed: bytes, session: Session) -> None:
        self.store.announce(stream_of(game_id), session.version)
        self.store.announce(player_channel(player), session.version)
        self.history.keep_seed(game_id, seed)
        self.history.remember(game_id, session)

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
        for a repeat of the same request (api/service/idempotency.py). The
        events, the game's row, the end of the player's absence and the key's
        record are one statement (``Along``)."""
        seed = self.seed(game_id)

        def decide(rules, session):
            seat = session.seat_of(player)
            if seat is None:
                raise Forbidden("you hold no seat in this game; spectators cannot send commands")
            check_may_command(session, seat)
            try:
                command = rules.decode_command(command_json)
            except (DecodeError, TypeError) as error:
                raise InvalidRequest(str(error)) from None
            returned, current = self.absences.returned_before(rules, session, seat)  # acting ends an absence
            draws = sessions.source(current, seed)
            events = sessions.play(rules, current, seat, command, draws.game(current.version), seed)
            move = decisions.by(player, seat, command.to_json(), current, events, draws.draws())
            return Decision(returned.events + move.events, returned.metadata + move.metadata)

        def answer(session, events):
            return respond(session, events, session.seat_seen_by(player)) if respond else {"version": session.version}

        # The command's JSON alone is what is hashed (with the game), as it
        # was before other requests took keys, so remembered keys still answer.
        digest = request_sha256(game_id, command_json)
        along = Along(player, self.clock(), answer, None if idempotency_key is None else {
            "player": player, "game": str(game_id), "unscoped": readmodels.UNSCOPED, "key": idempotency_key,
            "sha256": digest.hex(), "status": 200})  # JSON carries it as hex; boardlog_command stores its bytes
        try:
            self.execute(game_id, decide, if_match, along=along)
        except Exception as error:
            earlier = self.idempotency.answer_of_repeat(player, game_id, idempotency_key, digest, error,
                                                        lambda row: self.answer_again(game_id, row, answer))
            if earlier is None:
                raise
            return earlier
        if along.ended:
            self.absences.back_on_acting_committed(player, along.now)
        return along.answer

    def answer_again(self, game_id: uuid.UUID, row: Mapping[str, Any],
                     answer: Callable[[Session, list[Event]], dict]) -> dict:
        """The answer of a command whose key's record (``row``) keeps what it
        produced, not its answer: ``answer`` shapes it again from the game
        at the command's last version and the events it appended, as it did
        then; the receipt it carried keeps the key and signature it had then
        (a key rotated since signs no more). Stored events never change, nor
        does a player's name, so this is the first answer, byte for byte."""
        first, last = row["first_version"], row["last_version"]
        rules, session = self.history.load_at(game_id, last)
        records = self.store.read_stream(stream_of(game_id), first, last, metadata=False)
        events = [sessions.decode_stored(rules, record.type, record.schema_version, record.data) for record in records]
        shaped = answer(session, events)
        if row["signed_by"] is not None and shaped.get("receipt"):
            shaped["receipt"] = {**shaped["receipt"], "key_id": row["signed_by"],
                                 "signature": bytes(row["signature"]).hex(),
                                 "public_key": self.signer.public_key(row["signed_by"])}
        return shaped

    def fire_deadline(self, game_id: uuid.UUID, version: int) -> bool:
        """Time out every seat whose deadline passed, if the game is still
        where the deadline was set; a deadline that fires twice or late
        changes nothing. One deadline is one missed turn: the seat's whole
        turn is played out with ``on_timeout``, step after step, until it is
        over (``clocks.turn_goes_on``), and it counts once towards
        ``abandon_after``. Seats timed out too often in a row are abandoned."""
        seed = self.seed(game_id)
        if self.absences.mark_absences(game_id, version):
            return True  # seats away or back: the deadlines that follow are set anew
        if self.absences.spend_before_timeout(game_id, version, self.clocks.timed_out_seats):
            return True  # a day of absence spent instead: the seat is away, its deadline set anew

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

        def abandonment(rules, current, seats):
            return self.clocks.abandonment(game_id, rules, current, seats)

        return self.bots.seat_by_seat(game_id, version, self.clocks.timed_out_seats, time_out, abandonment)

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
