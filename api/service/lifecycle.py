"""The command path for a seat's life: a contribution to the randomness in
the lobby, resign, abort, invites and replacements, rematches, bots' moves,
abandonment and clocks.

A mixin of ``GameService``: every decision here goes through its one write
path, ``execute`` (load, decide, append with the expected version, project,
schedule). Domain refusals become service errors with their status: 403 for
the wrong player or a forged code, 409 for the wrong status or a spent code,
422 for a request that makes no sense.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import secrets
import uuid
from typing import Any

from domain import session as sessions
from domain.engine import IllegalCommand
from domain.lifecycle import bots
from domain.lifecycle import clocks as clock_rules
from domain.lifecycle import decide as lifecycle
from domain.lifecycle.state import RematchCreated
from domain.session import SYSTEM, Session

from .settings import env_number
from . import decisions
from .decisions import Decision
from .idempotency import endpoint_request
from .errors import (
    ContributionMade,
    Forbidden,
    InvalidRequest,
    InviteInvalid,
    InviteSpent,
    NotPermitted,
    PreconditionFailed,
    SeatPlayedByBot,
    WrongStatus,
)

def new_invite_code() -> str:
    return "inv_" + secrets.token_urlsafe(18)


def bot_delay_seconds() -> float:
    """How long a bot waits before it moves (BOARDLOG_BOT_DELAY, seconds)."""
    return env_number("BOARDLOG_BOT_DELAY", 2.0, minimum=0, kind=float)


@contextlib.contextmanager
def refusals():
    """Domain refusals as service errors with the status that fits."""
    try:
        yield
    except lifecycle.InviteUnknown as error:
        raise InviteInvalid(error.message) from None
    except lifecycle.InviteSpent as error:
        raise InviteSpent(error.message) from None
    except lifecycle.NotAllowed as error:
        raise NotPermitted(error.message) from None
    except (lifecycle.NotNow, sessions.LobbyRefusal) as error:
        raise WrongStatus(error.message) from None
    except IllegalCommand as error:
        raise InvalidRequest(error.message) from None


@contextlib.contextmanager
def access_refusals():
    """Only the refusals of who may do something become 403s (a private
    lobby, a seat kept for a rematch's invitee); the rest stay as they were."""
    try:
        yield
    except lifecycle.NotAllowed as error:
        raise NotPermitted(error.message) from None


def _meta(actor: str, seat: str | None, command: dict, session: Session) -> dict:
    return {**decisions.metadata(actor, seat, command, session.version), "lifecycle": True}


def _lifecycle_decision(actor, seat, command, session, events) -> Decision:
    return Decision(events, [_meta(actor, seat, command, session)] * len(events))


class LifecycleCommands:
    """Mixed into GameService (which provides execute, load, seed, store, pool, scheduler, idempotency)."""

    # The lobby: a seat's contribution to the randomness

    def contribute(self, game_id: uuid.UUID, player: str, contribution: str) -> Session:
        """Recorded as SeedContributed (domain.session.contribute); the same
        contribution sent again appends nothing."""
        def decide(rules, session):
            try:
                events = sessions.contribute(session, player, contribution)
            except sessions.NotSeated as error:
                raise Forbidden(error.message) from None
            except sessions.ContributionMade as error:
                raise ContributionMade(error.message) from None
            except sessions.BadContribution as error:
                raise InvalidRequest(error.message) from None
            command = {"type": "ContributeRandomness", "contribution": contribution.lower()}
            return decisions.by(player, session.seat_of(player), command, session, events)

        return self.execute(game_id, decide)[0]

    # Leaving a running game

    def resign(self, game_id: uuid.UUID, player: str, in_transaction=None) -> Session:
        seed = self.seed(game_id)

        def decide(rules, session):
            with refusals():
                events = lifecycle.resign(rules, session, player, seed)
            return _lifecycle_decision(player, session.seat_of(player), {"type": "ResignSeat"}, session, events)

        return self.execute(game_id, decide, in_transaction=in_transaction)[0]

    def abort(self, game_id: uuid.UUID, player: str, in_transaction=None) -> Session:
        def decide(rules, session):
            acted, _ = lifecycle.history(self.seat_history(game_id))
            with refusals():
                events = lifecycle.abort(session, player, acted)
            return _lifecycle_decision(player, session.seat_of(player), {"type": "AbortGame"}, session, events)

        return self.execute(game_id, decide, in_transaction=in_transaction)[0]

    def seat_history(self, game_id: uuid.UUID):
        """(seat, timed out, replaced) of each decision of a seat, in log order."""
        last = None
        for record in self.store.read_stream(f"game-{game_id}"):
            meta = record.metadata
            if clock_rules.continues_missed_turn(meta):
                continue  # a later step of a timed-out turn: its deadline counted once, at its first step
            key = (meta.get("decided_at"), meta.get("seat"), meta.get("timeout"), meta.get("lifecycle"))
            if key == last:
                continue
            last = key
            command = (meta.get("command") or {}).get("type")
            if meta.get("lifecycle") and command != "RedeemInvite":
                continue
            yield meta.get("seat"), bool(meta.get("timeout")), command == "RedeemInvite"

    # Invites and replacements

    def invite(self, game_id: uuid.UUID, player: str, seat: str | None, in_transaction=None,
               code: str | None = None) -> tuple[Session, str]:
        """A new single-use code; only its sha256 is kept in the game, so it
        is shown once (and again only to a repeat of an Idempotency-Key)."""
        code = code or new_invite_code()

        def decide(rules, session):
            with refusals():
                events = lifecycle.issue_invite(session, player, seat, code)
            return _lifecycle_decision(player, session.seat_of(player), {"type": "IssueInvite", "seat": seat},
                                       session, events)

        return self.execute(game_id, decide, in_transaction=in_transaction)[0], code

    def redeem(self, game_id: uuid.UUID, player: str, code: str, in_transaction=None) -> Session:
        def decide(rules, session):
            with refusals():
                events = lifecycle.redeem(session, player, code)
            seat = next((e.seat for e in events if hasattr(e, "seat")), None)
            return _lifecycle_decision(player, seat, {"type": "RedeemInvite"}, session, events)

        return self.execute(game_id, decide, in_transaction=in_transaction)[0]

    # Rematch

    def rematch(self, game_id: uuid.UUID, player: str, in_transaction=None) -> uuid.UUID:
        """A new game like this one (new seed), its link appended to this one.

        One rematch per game: once the link is there, a second request (by
        any player, with no Idempotency-Key or another one) is a 409
        ``wrong-status`` naming the rematch there is; it creates nothing.
        The new game is created in the transaction that appends the link,
        so two requests that race cannot make two games either: the second
        append conflicts, its new game is rolled back with it, and it is
        decided again on the game that now has its rematch (that 409).
        ``in_transaction(conn, new_id)`` runs in that transaction too."""
        seed = self.seeds()
        new_id = uuid.uuid4()
        made: dict = {}

        def decide(rules, session):
            rules = self.rules_of(session.game)  # a rematch is played under the rules installed now
            with refusals():
                made["rules"], made["events"] = rules, lifecycle.rematch(rules, session, player, str(game_id), seed)
            return _lifecycle_decision(player, session.seat_of(player), {"type": "CreateRematch"}, session,
                                       [RematchCreated(str(new_id))])

        def create(conn, after, events):
            made["session"] = self._insert_game_on(conn, new_id, made["rules"], made["events"], seed, player,
                                                   {"type": "CreateRematch", "of": str(game_id)})
            if in_transaction is not None:
                in_transaction(conn, new_id)

        self.execute(game_id, decide, in_transaction=create)
        self._inserted(new_id, player, seed, made["session"])
        return new_id

    # The answers of the lifecycle POSTs, once per Idempotency-Key
    # (api/service/idempotency.py). ``shape(conn, game_id)`` is the game's
    # summary as the API answers it, read in the transaction of the events.

    def _with_receipt(self, answer: dict, game_id, session) -> dict:
        """A lifecycle answer (a game's summary) with the signed head of its version."""
        return {**answer, "receipt": self.heads.receipt_for(game_id, session)}

    def resign_once(self, game_id: uuid.UUID, player: str, key: str | None, shape) -> dict:
        return self.idempotency.once(player, game_id, key, endpoint_request("resign"),
                         lambda in_transaction: self.resign(game_id, player, in_transaction),
                         lambda conn, after, *_: self._with_receipt(shape(conn, game_id), game_id, after))

    def abort_once(self, game_id: uuid.UUID, player: str, key: str | None, shape) -> dict:
        return self.idempotency.once(player, game_id, key, endpoint_request("abort"),
                         lambda in_transaction: self.abort(game_id, player, in_transaction),
                         lambda conn, after, *_: self._with_receipt(shape(conn, game_id), game_id, after))

    def invite_once(self, game_id: uuid.UUID, player: str, seat: str | None, key: str | None) -> dict:
        """With a key, the answer (code included) is kept with the key for
        a repeat, until the sweeper forgets keys (BOARDLOG_IDEMPOTENCY_DAYS)."""
        code = new_invite_code()
        return self.idempotency.once(player, game_id, key, endpoint_request("invites", {"seat": seat}),
                         lambda in_transaction: self.invite(game_id, player, seat, in_transaction, code),
                         lambda conn, *_: {"game_id": str(game_id), "seat": seat, "code": code}, status=201)

    def redeem_once(self, game_id: uuid.UUID, player: str, code: str, key: str | None, shape) -> dict:
        return self.idempotency.once(player, game_id, key, endpoint_request("invites/redeem", {"code": code}),
                         lambda in_transaction: self.redeem(game_id, player, code, in_transaction),
                         lambda conn, after, *_: self._with_receipt(shape(conn, game_id), game_id, after))

    def rematch_once(self, game_id: uuid.UUID, player: str, key: str | None, shape) -> dict:
        """The new game's summary: a repeat of the key answers the same game."""
        return self.idempotency.once(player, game_id, key, endpoint_request("rematch"),
                         lambda in_transaction: self.rematch(game_id, player, in_transaction),
                         lambda conn, new_id: self._new_game_answer(shape(conn, new_id), new_id), status=201)

    def _new_game_answer(self, answer: dict, new_id) -> dict:
        """A rematch's summary with the head of the new game (created in this
        transaction under the chain version of new games, whose heads hide)."""
        return {**answer, "receipt": self.heads.receipt(new_id, answer["version"])}

    # Bots

    def play_bots(self, game_id: uuid.UUID, version: int) -> bool:
        """Every seat a bot plays and that is to act moves, if the game is
        still at ``version``; a bot job that runs twice or late changes nothing."""
        seed = self.seed(game_id)

        def bot_move(rules, current, seat):
            kind = current.life.plays(seat)
            draws = sessions.source(current, seed)
            command = bots.decide_for(rules, current.state, seat, bots.make(rules.name, kind),
                                      draws.bot(seat, current.version))
            batch = sessions.play(rules, current, seat, command, draws.game(current.version), seed)
            meta = decisions.metadata(f"bot:{kind}", seat, command.to_json(), current.version, draws=draws.draws())
            return batch, [{**meta, "bot": kind}] * len(batch)

        return self.seat_by_seat(game_id, version, self.bots_to_act, bot_move)

    def seat_by_seat(self, game_id, version: int, seats_of, one_seat, afterwards=None) -> bool:
        """One decision for several seats at ``version`` (timeouts, bots):
        each seat still to act in turn moves on the state the previous left;
        nothing if the game moved since. ``one_seat`` gives a seat's events
        and the metadata of each. ``afterwards`` may add a decision."""

        def decide(rules, session):
            if session.version != version or session.status != sessions.ACTIVE:
                return Decision([], [])
            events, metadata, current = [], [], session
            seats = seats_of(rules, session)
            for seat in seats:
                if current.status != sessions.ACTIVE or seat not in sessions.to_act(rules, current):
                    continue
                batch, meta = one_seat(rules, current, seat)
                events += batch
                metadata += meta
                current = sessions.replay(rules, batch, current)
            if afterwards is not None and current.status == sessions.ACTIVE:
                more = afterwards(rules, current, seats)
                events += more.events
                metadata += more.metadata
            return Decision(events, metadata)

        try:
            _, events = self.execute(game_id, decide, if_match=version)
        except PreconditionFailed:
            return False
        return bool(events)

    def bots_to_act(self, rules, session: Session) -> list[str]:
        if session.status != sessions.ACTIVE or session.life.paused:
            return []
        return sorted(seat for seat in sessions.to_act(rules, session) if session.life.plays(seat))

    def schedule_bots(self, game_id, rules, session: Session) -> None:
        if self.bots_to_act(rules, session):
            at = dt.datetime.now(dt.timezone.utc) + dt.timedelta(seconds=bot_delay_seconds())
            self.scheduler.schedule_bot(str(game_id), session.version, at)

    # Timeouts, abandonment and clocks

    def timed_out_seats(self, rules, session: Session) -> list[str]:
        """The seats whose deadline has passed: with clocks, each seat's own;
        without, every seat to act (they share the one deadline)."""
        if session.life.paused:
            return []  # a paused game has no deadlines
        away = frozenset(session.life.away)  # a seat away is never timed out
        to_act = sessions.to_act(rules, session) - away
        clocks = session.life.clocks
        if not clock_rules.clocked(session.options) or clocks is None:
            return sorted(to_act)
        now = self.clock() + dt.timedelta(seconds=1)  # RQ fires on whole seconds
        deadlines = clock_rules.seat_deadlines(session.options, clocks, to_act, dt.datetime.fromisoformat(clocks.at),
                                               away)
        return sorted(seat for seat, at in deadlines.items() if at <= now)

    def abandonment(self, game_id, rules, session: Session, timed_out: list[str]) -> Decision:
        """Seats abandoned by the timeouts just decided (``session`` is after them)."""
        if not session.options.get("abandon_after", lifecycle.DEFAULT_ABANDON_AFTER) or not timed_out:
            return Decision([], [])
        _, streak = lifecycle.history(self.seat_history(game_id))
        events = []
        for seat in timed_out:
            events += lifecycle.abandon(rules, session, seat, streak.get(seat, 0) + 1)
        return _lifecycle_decision(SYSTEM, None, {"type": "AbandonSeat"}, session, events)

    def with_clocks(self, rules, before: Session, decision: Decision) -> Decision:
        """Appends ClocksComputed to a decision of a game with clocks."""
        if not decision.events or not clock_rules.clocked(before.options):
            return decision
        after = sessions.replay(rules, decision.events, before)
        if after.status != sessions.ACTIVE:
            return decision
        # The mover's own batch (a SeatBack may go before it when acting ends an absence).
        first = next((meta for meta in decision.metadata if not meta.get("lifecycle")), decision.metadata[0])
        moved_itself = not first.get("timeout") and not first.get("bot") and not first.get("lifecycle")
        timed_out = frozenset(meta["seat"] for meta in decision.metadata if meta.get("timeout"))
        tick = clock_rules.tick(
            after.options, before.life.clocks, after.seats, sessions.to_act(rules, before),
            sessions.to_act(rules, after), first.get("seat") if moved_itself else None,
            self.clock(), timed_out=timed_out,
            away=self.stopped_clocks(after),
        )
        meta = {**decisions.metadata(SYSTEM, None, {"type": "ComputeClocks"}, before.version), "lifecycle": True}
        return Decision([*decision.events, tick], [*decision.metadata, meta])

    def stopped_clocks(self, session: Session) -> dict[str, dt.datetime]:
        """The seats whose clocks stand still, each since when: the seats away
        (since their absence began) and, in a paused game, every seat (from now)."""
        stopped = {seat: dt.datetime.fromisoformat(away.since) for seat, away in session.life.away.items()}
        if session.life.paused:
            now = self.clock()
            stopped = {seat: stopped.get(seat, now) for seat in session.seats}
        return stopped

    def deadline_of(self, session: Session, to_act) -> dt.datetime | None:
        away = session.life.away
        deadlines = [] if session.life.paused else list(clock_rules.seat_deadlines(
            session.options, session.life.clocks, frozenset(to_act), self.clock(), frozenset(away)).values())
        # A seat away is looked at again when its absence ends (SeatBack).
        deadlines += [dt.datetime.fromisoformat(a.until) for a in away.values()]
        return min(deadlines) if deadlines else None

    def check_may_command(self, session: Session, seat: str) -> None:
        if session.life.paused:
            raise WrongStatus("the game is paused by its players' agreement: nobody moves until one of them "
                              "resumes it (POST /v1/games/{id}/resume)", kind="game-paused")
        if seat in session.life.resigned:
            raise SeatPlayedByBot(f"you resigned from this game; {'a bot plays ' + seat if session.life.plays(seat) else seat + ' takes no more turns'}")
        kind = session.life.plays(seat)
        if kind is not None:
            raise SeatPlayedByBot(f"a {kind} bot plays {seat} since you were timed out "
                           f"{session.options.get('abandon_after')} times in a row; ask the host for an invite code to take it back")
