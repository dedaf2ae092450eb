"""Decisions about seats rather than moves: creation options, resign, abort,
abandonment, invites and replacements, private lobbies, rematches.

Refusals say why, and their class says which kind of refusal it is (the
API answers 403 for ``NotAllowed``, 409 for ``NotNow``, 422 otherwise).
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from typing import Any, Iterable, Mapping

from .. import session as sessions
from ..engine import Event, IllegalCommand, InvalidOption
from ..kit import Game
from . import bots as bot_registry
from . import standings
from .agreement_events import AS_IT_STANDS
from .clocks import DEADLINE_PER_SEAT_BY_DEFAULT, resolve_clock_options
from .hidden import private_holders
from .state import (
    BotSeated,
    GameAborted,
    InviteIssued,
    InviteRedeemed,
    RematchInvited,
    SeatAbandoned,
    SeatReplaced,
    SeatResigned,
)

PUBLIC, PRIVATE = "public", "private"
DEFAULT_ABANDON_AFTER = 3
# Recorded in every new GameCreated, never set by a host: a game stored
# without it keeps the rule it was played under, so its audit re-runs as recorded.
NO_ABORT_ONCE_DEALT = "no_abort_once_dealt"
RECORDED = (standings.OUTCOME_FOLLOWS_STANDINGS, NO_ABORT_ONCE_DEALT)
MAX_ABANDON_AFTER = 100


class NotAllowed(IllegalCommand):
    """The caller may not do this (wrong player, wrong seat, forged code)."""


class NotNow(IllegalCommand):
    """Not in the game's present status (already started, over...)."""


class InviteUnknown(NotAllowed):
    """A code this game never issued (forged, mistyped, or another game's)."""


class InviteSpent(NotNow):
    """A code that was redeemed already."""


