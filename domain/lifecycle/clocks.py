"""Correspondence time banks, and per-seat turn deadlines.

Options, beside ``turn_seconds`` (the banks off by default):

- ``time_bank_seconds``: each seat's bank at the start (60 s to 90 days);
- ``time_increment_seconds``: what a seat gains for each turn it plays itself
  (0 to 30 days), at the turn's end: a turn of several commands (Runebound's
  moves, then its end) earns it once, with its last command, the one after
  which the seat is no longer to act (or a new round or phase begins; see
  ``turn_goes_on``). A turn ended by a timeout or a bot's move gains nothing;
- ``time_cap_seconds``: the most a bank may hold (from the bank to 365 days;
  the starting bank by default);
- ``deadline_per_seat``: ``turn_seconds`` counts from when that seat became one
  to act, not from the last commit of any seat. This matters in simultaneous
  phases (The Coil), where before each commit gave the seats still to act a
  fresh full deadline. On unless a game is created with it off. GameCreated
  records it resolved, so every game keeps the deadlines it was created with:
  a game stored before the option existed has no such key and reads as off.

A paused game stands still: no bank falls and no turn runs; on resuming,
each seat to act has the rest of its turn (its ``since`` is moved by the
length of the pause), not a whole new turn.

A bank runs only while its seat is to act; in a simultaneous phase each seat
to act runs its own. The server brings the clock: after each decision of a
game with clocks, ``ClocksComputed`` records every bank as of that moment and
since when each seat to act has been to act. A seat's deadline is the
earliest of ``since + turn_seconds`` (or the commit + ``turn_seconds``
without ``deadline_per_seat``) and ``at + bank``; when it passes, the game's
``on_timeout`` acts for that seat (and only for the seats whose deadline
passed). An empty bank stays empty until a turn the seat plays itself adds
the increment, so a seat out of time is timed out on each of its turns (and then
abandoned to a bot after ``abandon_after`` of them).
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Mapping

from ..engine import InvalidOption
from .state import ClocksComputed

DAY = 24 * 3600
LIMITS = {
    "time_bank_seconds": (60, 90 * DAY),
    "time_increment_seconds": (0, 30 * DAY),
    "time_cap_seconds": (60, 365 * DAY),
}
CLOCK_OPTIONS = (*LIMITS, "deadline_per_seat")
DEADLINE_PER_SEAT_BY_DEFAULT = True
# A timed-out turn is played out step by step; no game's turn has this many
# steps, so reaching it means on_timeout leaves the seat to act for good.
MOST_STEPS_OF_A_TIMED_OUT_TURN = 50


def continues_missed_turn(metadata: Mapping[str, Any]) -> bool:
    """Whether a recorded timeout is a later step of a turn one deadline
    played out (its metadata's ``timeout_step`` is 2 or more): it is the same
    missed turn as the step before it, so it counts nothing towards
    ``abandon_after`` (and resets nothing). Timeouts recorded before turns
    were played out whole have no such key: each counts, as it did."""
    step = metadata.get("timeout_step", 1)
    return bool(metadata.get("timeout")) and isinstance(step, int) and step > 1


def turn_goes_on(seat: str, before: frozenset[str], after: frozenset[str]) -> bool:
    """Whether ``seat``'s turn goes on after a step that took the seats to act
    from ``before`` to ``after``. A turn ends when its seat stops being to
    act, or when a seat that was not to act becomes one (a new round or
    phase begins, as in The Coil, where the last seat of a simultaneous phase
    is to act again in the next): a turn of several commands (Cronberg's draw
    then lay, Runebound's moves then its end) is one turn."""
    return seat in after and after <= before


def resolve_clock_options(given: dict) -> dict:
    """Takes the clock options out of ``given``; checked, defaults filled in."""
    values = {name: given.pop(name, None) for name in CLOCK_OPTIONS}
    for name, (low, high) in LIMITS.items():
        value = values[name]
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high):
            raise InvalidOption(f"option {name} must be a whole number of seconds from {low} to {high}, not {value!r}",
                                name)
    bank, increment, cap = values["time_bank_seconds"], values["time_increment_seconds"], values["time_cap_seconds"]
    if bank is None and (increment is not None or cap is not None):
        raise InvalidOption("options time_increment_seconds and time_cap_seconds need time_bank_seconds",
                            "time_increment_seconds" if increment is not None else "time_cap_seconds")
    if bank is not None:
        values["time_increment_seconds"] = increment or 0
        values["time_cap_seconds"] = cap = bank if cap is None else cap
        if cap < bank:
            raise InvalidOption(f"option time_cap_seconds ({cap}) may not be less than time_bank_seconds ({bank})",
                                "time_cap_seconds")
    per_seat = values["deadline_per_seat"]
    if per_seat is None:
        values["deadline_per_seat"] = DEADLINE_PER_SEAT_BY_DEFAULT
    elif not isinstance(per_seat, bool):
        raise InvalidOption("option deadline_per_seat must be true or false", "deadline_per_seat")
    return values


def clocked(options: Mapping[str, Any]) -> bool:
    """Whether the game records ClocksComputed after each decision."""
    return bool(options.get("time_bank_seconds") or (options.get("deadline_per_seat") and options.get("turn_seconds")))


def _time(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text)


def bank_when_moved(before: ClocksComputed | None, move: ClocksComputed | None, seat: str) -> float | None:
    """``seat``'s bank when it made the move whose clocks are ``move`` (the
    clocks recorded before it being ``before``), before the move's increment:
    what a takeback of that move gives the seat back (``tick``'s
    ``taken_back``). The time the seat spent on the move stays spent, and
    the increment the move earned is not kept: otherwise each take-back-and-
    replay of a turn-ending move would add one more increment. None: no bank
    to restore (a game without banks, or clocks no longer at hand)."""
    if before is None or move is None or seat not in before.banks:
        return None
    bank = before.banks[seat]
    if seat in before.since:  # it ran from before.at until the move
        bank -= max(0.0, (_time(move.at) - _time(before.at)).total_seconds())
    return max(0.0, bank)


def tick(options: Mapping[str, Any], clocks: ClocksComputed | None, seats, before: frozenset[str],
         after: frozenset[str], mover: str | None, now: dt.datetime,
         timed_out: frozenset[str] = frozenset(),
         away: Mapping[str, dt.datetime] | None = None,
         taken_back: Mapping[str, float] | None = None,
         resumed: Mapping[str, float] | None = None,
         given: Mapping[str, int] | None = None) -> ClocksComputed:
    """The clocks after a decision taken at ``now``: seats to act ``before``
    pay the time since the last computation; ``mover`` (a seat that moved
    itself) gains the increment if this command ended its turn
    (``turn_goes_on``); seats to act ``after`` run from when they
    became to act. A seat ``timed_out`` by the decision whose deadline passed
    is to act again only in a new turn: it runs from now, with a fresh
    deadline, not from the old turn whose deadline is past. A seat ``away``
    (seat -> when its absence began) pays only the time before its absence,
    and does not run while it lasts: it is not in ``since``, so it pays
    nothing more until it is back, and then runs from the decision that
    brought it back, its bank as it was. ``taken_back`` (seat -> its bank
    when it moved, ``bank_when_moved``): the banks a takeback decided now
    gives back as they were before the taken-back move's increment; never
    more than the seat holds now. ``resumed`` (seat -> the seconds of its
    turn it had used when the game paused, ``Life.turn_used``): a decision
    that resumes the game runs those seats' turns from ``now`` less what
    they had used, so that a turn deadline keeps its remaining time across
    a pause (their banks do anyway: a bank is paid from ``at``, not ``since``).
    A seat ``given`` time (seat -> seconds, TimeGiven) has them added to its
    bank and its turn counted from that much later: its deadline moves by them."""
    away = away or {}
    given = given or {}
    bank = options.get("time_bank_seconds")
    if clocks is None:
        banks = {seat: float(bank) for seat in seats} if bank else {}
        since: dict[str, str] = {}
        last = now
    else:
        banks, since, last = dict(clocks.banks), dict(clocks.since), _time(clocks.at)
    spent = max(0.0, (now - last).total_seconds())
    if bank:
        for seat in before & set(since):
            paid = spent if seat not in away else max(0.0, (min(now, away[seat]) - last).total_seconds())
            banks[seat] = max(0.0, banks[seat] - paid)
        if mover is not None and mover in banks and not turn_goes_on(mover, before, after):
            # Fischer's rule: the increment is earned once per turn, at its end.
            banks[mover] = min(float(options["time_cap_seconds"]), banks[mover] + options["time_increment_seconds"])
        for seat, restored in (taken_back or {}).items():
            if seat in banks:
                banks[seat] = min(banks[seat], restored)
    for seat, seconds in given.items():
        if seat in banks:
            banks[seat] += seconds
    stamp = now.isoformat()
    running = {seat: since[seat] if seat in since and seat != mover and seat not in timed_out else stamp
               for seat in after if seat not in away}
    for seat, used in (resumed or {}).items():
        if seat in running and seat != mover:
            running[seat] = (now - dt.timedelta(seconds=used)).isoformat()
    for seat, seconds in given.items():
        if seat in running:
            running[seat] = (_time(running[seat]) + dt.timedelta(seconds=seconds)).isoformat()
    return ClocksComputed(stamp, {seat: round(value, 3) for seat, value in sorted(banks.items())}, dict(sorted(running.items())))


def seat_deadlines(options: Mapping[str, Any], clocks: ClocksComputed | None, to_act: frozenset[str],
                   now: dt.datetime, away: frozenset[str] = frozenset()) -> dict[str, dt.datetime]:
    """Each seat to act's deadline, if it has one; a seat away has none."""
    turn = options.get("turn_seconds")
    deadlines: dict[str, dt.datetime] = {}
    for seat in to_act - away:
        candidates = []
        if turn:
            if options.get("deadline_per_seat") and clocks is not None and seat in clocks.since:
                candidates.append(_time(clocks.since[seat]) + dt.timedelta(seconds=turn))
            else:
                candidates.append(now + dt.timedelta(seconds=turn))
        if options.get("time_bank_seconds") and clocks is not None and seat in clocks.banks:
            candidates.append(_time(clocks.at) + dt.timedelta(seconds=clocks.banks[seat]))
        if candidates:
            deadlines[seat] = min(candidates)
    return deadlines


def shown(options: Mapping[str, Any], clocks: ClocksComputed | None) -> dict | None:
    """What views show: each seat's bank as of ``computed_at`` and whether it
    runs (a running bank was that much at ``computed_at``, and falls since)."""
    if clocks is None:
        return None
    seats = sorted(set(clocks.banks) | set(clocks.since))
    turn = options.get("turn_seconds") if options.get("deadline_per_seat") else None
    return {
        "computed_at": clocks.at,
        "seats": {
            seat: {
                "bank_seconds": clocks.banks.get(seat),
                "running": seat in clocks.since,
                "to_act_since": clocks.since.get(seat),
                "turn_deadline": (_time(clocks.since[seat]) + dt.timedelta(seconds=turn)).isoformat()
                if turn and seat in clocks.since else None,
            }
            for seat in seats
        },
    }
