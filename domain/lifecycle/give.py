"""Giving time: a player gives another seat, to act now, more time on its
current deadline and its bank (TimeGiven; the ClocksComputed that follows
moves the seat's turn start and adds to its bank, domain.lifecycle.clocks),
instead of waiting for it to time out. What one seat gives in one game is
bounded (``MOST_GIVEN_SECONDS``), so that a player cannot hold a game open
for ever; giving to a seat of one's own is refused."""

from __future__ import annotations

from .. import session as sessions
from ..engine import Event
from . import clocks as clock_rules
from .decide import NotAllowed, NotNow
from .pause import playing_seats
from .state import TimeGiven

MOST_GIVEN_SECONDS = 24 * 3600  # per giving seat and game
LEAST_GIVEN_SECONDS = 60


def give(session, player: str, to_seat: str, seconds) -> list[Event]:
    if session.status != sessions.ACTIVE:
        raise NotNow(f"cannot give time: the game is {session.status}")
    seat = session.seat_of(player)
    if seat is None or seat not in playing_seats(session):
        raise NotAllowed("only a player who plays a seat of this game may give time")
    life = session.life
    if not clock_rules.clocked(session.options) or life.clocks is None:
        raise NotNow("this game keeps no clock of each seat (no time bank, no deadline per seat): there is no "
                     "deadline of one seat to give time to")
    if to_seat == seat or session.players.get(to_seat) == player:
        raise NotAllowed("you cannot give time to yourself; give it to another seat")
    if to_seat not in session.seats:
        raise NotAllowed(f"{to_seat!r} is not a seat of this game; the seats are {', '.join(session.seats)}")
    if life.paused or to_seat not in life.clocks.since:
        raise NotNow(f"{to_seat}'s clock is not running (it is not to act, it is away, or the game is paused): "
                     "give time while it is to act")
    if isinstance(seconds, bool) or not isinstance(seconds, int) or seconds < LEAST_GIVEN_SECONDS:
        raise NotAllowed(f"give a whole number of seconds, at least {LEAST_GIVEN_SECONDS}")
    left = MOST_GIVEN_SECONDS - life.given.get(seat, 0)
    if seconds > left:
        raise NotAllowed(f"a seat may give at most {MOST_GIVEN_SECONDS // 3600} h in a game; {seat} has "
                         f"{max(left, 0)} s left to give, not {seconds}")
    return [TimeGiven(seat, player, to_seat, seconds)]
