"""A player's absences (declared for all of his games) and what they do to
the games he plays: the command path of ``SeatAway`` and ``SeatBack``.

An absence is the player's fact, kept in its own table, outside every
game's log. A game records it only when it begins to matter there
(domain.lifecycle.absence): a job set for the absence's start, or a
deadline that would fire while the player is away, records ``SeatAway``;
the absence's end (the game's deadline is set to it), the player ending it
early, or the player acting records ``SeatBack``. While a seat is away it
has no deadline and its bank does not run (domain.lifecycle.clocks), so it
is neither timed out nor abandoned.

Each year (UTC, by the year an absence begins) a player may be away
BOARDLOG_ABSENCE_DAYS_PER_YEAR days (30 by default), counted to the second.

``GameService`` holds one ``Absences`` as ``absences``.
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any, Callable

from psycopg.rows import dict_row

from domain import session as sessions
from domain.lifecycle import absence as absence_rules
from domain.session import SYSTEM

from .settings import env_number
from . import decisions
from .decisions import Decision
from .errors import InvalidRequest, NotFound, ServiceError, WrongStatus

DAY = 86400
# A start this much before now is taken as now (clocks of client and server differ).
PAST_SLACK = dt.timedelta(minutes=1)
# How far ahead an absence may begin (its allowance is the year it begins in).
AHEAD = dt.timedelta(days=366)


class AbsenceRefused(InvalidRequest):
    kind = "absence-refused"


class AbsenceNotFound(NotFound):
    kind = "absence-not-found"


def allowance_days() -> int:
    return env_number("BOARDLOG_ABSENCE_DAYS_PER_YEAR", 30, minimum=0)


def _shown(row: dict, now: dt.datetime) -> dict:
    return {"id": str(row["id"]), "from": row["starts_at"], "to": row["ends_at"],
            "declared_at": row["declared_at"], "current": row["starts_at"] <= now < row["ends_at"],
            "instead_of_timeout": row.get("instead_of_timeout", False)}


class SpendingRaced(WrongStatus):
    """Another game of the player wrote his absence first: this game looks again."""


class Absences:
    """The absences are kept in ``pool``'s database; a game records what they
    do to it through ``execute``, the service's one write path, and is woken
    to look at them again by ``scheduler``; ``clock`` says what "now" is."""

    def __init__(self, pool, clock, scheduler, execute):
        self.pool = pool
        self.clock = clock
        self.scheduler = scheduler
        self.execute = execute

    # The player's absences

    def absences_of(self, player: str) -> dict:
        now = self.clock()
        with self.pool.connection() as conn:
            rows = conn.cursor(row_factory=dict_row).execute(
                "select * from absences where player_id = %s and ends_at > %s order by starts_at",
                (player, now)).fetchall()
            used = self._days_used(conn, player, now.year)
            spend = spends(conn, player)
        return {"absences": [_shown(row, now) for row in rows], "allowance_days": allowance_days(),
                "used_this_year_days": round(used / DAY, 3), "spend_before_timeout": spend}

    def set_spending(self, player: str, spend: bool) -> dict:
        """Whether a day of the allowance is spent instead of a timeout (true by default)."""
        with self.pool.connection() as conn:
            conn.execute("update players set spend_absence_days = %s where id = %s", (spend, player))
        return self.absences_of(player)


    def declare_absence(self, player: str, starts: dt.datetime, ends: dt.datetime) -> dict:
        now = self.clock()
        starts, ends = _utc(starts), _utc(ends)
        if starts < now - PAST_SLACK:
            raise AbsenceRefused(f"the absence starts in the past ({starts.isoformat()}); it may start now at the earliest")
        starts = max(starts, now)
        if starts > now + AHEAD:
            raise AbsenceRefused(f"the absence starts more than {AHEAD.days} days ahead ({starts.isoformat()}); "
                                 "declare it nearer the time")
        if ends <= starts:
            raise AbsenceRefused(f"the absence ends ({ends.isoformat()}) before it starts ({starts.isoformat()})")
        allowance = allowance_days()
        with self.pool.connection() as conn, conn.transaction():
            # One declaration of a player at a time, so that two cannot both fit the allowance.
            conn.execute("select 1 from players where id = %s for update", (player,))
            overlapping = conn.execute(
                "select starts_at, ends_at from absences where player_id = %s and starts_at < %s and ends_at > %s "
                "order by starts_at limit 1", (player, ends, starts)).fetchone()
            if overlapping:
                raise AbsenceRefused(f"the absence overlaps another of yours, from {overlapping[0].isoformat()} "
                                     f"to {overlapping[1].isoformat()}; end that one first or choose other dates")
            used = self._days_used(conn, player, starts.year)
            wanted = (ends - starts).total_seconds()
            if used + wanted > allowance * DAY:
                raise AbsenceRefused(
                    f"the absence lasts {wanted / DAY:.2f} days and you have {max(0.0, allowance * DAY - used) / DAY:.2f} "
                    f"of this year's {allowance} days left (BOARDLOG_ABSENCE_DAYS_PER_YEAR)")
            absence_id = uuid.uuid4()
            row = conn.cursor(row_factory=dict_row).execute(
                "insert into absences (id, player_id, starts_at, ends_at) values (%s, %s, %s, %s) returning *",
                (absence_id, player, starts, ends)).fetchone()
        self._wake_games(player, starts)
        return _shown(row, now)

    def end_absence(self, player: str, absence_id: uuid.UUID) -> dict:
        """An absence not begun yet is withdrawn; one that runs ends now."""
        now = self.clock()
        with self.pool.connection() as conn, conn.transaction():
            row = conn.cursor(row_factory=dict_row).execute(
                "select * from absences where id = %s and player_id = %s for update", (absence_id, player)).fetchone()
            if row is None:
                raise AbsenceNotFound(f"you declared no absence {absence_id}")
            if row["ends_at"] <= now:
                raise WrongStatus(f"this absence ended at {row['ends_at'].isoformat()} already")
            if row["starts_at"] >= now:  # not begun, or begun this instant: an absence is never empty
                conn.execute("delete from absences where id = %s", (absence_id,))
                row = {**row, "ends_at": row["starts_at"]}
            else:
                row = conn.cursor(row_factory=dict_row).execute(
                    "update absences set ends_at = %s where id = %s returning *", (now, absence_id)).fetchone()
        self._wake_games(player, now)
        return _shown(row, now)

    def _days_used(self, conn, player: str, year: int) -> float:
        return seconds_used(conn, player, year)

    def away_now(self, players, now: dt.datetime) -> dict[str, tuple[dt.datetime, dt.datetime]]:
        """player -> (start, end) of the absence each is on at ``now``."""
        if not players:
            return {}
        with self.pool.connection() as conn:
            rows = conn.execute(
                "select player_id::text, starts_at, ends_at from absences "
                "where player_id = any(%s::uuid[]) and starts_at <= %s and ends_at > %s",
                (list(players), now, now)).fetchall()
        return {player: (starts, ends) for player, starts, ends in rows}

    def _wake_games(self, player: str, at: dt.datetime) -> None:
        """Every running game of the player looks at his absences again at
        ``at`` (a job that only marks seats away or back, if the game has not
        moved since; otherwise the game's next deadline does)."""
        with self.pool.connection() as conn:
            rows = conn.execute(
                "select g.id, g.version from game_seats s join games g on g.id = s.game_id "
                "where s.player_id = %s and g.status = 'active'", (player,)).fetchall()
        for game_id, version in rows:
            try:
                self.scheduler.schedule_absence_check(str(game_id), version, at)
            except Exception:  # a lost job: the game's own next deadline looks again
                pass

    # What absences do to one game

    def absence_changes(self, rules, session, now: dt.datetime) -> Decision:
        """SeatBack for each seat whose absence is over, SeatAway for each
        seat whose player is away now: one batch per seat."""
        empty = Decision([], [])
        if session.status != sessions.ACTIVE or not absence_rules.absences_allowed(session.options) \
                or not absence_rules.has_deadlines(session.options):
            return empty
        life = session.life
        playing = {seat: player for seat, player in session.players.items()
                   if seat not in life.bots and seat not in life.resigned}
        away = self.away_now(set(playing.values()), now)
        events, metadata, current = [], [], session
        for seat in sorted(playing):
            player = playing[seat]
            if seat in life.away and player not in away:
                batch, command = absence_rules.back(current, seat), {"type": "ReturnSeat"}
            elif seat not in life.away and player in away:
                starts, ends = away[player]
                batch = absence_rules.mark_away(current, seat, starts.isoformat(), ends.isoformat())
                command = {"type": "MarkAway"}
            else:
                continue
            meta = {**decisions.metadata(SYSTEM, seat, command, current.version), "lifecycle": True}
            events += batch
            metadata += [meta] * len(batch)
            current = sessions.replay(rules, batch, current)
        return Decision(events, metadata)

    def mark_absences(self, game_id: uuid.UUID, version: int) -> bool:
        """Records what absences changed in the game at ``version``; whether anything did."""
        def decide(rules, session):
            if session.version != version:
                return Decision([], [])
            return self.absence_changes(rules, session, self.clock())

        try:
            _, events = self.execute(game_id, decide, if_match=version)
        except ServiceError:  # moved since: its next deadline looks again
            return False
        return bool(events)

    def spend_before_timeout(self, game_id: uuid.UUID, version: int, timed_out_seats) -> bool:
        """Instead of timing out a seat (``timed_out_seats(rules, session)``
        of the game at ``version``) whose player has a day of the allowance
        left and has not opted out, he is away for a day from now, as if he
        had declared it: the absence is written in the transaction that
        records SeatAway, so a job run twice, or after a Redis flush, spends
        nothing twice (the second finds the game moved on, or the seat
        away). A move committed first wins: nothing is spent. Whether any
        day was spent."""
        if not spending_on():
            return False
        now = self.clock()
        spent: dict[str, str] = {}  # seat -> player, of the decision being committed

        def decide(rules, session):
            spent.clear()
            if session.version != version or session.status != sessions.ACTIVE \
                    or not absence_rules.absences_allowed(session.options) \
                    or not absence_rules.has_deadlines(session.options):
                return Decision([], [])
            life = session.life
            due = {seat: session.players[seat] for seat in timed_out_seats(rules, session)
                   if seat in session.players and seat not in life.bots and seat not in life.resigned}
            with self.pool.connection() as conn:
                spent.update({seat: player for seat, player in due.items() if day_spendable(conn, player, now)})
            events, metadata, current = [], [], session
            for seat in sorted(spent):
                until = now + dt.timedelta(days=1)
                batch = absence_rules.mark_away(current, seat, now.isoformat(), until.isoformat())
                meta = {**decisions.metadata(SYSTEM, seat, {"type": "MarkAway"}, current.version), "lifecycle": True}
                events += batch
                metadata += [meta] * len(batch)
                current = sessions.replay(rules, batch, current)
            return Decision(events, metadata)

        def write(conn, session, events):
            for player in sorted(set(spent.values())):
                conn.execute("select 1 from players where id = %s for update", (player,))
                if conn.execute("select 1 from absences where player_id = %s and starts_at < %s and ends_at > %s",
                                (player, now + dt.timedelta(days=1), now)).fetchone() \
                        or not day_spendable(conn, player, now):
                    raise SpendingRaced("the player's absences changed while a day was being spent")
                conn.execute("insert into absences (id, player_id, starts_at, ends_at, instead_of_timeout) "
                             "values (%s, %s, %s, %s, true)", (uuid.uuid4(), player, now, now + dt.timedelta(days=1)))

        try:
            _, events = self.execute(game_id, decide, version, write)
        except ServiceError:  # moved since, or another game of his wrote his absence first
            return self.mark_absences(game_id, version)
        for player in sorted(set(spent.values())) if events else ():
            self._wake_games(player, now)  # his other games: he is away there too
        return bool(events)

    def back_on_acting_committed(self, player: str, now: dt.datetime) -> None:
        """A player whose command was accepted is back: the command's own
        statement ended his absence running at ``now`` (migration 0117, in
        the command's transaction); once it committed, every other game that
        shows him away records SeatBack (by a job set for now; this one did
        at once, ``returned_before``). A refused command ends nothing."""
        self._wake_games(player, now)

    def returned_before(self, rules, session, seat: str) -> tuple[Decision, Any]:
        """The SeatBack batch that goes before a move of a seat shown away, and the session after it."""
        if seat not in session.life.away:
            return Decision([], []), session
        batch = absence_rules.back(session, seat)
        meta = {**decisions.metadata(SYSTEM, seat, {"type": "ReturnSeat"}, session.version), "lifecycle": True}
        return Decision(batch, [meta] * len(batch)), sessions.replay(rules, batch, session)

    def away_shown(self, session) -> dict[str, str]:
        return {seat: away.until for seat, away in session.life.away.items()}


def seconds_used(conn, player: str, year: int) -> float:
    """The player's absences that begin in ``year`` (UTC), in seconds."""
    begin = dt.datetime(year, 1, 1, tzinfo=dt.timezone.utc)
    end = dt.datetime(year + 1, 1, 1, tzinfo=dt.timezone.utc)
    seconds = conn.execute(
        "select coalesce(sum(extract(epoch from ends_at - starts_at)), 0) from absences "
        "where player_id = %s and starts_at >= %s and starts_at < %s", (player, begin, end)).fetchone()[0]
    return float(seconds)


def spends(conn, player: str) -> bool:
    """Whether the player lets a day of his allowance be spent instead of a timeout."""
    row = conn.execute("select spend_absence_days from players where id = %s", (player,)).fetchone()
    return bool(row and row[0])


def spending_on() -> bool:
    """The operator's switch: 0 spends no day before a timeout on this server (players' choices aside)."""
    return env_number("BOARDLOG_ABSENCE_SPENT_BEFORE_TIMEOUT", 1, minimum=0) > 0


def day_spendable(conn, player: str, now: dt.datetime) -> bool:
    """The server spends days, the player has not opted out, and a whole day of this year's allowance is left."""
    if not (spending_on() and spends(conn, player)):
        return False
    return allowance_days() * DAY - seconds_used(conn, player, now.year) >= DAY


def _utc(moment: dt.datetime) -> dt.datetime:
    return moment.replace(tzinfo=dt.timezone.utc) if moment.tzinfo is None else moment.astimezone(dt.timezone.utc)
