"""A seat away: its player's absence, as it matters to one game.

An absence is the player's (declared for all of his games, kept outside any
game's log, api/service/absences.py). A game's log records only when one
begins to matter to it, ``SeatAway`` (the seat has deadlines, and its
player is away), and when it stops, ``SeatBack`` (its end came, or its
player acted): so a game's own history says why a deadline did not fire,
and the audit checks these events as it checks every seat-life event
(the absence itself is not in the log, so its dates are taken as recorded).
"""

from __future__ import annotations

from typing import Any, Mapping

from .. import session as sessions
from ..engine import Event
from .decide import NotAllowed, NotNow
from .state import SeatAway, SeatBack

ALLOWED, FORBIDDEN = "allowed", "forbidden"


def absences_allowed(options: Mapping[str, Any]) -> bool:
    """Games created before the option existed allow them, as new games do by default."""
    return options.get("absences", ALLOWED) != FORBIDDEN


def has_deadlines(options: Mapping[str, Any]) -> bool:
    return bool(options.get("turn_seconds") or options.get("time_bank_seconds"))


def mark_away(session, seat: str, since: str, until: str) -> list[Event]:
    """The seat is away from ``since`` to ``until`` (ISO 8601): refused where
    an absence cannot matter or is not allowed."""
    if session.status != sessions.ACTIVE:
        raise NotNow(f"the game is {session.status}: no seat is marked away")
    if not absences_allowed(session.options):
        raise NotAllowed("this game was created with absences forbidden: its deadlines run for everyone")
    if not has_deadlines(session.options):
        raise NotNow("this game has no deadlines: an absence does not matter to it")
    if seat not in session.players or seat in session.life.bots or seat in session.life.resigned:
        raise NotNow(f"{seat} is not a seat its player plays: it cannot be away")
    if seat in session.life.away:
        raise NotNow(f"{seat} is away already")
    if not since < until:
        raise NotNow(f"an absence from {since} to {until} ends before it begins")
    return [SeatAway(seat, since, until)]


def back(session, seat: str) -> list[Event]:
    if seat not in session.life.away:
        raise NotNow(f"{seat} is not away")
    return [SeatBack(seat)]
