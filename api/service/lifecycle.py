"""The command path for a seat's life: resign, abort, invites and
replacements, rematches, bots' moves, abandonment and clocks.

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
from domain.engine import IllegalCommand, rng_for
from domain.lifecycle import bots
from domain.lifecycle import clocks as clock_rules
from domain.lifecycle import decide as lifecycle
from domain.lifecycle.state import RematchCreated
from domain.session import SYSTEM, Session

from ..environment import env_number
from . import decisions
from .decisions import Decision
from .errors import (
    InvalidRequest,
    InviteInvalid,
    InviteSpent,
    NotPermitted,
    PreconditionFailed,
    SeatPlayedByBot,
    WrongStatus,
)

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
    """Mixed into GameService (which provides execute, load, seed, store, pool, scheduler)."""

    # Leaving a running game

    def resign(self, game_id: uuid.UUID, player: str) -> Session:
        seed = self.seed(game_id)

        def decide(rules, session):
            with refusals():
                events = lifecycle.resign(rules, session, player, seed)
            return _lifecycle_decision(player, session.seat_of(player), {"type": "ResignSeat"}, session, events)

        return self.execute(game_id, decide)[0]

    def abort(self, game_id: uuid.UUID, player: str) -> Session:
        def decide(rules, session):
            acted, _ = lifecycle.history(self.seat_history(game_id))
            with refusals():
                events = lifecycle.abort(session, player, acted)
            return _lifecycle_decision(player, session.seat_of(player), {"type": "AbortGame"}, session, events)

        return self.execute(game_id, decide)[0]

    def seat_history(self, game_id: uuid.UUID):
        """(seat, timed out, replaced) of each decision of a seat, in log order."""
        last = None
        for record in self.store.read_stream(f"game-{game_id}"):
            meta = record.metadata
            key = (meta.get("decided_at"), meta.get("seat"), meta.get("timeout"), meta.get("lifecycle"))
            if key == last:
                continue
            last = key
            command = (meta.get("command") or {}).get("type")
            if meta.get("lifecycle") and command != "RedeemInvite":
                continue
            yield meta.get("seat"), bool(meta.get("timeout")), command == "RedeemInvite"

    # Invites and replacements

    def invite(self, game_id: uuid.UUID, player: str, seat: str | None) -> tuple[Session, str]:
        """A new single-use code; only its sha256 is kept, so it is shown once."""
        code = "inv_" + secrets.token_urlsafe(18)

        def decide(rules, session):
            with refusals():
                events = lifecycle.issue_invite(session, player, seat, code)
            return _lifecycle_decision(player, session.seat_of(player), {"type": "IssueInvite", "seat": seat},
                                       session, events)

        return self.execute(game_id, decide)[0], code

    def redeem(self, game_id: uuid.UUID, player: str, code: str) -> Session:
        def decide(rules, session):
            with refusals():
                events = lifecycle.redeem(session, player, code)
            seat = next((e.seat for e in events if hasattr(e, "seat")), None)
            return _lifecycle_decision(player, seat, {"type": "RedeemInvite"}, session, events)

        return self.execute(game_id, decide)[0]

    # Rematch

    def rematch(self, game_id: uuid.UUID, player: str) -> uuid.UUID:
        """A new game like this one (new seed), its link appended to this one."""
        _, old = self.load(game_id)
        rules = self.rules_of(old.game)  # a rematch is played under the rules installed now
        seed = secrets.token_bytes(32)
        new_id = uuid.uuid4()
        with refusals():
            events = lifecycle.rematch(rules, old, player, str(game_id), seed)
        link = [RematchCreated(str(new_id))]

        def decide(rules, session):
            with refusals():
                lifecycle.rematch(rules, session, player, str(game_id), seed)  # still allowed now
            return _lifecycle_decision(player, session.seat_of(player), {"type": "CreateRematch"}, session, link)

        # The new game first, so that the link never names a game that does
        # not exist; should the link fail (another rematch raced this one),
        # the new game stays a lobby that no finished game points to.
        self._insert_game(new_id, rules, events, seed, player, {"type": "CreateRematch", "of": str(game_id)})
        self.execute(game_id, decide)
        return new_id

    # Bots

    def play_bots(self, game_id: uuid.UUID, version: int) -> bool:
        """Every seat a bot plays and that is to act moves, if the game is
        still at ``version``; a bot job that runs twice or late changes nothing."""
        seed = self.seed(game_id)

        def bot_move(rules, current, seat):
            kind = current.life.plays(seat)
            command = bots.decide_for(rules, current.state, seat, bots.make(rules.name, kind),
                                      bots.bot_rng(seed, seat, current.version))
            batch = sessions.play(rules, current, seat, command, rng_for(seed, current.version), seed)
            return batch, {**decisions.metadata(f"bot:{kind}", seat, command.to_json(), current.version), "bot": kind}

        return self.seat_by_seat(game_id, version, self.bots_to_act, bot_move)

    def seat_by_seat(self, game_id, version: int, seats_of, one_seat, afterwards=None) -> bool:
        """One decision for several seats at ``version`` (timeouts, bots):
        each seat still to act in turn moves on the state the previous left;
        nothing if the game moved since. ``afterwards`` may add a decision."""

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
                metadata += [meta] * len(batch)
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
        if session.status != sessions.ACTIVE:
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
        to_act = sessions.to_act(rules, session)
        clocks = session.life.clocks
        if not clock_rules.clocked(session.options) or clocks is None:
            return sorted(to_act)
        now = dt.datetime.now(dt.timezone.utc) + dt.timedelta(seconds=1)  # RQ fires on whole seconds
        deadlines = clock_rules.seat_deadlines(session.options, clocks, to_act, dt.datetime.fromisoformat(clocks.at))
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
        first = decision.metadata[0]
        moved_itself = not first.get("timeout") and not first.get("bot") and not first.get("lifecycle")
        tick = clock_rules.tick(
            after.options, before.life.clocks, after.seats, sessions.to_act(rules, before),
            sessions.to_act(rules, after), first.get("seat") if moved_itself else None,
            dt.datetime.now(dt.timezone.utc),
        )
        meta = {**decisions.metadata(SYSTEM, None, {"type": "ComputeClocks"}, before.version), "lifecycle": True}
        return Decision([*decision.events, tick], [*decision.metadata, meta])

    def deadline_of(self, session: Session, to_act) -> dt.datetime | None:
        deadlines = clock_rules.seat_deadlines(session.options, session.life.clocks, frozenset(to_act),
                                               dt.datetime.now(dt.timezone.utc))
        return min(deadlines.values()) if deadlines else None

    def check_may_command(self, session: Session, seat: str) -> None:
        if seat in session.life.resigned:
            raise SeatPlayedByBot(f"you resigned from this game; {'a bot plays ' + seat if session.life.plays(seat) else seat + ' takes no more turns'}")
        kind = session.life.plays(seat)
        if kind is not None:
            raise SeatPlayedByBot(f"a {kind} bot plays {seat} since you were timed out "
                           f"{session.options.get('abandon_after')} times in a row; ask the host for an invite code to take it back")
