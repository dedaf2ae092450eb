"""Reminders before a deadline or an empty time bank.

The truth is in PostgreSQL, as for deadlines: the command path writes each
seat to act's deadline (``seat_deadlines``) in the transaction of each commit
(``project``); a reminder is due at a deadline minus one of its player's
offsets, per channel (``reminder_settings``); the job
``remind-<game>-<due second>`` sends what is due (``fire``) and schedules the
next, and the sweeper makes that job again from ``pending`` when Redis lost
it. What was sent is ``reminders_sent``, written in the one transaction that
appends the ``ReminderDue`` event to the game's reminder stream
(``remind-<game>``): a job run twice, late, or after a worker died, sends
nothing twice.

The event is what every channel reads: the player's stream and the
notifier (mail, webhooks, Web Push) derive the ``reminder`` notice from it
(domain.notices), each keeping it only if its channel is named in the
event's ``channels``.

A reminder is never sent for a paused game or a seat away (they have no
deadline, so their row's ``deadline`` is null), nor for a seat a bot plays,
nor after the seat acted (its row is gone or its turn is a new one), nor
when the offset reaches back before the turn began (the "your turn" notice
told the player then).
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Iterable

from psycopg.types.json import Jsonb

from domain import session as sessions
from domain.lifecycle import absence as absence_rules
from domain.lifecycle import clocks as clock_rules
from domain.lifecycle import decide as lifecycle
from domain.games import title_of
from domain.notices import REMINDER_STREAM_PREFIX
from eventstore import ANY, NewEvent

from .absences import day_spendable
from .errors import InvalidRequest
from .history import stream_of as game_stream

CHANNELS = ("stream", "mail", "webhook", "push")
DEFAULT_OFFSETS = (12 * 3600, 3600)
MAX_OFFSET_SECONDS = 7 * 24 * 3600
MAX_OFFSETS = 6  # per channel
REMINDER_EVENT = "ReminderDue"

log = logging.getLogger("boardlog.reminders")


def stream_of(game_id) -> str:
    return f"{REMINDER_STREAM_PREFIX}{game_id}"


# The player's settings


def check_offsets(channel: str, offsets: Iterable) -> list[int]:
    """The offsets of one channel, sorted from the earliest reminder, or a refusal that says what to fix."""
    if channel not in CHANNELS:
        raise InvalidRequest(f"{channel!r} is not a reminder channel; the channels are {', '.join(CHANNELS)}",
                             errors={channel: ["not a reminder channel"]})
    offsets = list(offsets)
    for offset in offsets:
        if isinstance(offset, bool) or not isinstance(offset, int):
            raise InvalidRequest(f"a reminder offset is a whole number of seconds before the deadline, "
                                 f"not {offset!r}", errors={channel: ["not a whole number of seconds"]})
        if offset < 1:
            raise InvalidRequest(f"a reminder comes before the deadline: {offset} s is not, give a number of "
                                 f"seconds from 1 to {MAX_OFFSET_SECONDS} (a week)",
                                 errors={channel: ["not before the deadline"]})
        if offset > MAX_OFFSET_SECONDS:
            raise InvalidRequest(f"a reminder comes at most a week ({MAX_OFFSET_SECONDS} s) before the deadline; "
                                 f"{offset} s is longer", errors={channel: ["longer than a week"]})
    if len(offsets) > MAX_OFFSETS:
        raise InvalidRequest(f"at most {MAX_OFFSETS} reminders per channel; {channel} has {len(offsets)}",
                             errors={channel: ["too many offsets"]})
    return sorted(set(offsets), reverse=True)


def settings(conn, player) -> dict[str, list[int]]:
    """The player's offsets per channel (the default for a channel he left alone)."""
    row = conn.execute("select offsets from reminder_settings where player_id = %s", (player,)).fetchone()
    chosen = row[0] if row else {}
    return {channel: list(chosen.get(channel, DEFAULT_OFFSETS)) for channel in CHANNELS}


def update_settings(conn, player, changes: dict) -> dict[str, list[int]]:
    """Set the offsets of the channels in ``changes`` (the others stay); nothing is stored if one is refused."""
    checked = {channel: check_offsets(channel, offsets) for channel, offsets in changes.items()}
    with conn.transaction():
        current = settings(conn, player)
        conn.execute("insert into reminder_settings (player_id, offsets) values (%s, %s) on conflict (player_id)"
                     " do update set offsets = excluded.offsets, updated_at = now()",
                     (player, Jsonb({**current, **checked})))
    return settings(conn, player)


