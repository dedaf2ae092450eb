"""Time in a running game: the deadline of the seats to act, the seats
whose deadline passed, the abandonment that too many missed turns in a row
lead to, and the clocks' banks (``ClocksComputed``, domain.lifecycle.clocks),
with the seats away and a paused game's seats standing still.

``GameService`` holds one ``Clocks`` as ``clocks``; its one write path
appends the clocks to every decision (``with_clocks``) and sets the
deadline it answers (``deadline_of``).
"""

from __future__ import annotations

import datetime as dt

from domain import session as sessions
from domain.lifecycle import clocks as clock_rules
from domain.lifecycle import decide as lifecycle
from domain.lifecycle.state import TimeGiven
from domain.session import SYSTEM, Session

from . import decisions
from .decisions import Decision
from .lifecycle import lifecycle_decision


class Clocks:
    """``clock`` says what "now" is; ``seat_history(game_id)`` gives each
    seat's decisions, in log order, for the missed turns in a row."""

    def __init__(self, clock, seat_history):
        self.clock = clock
        self.seat_history = seat_history

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
        return lifecycle_decision(SYSTEM, None, {"type": "AbandonSeat"}, session, events)

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
            away=self.stopped_clocks(after), taken_back=decision.banks_taken_back,
            resumed=before.life.turn_used if before.life.paused and not after.life.paused else None,
            given={event.to_seat: event.seconds for event in decision.events if isinstance(event, TimeGiven)},
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