def code_sha256(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


# Creation


def described_options() -> list[dict]:
    """The options of a game's life, as the catalogue lists them beside each game's own."""
    from ..engine import Option
    from .clocks import LIMITS

    options = [
        Option("visibility", "choice", PUBLIC, "public: listed, anyone may join; private: joined by invite code only",
               choices=(PUBLIC, PRIVATE)),
        Option("abandon_after", "int", DEFAULT_ABANDON_AFTER,
               "consecutive timeouts after which a bot takes the seat; 0 never", minimum=0, maximum=MAX_ABANDON_AFTER),
        Option("absences", "choice", "allowed",
               "allowed: a seat whose player declared an absence is away, its deadlines and bank stopped; "
               "forbidden: deadlines run for everyone (tournaments that cannot wait)",
               choices=("allowed", "forbidden")),
        Option("takebacks", "choice", "with-consent",
               "with-consent: a seat may ask to take back its last move, which the other players accept or refuse; "
               "off: no takebacks (a strict game)", choices=("with-consent", "off")),
        Option("spectators_read_table", "bool", False,
               "spectators (and players of other games) may read the table's messages; never a team's or a "
               "private channel"),
        Option("deadline_per_seat", "bool", DEADLINE_PER_SEAT_BY_DEFAULT,
               "turn_seconds counts from when each seat became one to act, not from the last move of any seat"),
    ]
    texts = {"time_bank_seconds": "each seat's time bank; off when null",
             "time_increment_seconds": "what a seat's own turn adds to its bank, at the turn's end",
             "time_cap_seconds": "the most a bank may hold; the starting bank when null"}
    for name, (low, high) in LIMITS.items():
        options.append(Option(name, "int", None, texts[name], minimum=low, maximum=high))
    return [option.to_json() for option in options]


def create(
    rules: Game, host: str, options: Mapping[str, Any] | None, seed: bytes, seat: str | None
) -> list[Event]:
    """The session's ``create`` plus the options of a game's life, checked and
    kept in GameCreated's options beside ``turn_seconds``:

    - ``visibility``: "public" (listed, anyone may join) or "private" (join
      by an invite code from the host only; not listed);
    - ``abandon_after``: consecutive timeouts after which a seat is abandoned
      to a bot (0 = never; default 3);
    - ``absences``: "allowed" (default) or "forbidden": whether a seat whose
      player declared an absence is away (domain.lifecycle.absence);
    - ``takebacks``: "with-consent" (default) or "off" (domain.lifecycle.takeback);
    - ``spectators_read_table``: whether spectators read the table's messages (domain.lifecycle.talk);
    - ``bots``: {seat: kind} seats given to bots at creation;
    - the time bank and per-seat deadline options of ``clocks``.
    """
    given = dict(options or {})
    visibility = given.pop("visibility", PUBLIC)
    if visibility not in (PUBLIC, PRIVATE):
        raise InvalidOption(f"option visibility must be public or private, not {visibility!r}", "visibility")
    abandon_after = given.pop("abandon_after", DEFAULT_ABANDON_AFTER)
    if isinstance(abandon_after, bool) or not isinstance(abandon_after, int) or not 0 <= abandon_after <= MAX_ABANDON_AFTER:
        raise InvalidOption(
            f"option abandon_after must be a whole number of timeouts from 0 (never) to {MAX_ABANDON_AFTER}, "
            f"not {abandon_after!r}", "abandon_after"
        )
    absences = given.pop("absences", "allowed")
    if absences not in ("allowed", "forbidden"):
        raise InvalidOption(f"option absences must be allowed or forbidden, not {absences!r}", "absences")
    takebacks = given.pop("takebacks", "with-consent")
    if takebacks not in ("with-consent", "off"):
        raise InvalidOption(f"option takebacks must be with-consent or off, not {takebacks!r}", "takebacks")
    spectators_read_table = given.pop("spectators_read_table", False)
    if not isinstance(spectators_read_table, bool):
        raise InvalidOption("option spectators_read_table must be true or false", "spectators_read_table")
    bots = given.pop("bots", None) or {}
    clocks = resolve_clock_options(given)
    events = sessions.create(rules, host, given, seed, seat)
    created = events[0]
    # Recorded, not chosen: games created before it keep their rules' own
    # GameOver sentence, so that their decisions re-run to the events stored.
    resolved = {**created.options, "visibility": visibility, "abandon_after": abandon_after, "absences": absences,
                "takebacks": takebacks, "spectators_read_table": spectators_read_table, **clocks,
                standings.OUTCOME_FOLLOWS_STANDINGS: True, NO_ABORT_ONCE_DEALT: True}
    events[0] = replace(created, options=resolved)
    return events + seat_bots(rules, created.seats, events[1].seat, bots)


def seat_bots(rules: Game, seats: Iterable[str], host_seat: str, bots: Any) -> list[Event]:
    if not isinstance(bots, Mapping):
        raise InvalidOption('option bots must map seats to bot kinds, such as {"p2": "random"}', "bots")
    offered = bot_registry.kinds(rules.name)
    events = []
    for seat, kind in sorted(bots.items()):
        if seat not in seats:
            raise InvalidOption(f"option bots names no seat {seat!r}; seats are {', '.join(seats)}", f"bots.{seat}")
        if seat == host_seat:
            raise InvalidOption(f"seat {seat} is the host's; give a bot another seat", f"bots.{seat}")
        if kind not in offered:
            raise InvalidOption(f"there is no bot {kind!r} for {rules.name}; bots: {', '.join(offered)}", f"bots.{seat}")
        events.append(BotSeated(seat, kind))
    return events


# Lobby


def join(session, player: str, seat: str | None) -> list[Event]:
    """Joining without a code: refused in private games, and on a seat a
    rematch keeps for another player."""
    reserved = session.life.reserved
    invited = player in reserved.values()
    if session.status == sessions.LOBBY and session.options.get("visibility") == PRIVATE and not invited:
        raise NotAllowed("this game is private: join it with an invite code from its host")
    if seat is None and invited and session.seat_of(player) is None:
        seat = next(s for s, p in reserved.items() if p == player and s not in session.players)
    if seat is not None and reserved.get(seat) not in (None, player) and session.status == sessions.LOBBY:
        raise NotAllowed(f"seat {seat} is kept for the player this rematch invited; choose another seat")
    if seat is None and reserved and session.status == sessions.LOBBY:
        seat = next((s for s in session.seats if s not in session.players and s not in session.life.bots
                     and reserved.get(s) is None), None)
        if seat is None:
            raise NotAllowed("every free seat is kept for a player this rematch invited")
    return sessions.join(session, player, seat)


def issue_invite(session, player: str, seat: str | None, code: str) -> list[Event]:
    """A single-use code from the host: in the lobby, for a seat (or any free
    one); once the game runs, to replace a seat that a bot plays because its
    player vanished or that was given to a bot at creation."""
    if player != session.host:
        raise NotAllowed("only the host may invite players")
    if session.status == sessions.LOBBY:
        free = [s for s in session.seats if s not in session.players and s not in session.life.bots]
        if seat is not None and seat not in session.seats:
            raise IllegalCommand(f"there is no seat {seat!r}; seats are {', '.join(session.seats)}")
        if seat is not None and seat not in free:
            raise NotNow(f"seat {seat} is taken; free seats: {', '.join(free) or 'none'}")
        if not free:
            raise NotNow("every seat is taken")
        return [InviteIssued(seat, code_sha256(code))]
    if session.status != sessions.ACTIVE:
        raise NotNow(f"the game is {session.status}: nobody can be invited into it")
    if seat is None:
        raise IllegalCommand("name the seat the replacement takes")
    if seat not in session.seats:
        raise IllegalCommand(f"there is no seat {seat!r}; seats are {', '.join(session.seats)}")
    if seat in session.life.resigned:
        raise NotNow(f"{seat} resigned: its result stands and nobody can take it over")
    if seat not in session.life.bots:
        raise NotNow(f"{seat} is played by its player: only a seat a bot plays can be taken over")
    return [InviteIssued(seat, code_sha256(code))]


def redeem(session, player: str, code: str) -> list[Event]:
    digest = code_sha256(code)
    if digest in session.life.spent:
        raise InviteSpent("this invite code was used already; ask the host for a new one")
    if digest not in session.life.invites:
        raise InviteUnknown("this is not an invite code of this game")
    seat = session.life.invites[digest]
    redeemed = InviteRedeemed(digest, player)
    if session.status == sessions.LOBBY:
        return [redeemed, *sessions.join(session, player, seat)]
    if session.status != sessions.ACTIVE:
        raise NotNow(f"the game is {session.status}: its seats cannot change hands")
    held = session.seat_of(player)
    if held is not None and held != seat:
        raise NotNow(f"you already sit at {held} in this game")
    if seat not in session.life.bots or seat in session.life.resigned:
        raise NotNow(f"{seat} is no longer open for a replacement")
    return [redeemed, SeatReplaced(seat, session.players.get(seat), player)]


# Leaving a running game


def seat_to_leave(session, player: str, action: str) -> str:
    if session.status == sessions.LOBBY:
        raise NotNow(f"cannot {action}: the game has not started; leave its lobby instead")
    if session.status != sessions.ACTIVE:
        raise NotNow(f"cannot {action}: the game is {session.status}")
    seat = session.seat_of(player)
    if seat is None:
        raise NotAllowed("you hold no seat in this game")
    if seat in session.life.resigned:
        raise NotNow(f"you resigned from this game already ({seat})")
    return seat


def resign(rules: Game, session, player: str, seed: bytes) -> list[Event]:
    """The game decides what follows (``Rules.resign``); in a multiplayer
    game, when every seat but one has resigned, that one wins at once."""
    seat = seat_to_leave(session, player, "resign")
    resignation = rules.resign(session.state, seat)
    standing = [s for s in session.seats if s not in session.life.resigned and s != seat]
    if resignation.last_standing_wins and len(standing) == 1:
        winner = standing[0]
        return [SeatResigned(seat, player, None),
                sessions.GameOver(f"{seat} resigned: {winner} wins, the last seat standing", seed.hex())]
    kind = bot_registry.best_kind(rules.name) if resignation.bot else None
    events = [SeatResigned(seat, player, kind), *resignation.events]
    state = session.state
    for event in resignation.events:
        state = rules.evolve(state, event)
    outcome = sessions.outcome_of(rules, session, state, (*session.life.resigned, seat))
    return events if outcome is None else events + [sessions.GameOver(outcome, seed.hex())]


def abort(rules: Game, session, player: str, acted: Iterable[str]) -> list[Event]:
    """Any seat may abort before every seat has acted once (a timeout or a
    bot's move counts as acting, and so does resigning: a seat that resigned
    before it ever acted, whose pieces went to other seats, never acts again,
    and the game could otherwise be wiped at any time, result and all); the
    game ends with no result.

    In a game created with ``no_abort_once_dealt`` (every game since), not
    once some seat holds what the others do not: a player who looked at his
    hand could otherwise throw back every deal he dislikes (a friend's seat
    could, for him). Leaving is then resigning, or a cancel that every seat
    accepts (domain.lifecycle.agreement). The Court of Miracles and The Coil
    deal hands, and Coronation's Lind hides, at the start; Cronberg and
    Runebound hold nothing private before every seat has acted."""
    seat = seat_to_leave(session, player, "abort")
    if set(session.seats) <= set(acted) | set(session.life.resigned):
        raise NotNow("every seat has acted at least once: the game can no longer be aborted; resign instead")
    dealt = private_holders(rules, session.state, session.seats) if session.options.get(NO_ABORT_ONCE_DEALT) else []
    if dealt:
        raise NotNow(f"private information is dealt ({', '.join(dealt)} {'sees' if len(dealt) == 1 else 'see'} what "
                     "the others do not): the game can no longer be aborted; resign instead, or propose to cancel it, "
                     "which every player must accept")
    return [GameAborted(seat, player)]


def abandon(rules: Game, session, seat: str, timeouts: int) -> list[Event]:
    """After ``abandon_after`` consecutive timeouts a seat's player is gone:
    a bot plays the seat from now on (the host may invite a replacement)."""
    limit = session.options.get("abandon_after", DEFAULT_ABANDON_AFTER)
    if not limit or timeouts < limit or seat in session.life.bots or seat not in session.players:
        return []
    return [SeatAbandoned(seat, session.players[seat], timeouts, bot_registry.best_kind(rules.name))]


def history(records: Iterable[tuple[str | None, bool, bool]]) -> tuple[set[str], dict[str, int]]:
    """From each decision's (seat, timed out, is a replacement) in log order:
    the seats that have acted, and each seat's run of consecutive timeouts
    (a replacement starts a seat's run afresh)."""
    acted: set[str] = set()
    streak: dict[str, int] = {}
    for seat, timeout, replaced in records:
        if seat is None:
            continue
        if replaced:
            streak[seat] = 0
            continue
        acted.add(seat)
        streak[seat] = streak.get(seat, 0) + 1 if timeout else 0
    return acted, streak


# Rematch


def rematch(rules: Game, old, player: str, old_id: str, seed: bytes) -> list[Event]:
    """A new game with the old one's seats, options and bots, a new seed,
    hosted by ``player`` at the same seat, every other seat kept for the
    player who held it."""
    if old.status not in (sessions.FINISHED, sessions.SCORING):
        raise NotNow(f"only a finished game can have a rematch; this one is {old.status}")
    seat = old.seat_of(player)
    if seat is None:
        raise NotAllowed("only a player of this game can ask for its rematch")
    if old.life.rematch is not None:
        raise NotNow(f"this game has its rematch already: game {old.life.rematch}")
    bots = {s: kind for s, kind in old.life.bots.items() if s not in old.players}
    # GameCreated keeps every option resolved, so they are all valid again as given.
    options = {name: value for name, value in old.options.items() if name not in RECORDED}
    events = create(rules, player, {**options, "bots": bots}, seed, seat)
    invited = {s: p for s, p in old.players.items() if p != player and s not in bots}
    return events + [RematchInvited(old_id, invited)]


# Scoring


def scored(rules: Game, session) -> list[Event]:
    """The game's standings, with resigned seats moved to the end (the last
    to resign ranks highest among them); a game ended by resignation before
    its rules ended it ranks the seats still standing first, equal (see
    ``standings``, which the outcome sentence of new games follows too)."""
    if session.status != sessions.SCORING:
        raise sessions.LobbyRefusal(f"the game is {session.status}, not awaiting its score")
    resigned = session.life.resigned
    if session.life.agreed == AS_IT_STANDS:
        own = rules.score(session.state) if rules.score_as_it_stands else None
        result = standings.as_it_stands(own, session.seats, resigned, session.life.abandoned)
        return [sessions.GameScored(tuple(standing.to_json() for standing in result))]
    if not resigned and not session.life.abandoned:
        return sessions.scored(rules, session)
    ranking = None if rules.outcome(session.state) is None else rules.score(session.state)
    result = standings.ranked(ranking, session.seats, resigned, session.life.abandoned)
    return [sessions.GameScored(tuple(standing.to_json() for standing in result))]
