"""Pausing a game by agreement: each seat a player plays asks (PauseAsked);
when the last of them has, the game is paused (GamePaused, in the same
batch): no deadline runs, no bank falls, nobody moves. Any of them resumes
it (GameResumed), and the clocks run from then, the banks as they were and
each turn deadline with the time it had left when the game paused
(domain.lifecycle.clocks)."""

from __future__ import annotations

from .. import session as sessions
from ..engine import Event
from .decide import NotAllowed, NotNow
from .state import GamePaused, GameResumed, PauseAsked


def playing_seats(session) -> list[str]:
    """The seats a player plays (not a bot, not resigned): those whose agreement a pause needs."""
    life = session.life
    return [seat for seat in session.seats if seat in session.players and seat not in life.bots
            and seat not in life.resigned]


def player_seat(session, player: str, action: str) -> str:
    """The seat of ``player`` who would ``action``: refused unless the game runs and he plays a seat."""
    if session.status != sessions.ACTIVE:
        raise NotNow(f"cannot {action}: the game is {session.status}")
    seat = session.seat_of(player)
    if seat is None or seat not in playing_seats(session):
        raise NotAllowed(f"only a player who plays a seat of this game may {action}")
    return seat


def ask(session, player: str) -> list[Event]:
    seat = player_seat(session, player, "ask to pause it")
    if session.life.paused:
        raise NotNow("the game is paused already")
    if seat in session.life.pause_asked:
        raise NotNow(f"{seat} has asked to pause already; the others have not all asked yet")
    events: list[Event] = [PauseAsked(seat, player)]
    if set(playing_seats(session)) <= session.life.pause_asked | {seat}:
        events.append(GamePaused())
    return events


def resume(session, player: str) -> list[Event]:
    seat = player_seat(session, player, "resume it")
    if not session.life.paused:
        raise NotNow("the game is not paused")
    return [GameResumed(seat, player)]