def games_of(conn, player) -> list[str]:
    """The games in which the player has a seat to act (whose next reminder his settings move)."""
    return [str(row[0]) for row in conn.execute(
        "select distinct game_id from seat_deadlines where player_id = %s", (player,))]


# The read model, written by the command path


def unprojected(conn) -> list:
    """The running games with a turn time or banks, seats to act and no
    seat deadlines: those that ran before reminders existed (a game whose
    seats to act a bot plays has none either, and is found each time)."""
    return [row[0] for row in conn.execute(
        "select g.id from games g where g.status = 'active' and cardinality(g.to_act) > 0"
        " and (g.options ->> 'turn_seconds' is not null or g.options ->> 'time_bank_seconds' is not null)"
        " and not exists (select 1 from seat_deadlines sd where sd.game_id = g.id)")]


def timed(options) -> bool:
    return bool(options.get("turn_seconds") or options.get("time_bank_seconds"))


def project(conn, game_id, rules, after: sessions.Session, to_act: frozenset[str], metadata: list[dict],
            now: dt.datetime) -> None:
    """The seats to act's deadlines after a commit, in its transaction. A
    seat's turn goes on (its ``turn_version`` kept) while it stays to act and
    does not act itself; a seat that acts, times out or newly comes to act
    begins a turn."""
    if not timed(after.options):
        return
    life = after.life
    held = {seat for seat in to_act if seat in after.players and not life.plays(seat)}
    deadlines = {} if life.paused else clock_rules.seat_deadlines(
        after.options, life.clocks, frozenset(held), now, frozenset(life.away))
    acted = {meta.get("seat") for meta in metadata if not meta.get("lifecycle")}
    before = {row[0]: row[1:] for row in conn.execute(
        "select seat, player_id::text, turn_version, turn_began_at from seat_deadlines where game_id = %s",
        (game_id,))}
    timed_out = {meta.get("seat") for meta in metadata if meta.get("timeout")} & before.keys()
    if timed_out:
        _say_dropped(conn, game_id, sorted(timed_out), now)
    rows = []
    for seat in sorted(held):
        player = after.players[seat]
        kept = before.get(seat)
        if kept is None or kept[0] != player or seat in acted:
            turn_version, began = after.version, now
        else:
            turn_version, began = kept[1], kept[2]
        deadline = deadlines.get(seat)
        rows.append((game_id, seat, player, turn_version, began, deadline,
                     _clock(after.options, life.clocks, seat, deadline), after.version))
    conn.execute("delete from seat_deadlines where game_id = %s", (game_id,))
    if rows:
        conn.cursor().executemany(
            "insert into seat_deadlines (game_id, seat, player_id, turn_version, turn_began_at, deadline, clock,"
            " version) values (%s, %s, %s, %s, %s, %s, %s, %s)", rows)


