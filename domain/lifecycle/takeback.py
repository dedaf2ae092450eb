"""Takebacks with consent: a seat asks to take back its last decision, the
other seats a player plays accept or refuse, and when every one of them has
accepted the game returns to the version before that decision (TakenBack:
the state re-folded from the history up to there; the log only grows).

What may be taken back is derived from the decision's own record, for
every game alike: only the asking seat's own move (not a timeout, a bot's
move or a seat-life decision), with nothing but clocks, absences and pause
asks after it (no other seat has acted since); that drew no randomness (its
metadata lists no ``draws``; games of randomness version 1 list none, so
they take no takebacks); and whose every event each seat and a spectator
see as it is (``rules.visible(event, viewer)`` is the event's own JSON):
an event that some viewer sees otherwise holds hidden information, which a
takeback would let its seat act on twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from .. import session as sessions
from ..engine import Event
from ..kit import Game
from .decide import NotAllowed, NotNow
from .hidden import hidden_from
from .pause import playing_seats
from .state import TakebackAccepted, TakebackAsked, TakebackRefused, TakenBack

WITH_CONSENT, OFF = "with-consent", "off"
# Batches that may come after the decision taken back: none of them is a seat acting.
PASSING = {"ComputeClocks", "MarkAway", "ReturnSeat", "AskPause", "ResumeGame", "AskTakeback", "RefuseTakeback"}


class NothingToTakeBack(NotNow):
    """No decision of the seat can be taken back now; the message says why."""


@dataclass(frozen=True)
class Batch:
    """One decision's events as recorded, with their metadata."""

    meta: Mapping[str, Any]
    events: Sequence[Event]


def takebacks_allowed(options: Mapping[str, Any]) -> bool:
    """Games created before the option existed have none, and keep none."""
    return options.get("takebacks", OFF) == WITH_CONSENT


def last_decision(batches: Sequence[Batch], seat: str) -> Batch:
    for batch in reversed(batches):
        meta = batch.meta
        command = (meta.get("command") or {}).get("type")
        if meta.get("lifecycle") and command in PASSING:
            continue
        if any(isinstance(event, TakenBack) for event in batch.events):
            raise NothingToTakeBack("the last decision was taken back already")
        if meta.get("timeout") or meta.get("bot") is not None or meta.get("lifecycle") \
                or command in ("StartGame", "JoinGame", "CreateGame"):
            what = "a timeout" if meta.get("timeout") else "a bot's move" if meta.get("bot") is not None \
                else f"{command}"
            raise NothingToTakeBack(f"the game's last decision is {what}, not a move of yours")
        if meta.get("seat") != seat:
            raise NothingToTakeBack(f"{meta.get('seat')} has acted since your last decision")
        return batch
    raise NothingToTakeBack("you have made no decision that can be taken back")




def blocker(rules: Game, session, batch: Batch) -> str | None:
    """Why this decision cannot be taken back, or None. ``session``: the game
    after the decision (nothing since has changed its state)."""
    draws = batch.meta.get("draws") or {}
    if draws:
        return f"it drew randomness ({', '.join(sorted(draws))}), which a takeback would let you draw again"
    for event in batch.events:
        if type(event).__name__ in sessions.ENGINE_EVENT_TYPES:
            continue
        full = event.to_json()
        for viewer in (*session.seats, None):
            if rules.visible(event, viewer) != full:
                return (f"it holds hidden information: {viewer or 'a spectator'} sees its {type(event).__name__} "
                        "otherwise than it is")
    # An event all see as it is may still show what was hidden before (a tile
    # drawn from a face-down stack): then a viewer is shown more of the game after it.
    version = batch.meta.get("decided_at")
    if isinstance(version, int) and session.remembers(version):
        before = session.state_at(version)
        for viewer in (*session.seats, None):
            if hidden_from(rules, session.state, viewer) < hidden_from(rules, before, viewer):
                return f"it revealed hidden information to {viewer or 'a spectator'}"
    return None


def ask(rules: Game, session, player: str, batches: Sequence[Batch]) -> list[Event]:
    """``batches``: the game's recent decisions in log order, the last one last."""
    if session.status != sessions.ACTIVE:
        raise NotNow(f"the game is {session.status}: nothing can be taken back")
    if not takebacks_allowed(session.options):
        raise NothingToTakeBack("this game takes no takebacks (option takebacks is off)")
    if session.randomness_version < 2:
        raise NothingToTakeBack("this game draws under randomness version 1, whose decisions do not list their "
                                "draws: it takes no takebacks")
    seat = session.seat_of(player)
    if seat is None or seat not in playing_seats(session):
        raise NotAllowed("only a player who plays a seat of this game may ask for a takeback")
    if session.life.takeback is not None:
        raise NotNow(f"{session.life.takeback.seat} has asked for a takeback already; it is being answered")
    if not [s for s in playing_seats(session) if s != seat]:
        raise NothingToTakeBack("no other player plays a seat of this game to consent")
    batch = last_decision(batches, seat)
    why = blocker(rules, session, batch)
    if why:
        raise NothingToTakeBack(f"your last decision cannot be taken back: {why}")
    version = batch.meta.get("decided_at")
    if not isinstance(version, int) or not session.remembers(version):
        raise NothingToTakeBack("your last decision lies too far back to be taken back")
    return [TakebackAsked(seat, player, version)]


def _answering(session, player: str, answer: str) -> str:
    request = session.life.takeback
    if request is None:
        raise NothingToTakeBack(f"no takeback is asked for: there is nothing to {answer}")
    seat = session.seat_of(player)
    if seat is None or seat not in playing_seats(session):
        raise NotAllowed(f"only a player who plays a seat of this game may {answer} a takeback")
    if seat == request.seat:
        raise NotAllowed(f"you asked for this takeback: another seat must {answer} it")
    if seat in request.accepted:
        raise NotNow(f"{seat} has accepted this takeback already")
    return seat


def accept(session, player: str) -> list[Event]:
    seat = _answering(session, player, "accept")
    request = session.life.takeback
    events: list[Event] = [TakebackAccepted(seat, player, request.version)]
    others = {s for s in playing_seats(session) if s != request.seat}
    if others <= request.accepted | {seat}:
        events.append(TakenBack(request.version))
    return events


def refuse(session, player: str) -> list[Event]:
    seat = _answering(session, player, "refuse")
    return [TakebackRefused(seat, player)]