def _say_dropped(conn, game_id, seats: list[str], now: dt.datetime) -> None:
    """One WARNING per reminder (seat and offset) that was due before the
    deadline now timing ``seats`` out and was never sent: the job that sends
    it ran after that deadline (sending nothing, the turn being over) or has
    not run yet. Either way the workers were behind their queue by more than
    the offset. Said here, in the deadline's commit, once: the turn's rows go next."""
    for seat, offset, channels, due in conn.execute(
            "select sd.seat, o.offset_seconds, array_agg(o.channel order by o.channel), min(" + _DUE + ")"
            " from seat_deadlines sd"
            f" left join reminder_settings r on r.player_id = sd.player_id {_OFFSETS}"
            f" where sd.game_id = %(game)s and sd.seat = any(%(seats)s) and {_DUE} > sd.turn_began_at"
            f" and {_DUE} <= %(now)s and {_UNSENT} group by sd.seat, o.offset_seconds order by 1, 2 desc",
            _params(now, game=game_id, seats=seats)):
        log.warning("reminder not sent: game %s seat %s, %s before its deadline (%s), was due at %s UTC and was "
                    "still unsent when the deadline timed the seat out %.1f s after that: the workers are "
                    "behind their queue by more than the reminder's offset; run more workers if this repeats "
                    "(docs/operators.md, How a worker runs its jobs)", game_id, seat, _span(offset),
                    ", ".join(channels), due.astimezone(dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S"),
                    (now - due).total_seconds())


def _clock(options, clocks, seat: str, deadline: dt.datetime | None) -> str | None:
    """Which runs out first: the seat's time bank, or the turn's time."""
    if deadline is None:
        return None
    if options.get("time_bank_seconds") and clocks is not None and seat in clocks.banks:
        bank_empty = dt.datetime.fromisoformat(clocks.at) + dt.timedelta(seconds=clocks.banks[seat])
        if bank_empty <= deadline:
            return "bank"
    return "turn"


# What is due, and when next

_OFFSETS = ("cross join lateral (select c.channel, o.value::int as offset_seconds"
            " from unnest(%(channels)s::text[]) c(channel),"
            " jsonb_array_elements_text(coalesce(r.offsets -> c.channel, %(default)s::jsonb)) o(value)) o")
_UNSENT = ("not exists (select 1 from reminders_sent s where s.game_id = sd.game_id and s.seat = sd.seat"
           " and s.turn_version = sd.turn_version and s.channel = o.channel"
           " and s.offset_seconds = o.offset_seconds)")
_DUE = "sd.deadline - make_interval(secs => o.offset_seconds)"


def _params(now: dt.datetime, **more) -> dict:
    return {"channels": list(CHANNELS), "default": Jsonb(list(DEFAULT_OFFSETS)), "now": now, **more}


def pending(conn, now: dt.datetime, game_id=None) -> list[tuple[str, dt.datetime]]:
    """(game, when its next reminder is due) of every active game with one
    still to send (due in the past: it is late, send it now)."""
    one = " and sd.game_id = %(game)s" if game_id is not None else ""
    return [(str(g), due) for g, due in conn.execute(
        f"select sd.game_id, min({_DUE}) from seat_deadlines sd"
        " join games g on g.id = sd.game_id and g.status = 'active'"
        f" left join reminder_settings r on r.player_id = sd.player_id {_OFFSETS}"
        f" where sd.deadline > %(now)s and {_DUE} > sd.turn_began_at and {_UNSENT}{one}"
        " group by sd.game_id", _params(now, game=game_id))]


def _due(conn, game_id, now: dt.datetime) -> list[tuple]:
    return conn.execute(
        "select sd.seat, sd.player_id::text, sd.turn_version, sd.deadline, sd.clock, o.channel, o.offset_seconds"
        " from seat_deadlines sd"
        f" left join reminder_settings r on r.player_id = sd.player_id {_OFFSETS}"
        f" where sd.game_id = %(game)s and sd.deadline > %(now)s and {_DUE} > sd.turn_began_at"
        f" and {_DUE} <= %(now)s and {_UNSENT} order by sd.seat, o.offset_seconds",
        _params(now, game=game_id)).fetchall()


class Reminders:
    """``fire`` sends a game's due reminders; ``schedule`` asks the scheduler
    for the game's next. ``clock`` is the service's (tests inject theirs)."""

    def __init__(self, pool, store, clock, seat_history):
        self.pool = pool
        self.store = store
        self.clock = clock
        self.seat_history = seat_history

    def fire(self, game_id, now: dt.datetime | None = None) -> int:
        """Send the reminders of ``game_id`` due by ``now``; how many seats were reminded."""
        return self.send(game_id, None, now)

    def send(self, game_id, scheduler, now: dt.datetime | None = None) -> int:
        """The reminder job: ``fire``, then (with a ``scheduler``) ask it for
        the game's next reminder, read on the same connection; how many seats
        were reminded."""
        now = now or self.clock()
        stream = stream_of(game_id)
        with self.pool.connection() as conn:
            with conn.transaction():
                version, count = self._send(conn, game_id, stream, now)
            if scheduler is not None:
                found = pending(conn, now, str(game_id))
        if version is not None:
            self.store.announce(stream, version)
        if scheduler is not None and found:
            scheduler.schedule_reminder(str(game_id), found[0][1])
        return count

    def _send(self, conn, game_id, stream: str, now: dt.datetime) -> tuple[int | None, int]:
        """In ``conn``'s transaction: (the reminder stream's new version or None, seats reminded)."""
        # Shares the game's row with no other writer: a move being
        # committed is either seen here (its seat no longer due) or waits.
        game = conn.execute("select game, status, version, options from games where id = %s for share",
                            (game_id,)).fetchone()
        if game is None or game[1] != sessions.ACTIVE:
            return None, 0
        events = []
        by_seat: dict[str, list[tuple]] = {}
        for row in _due(conn, game_id, now):
            by_seat.setdefault(row[0], []).append(row)
        for seat, rows in by_seat.items():
            _, player, turn_version, deadline, clock, _, _ = rows[0]
            sent = conn.execute(
                "insert into reminders_sent (game_id, seat, turn_version, channel, offset_seconds)"
                " select %s, %s, %s, unnest(%s::text[]), unnest(%s::int[]) on conflict do nothing"
                " returning channel, offset_seconds",
                (game_id, seat, turn_version, [r[5] for r in rows], [r[6] for r in rows])).fetchall()
            if not sent:
                continue
            data = {
                "seat": seat, "player": player, "game": game[0], "game_version": game[2],
                "turn_version": turn_version, "deadline": deadline.astimezone(dt.timezone.utc).isoformat(),
                "left_seconds": max(0, int((deadline - now).total_seconds())),
                "offset_seconds": min(offset for _, offset in sent), "clock": clock,
                "at_deadline": self._at_deadline(conn, game_id, game[3], seat, player, now),
                "channels": sorted({channel for channel, _ in sent}),
            }
            data["text"] = sentence(data)
            events.append(NewEvent(REMINDER_EVENT, data, {"actor": sessions.SYSTEM, "tell": [player]}))
        if not events:
            return None, 0
        return self.store.append(stream, events, ANY, conn=conn, announce_later=True), len(events)

    def _at_deadline(self, conn, game_id, options, seat: str, player: str, now: dt.datetime) -> str:
        """What the deadline does to the seat: a day of its player's absence
        allowance spent (api/service/absences.py), its timeout move, or (the
        missed turn that reaches ``abandon_after``) abandonment to a bot."""
        if absence_rules.absences_allowed(options) and day_spendable(conn, player, now):
            return "absence"
        most = options.get("abandon_after", lifecycle.DEFAULT_ABANDON_AFTER)
        if not most:
            return "timeout"
        if most > 1 and not _ever_timed_out(conn, game_id, seat):
            return "timeout"  # no run of timeouts to extend: the game's whole log need not be read
        _, streak = lifecycle.history(self.seat_history(game_id))
        return "abandon" if streak.get(seat, 0) + 1 >= most else "timeout"

    def next_due(self, game_id, now: dt.datetime | None = None) -> dt.datetime | None:
        with self.pool.connection() as conn:
            found = pending(conn, now or self.clock(), str(game_id))
        return found[0][1] if found else None

    def schedule(self, game_id, scheduler, now: dt.datetime | None = None) -> None:
        due = self.next_due(game_id, now)
        if due is not None:
            scheduler.schedule_reminder(str(game_id), due)


def _ever_timed_out(conn, game_id, seat: str) -> bool:
    """Whether any decision of the game timed ``seat`` out: without one, its run of timeouts is 0."""
    return conn.execute("select exists (select 1 from events where stream_id = %s and metadata @> %s)",
                        (game_stream(game_id), Jsonb({"seat": seat, "timeout": True}))).fetchone()[0]


def _span(seconds: int) -> str:
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    parts = [f"{days} d"] * bool(days) + [f"{hours} h"] * bool(hours) + [f"{minutes} min"] * bool(minutes)
    return " ".join(parts[:2]) or f"{seconds} s"


def sentence(data: dict) -> str:
    """What a reminder says: which game, how long is left, what the deadline does."""
    what = "your time bank runs out" if data["clock"] == "bank" else "your turn's time runs out"
    then = {"abandon": "you miss one more turn in a row and a bot takes your seat (abandonment)",
            "absence": "a day of your absence allowance is spent instead of a timeout: you are away for a day in "
                       "all your games (you may turn this off in your absence settings)",
            }.get(data["at_deadline"], "the timeout move is played for you")
    return (f"{_span(data['left_seconds'])} left in {title_of(data['game'])}: {what} at "
            f"{data['deadline'][:16].replace('T', ' ')} UTC, and then {then}.")
