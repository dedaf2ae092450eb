"""The seat-life events of a game's stream and how they fold into its Session.

They are engine events (public, shown to every viewer as they are): who
resigned, aborted or was abandoned, which seats bots play, which invite codes
were issued (only their sha256) and redeemed, and where a rematch went.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from ..engine import Event
from .agreement_events import AGREEMENT_EVENTS, Proposal, fold_agreement

# The session's statuses that these events move a game to (domain.session
# defines them; it imports this module, so they are repeated here).
CANCELLED, SCORING = "cancelled", "scoring"


@dataclass(frozen=True)
class BotSeated(Event):
    """A bot of ``kind`` takes a seat in the lobby."""

    seat: str
    kind: str


@dataclass(frozen=True)
class SeatResigned(Event):
    """``bot``: the bot kind that plays the seat's turns from now on, or None
    when the game needs none (the game ends, or its pieces went to other seats)."""

    seat: str
    player: str
    bot: str | None


@dataclass(frozen=True)
class GameAborted(Event):
    """A seat's player aborted the game before every seat had acted once: it is cancelled, with no
    result."""

    seat: str
    player: str


@dataclass(frozen=True)
class SeatAbandoned(Event):
    """A seat timed out ``abandon_after`` turns in a row: its player is taken to be gone, and a
    bot plays the seat from now on (the host may invite a replacement)."""

    seat: str
    player: str
    timeouts: int
    bot: str


@dataclass(frozen=True)
class InviteIssued(Event):
    """A single-use invite code, by its sha256: ``seat`` None is a lobby
    seat of a private game, a seat name is a replacement for that seat."""

    seat: str | None
    code_sha256: str


@dataclass(frozen=True)
class InviteRedeemed(Event):
    """A player redeemed an invite code of this game; the code is spent."""

    code_sha256: str
    player: str


@dataclass(frozen=True)
class SeatReplaced(Event):
    """The seat changed hands: a bot or a vanished player gives it up to ``player``."""

    seat: str
    player_before: str | None
    player: str


@dataclass(frozen=True)
class RematchInvited(Event):
    """This game is a rematch of ``of_game``; each listed seat is kept for its player."""

    of_game: str
    invited: Mapping[str, str]


@dataclass(frozen=True)
class RematchCreated(Event):
    """Appended to a finished game: its rematch is the game ``game_id``."""

    game_id: str


@dataclass(frozen=True)
class ClocksComputed(Event):
    """Each seat's time bank in seconds as of ``at`` (ISO 8601, UTC), and
    since when each seat to act has been to act (its bank runs from then)."""

    at: str
    banks: Mapping[str, float]
    since: Mapping[str, str]


@dataclass(frozen=True)
class SeatAway(Event):
    """The seat's player declared an absence (a fact of the player's, kept
    outside the game's log) that matters to this game from now on: from
    ``since`` to ``until`` (ISO 8601, UTC) the seat has no deadline, its bank
    does not run, and it is not timed out (README, Absence)."""

    seat: str
    since: str
    until: str


@dataclass(frozen=True)
class SeatBack(Event):
    """The seat's absence is over (its end came, or its player acted): its
    deadlines and bank run again, from now."""

    seat: str


@dataclass(frozen=True)
class PauseAsked(Event):
    """A seat's player asks to pause the game; it pauses when every seat a
    player plays has asked (GamePaused follows in the same batch)."""

    seat: str
    player: str


@dataclass(frozen=True)
class GamePaused(Event):
    """Every seat a player plays asked: no deadline runs and no bank falls until GameResumed."""


@dataclass(frozen=True)
class GameResumed(Event):
    """One of the players asked to go on: the asks are forgotten, the clocks
    run from now, each turn with the time it had left when the game paused."""

    seat: str
    player: str


@dataclass(frozen=True)
class TakebackAsked(Event):
    """``seat`` asks to take back its last decision, the one decided on ``version``."""

    seat: str
    player: str
    version: int


@dataclass(frozen=True)
class TakebackAccepted(Event):
    """Another seat agrees to return the game to ``version``."""

    seat: str
    player: str
    version: int


@dataclass(frozen=True)
class TakebackRefused(Event):
    """Another seat refuses the open takeback request: it is over, and the game goes on."""

    seat: str
    player: str


@dataclass(frozen=True)
class TakenBack(Event):
    """Every other seat accepted: the game is as it was at ``version`` (its
    state re-folded from the history up to there; the events after it stay in
    the log, which only grows)."""

    version: int


TAKEBACK_EVENTS = (TakebackAsked, TakebackAccepted, TakebackRefused, TakenBack)


@dataclass(frozen=True)
class TimeGiven(Event):
    """``seat``'s player gives ``to_seat``, to act now, ``seconds`` more on
    its current deadline and bank (domain.lifecycle.give); the
    ClocksComputed after it records them."""

    seat: str
    player: str
    to_seat: str
    seconds: int


@dataclass(frozen=True)
class Takeback:
    """An open request: who asked, to return to which version, who accepted."""

    seat: str
    version: int
    accepted: frozenset[str] = frozenset()


LIFECYCLE_EVENTS = (
    BotSeated,
    SeatResigned,
    GameAborted,
    SeatAbandoned,
    InviteIssued,
    InviteRedeemed,
    SeatReplaced,
    RematchInvited,
    RematchCreated,
    ClocksComputed,
    SeatAway,
    SeatBack,
    PauseAsked,
    GamePaused,
    GameResumed,
    *TAKEBACK_EVENTS,
    TimeGiven,
    *AGREEMENT_EVENTS,
)


@dataclass(frozen=True)
class Life:
    bots: Mapping[str, str] = field(default_factory=dict)  # seat -> the bot kind playing it
    resigned: tuple[str, ...] = ()  # in the order they resigned
    abandoned: tuple[str, ...] = ()
    invites: Mapping[str, str | None] = field(default_factory=dict)  # open code sha256 -> seat (None: lobby)
    spent: frozenset[str] = frozenset()  # redeemed code sha256s
    reserved: Mapping[str, str] = field(default_factory=dict)  # rematch: seat -> invited player
    rematch_of: str | None = None
    rematch: str | None = None
    clocks: ClocksComputed | None = None
    # player -> (seat, version): a former holder who stopped seeing the seat at
    # that version (the version of his SeatResigned or SeatAbandoned); he keeps
    # the seat's view of what came before (see Session.seat_seen_by).
    left: Mapping[str, tuple[str, int]] = field(default_factory=dict)
    away: Mapping[str, SeatAway] = field(default_factory=dict)  # seat -> its absence, while it lasts
    pause_asked: frozenset[str] = frozenset()  # seats whose players asked to pause
    paused: bool = False
    takeback: Takeback | None = None
    # While paused: seat -> the seconds of its turn it had used when the game
    # paused (from the clocks before the pause and the pause's own), so that
    # its turn deadline keeps the rest on resuming instead of starting whole.
    turn_used: Mapping[str, float] | None = None
    given: Mapping[str, int] = field(default_factory=dict)  # seat -> the seconds its player gave others so far
    proposal: Proposal | None = None  # an open proposal to end the game by agreement
    agreed: str | None = None  # how the players agreed to end it, once they did

    def plays(self, seat: str) -> str | None:
        """The bot kind that plays ``seat``, if a bot does."""
        return self.bots.get(seat)


def _turn_used(clocks: ClocksComputed, at: str) -> dict[str, float]:
    """How long each seat to act in ``clocks`` had been to act at ``at``."""
    now = dt.datetime.fromisoformat(at)
    return {seat: max(0.0, (now - dt.datetime.fromisoformat(since)).total_seconds())
            for seat, since in clocks.since.items()}


def fold(session: Any, event: Event) -> Any:
    """The session after one of these events (its version already counted)."""
    life: Life = session.life
    if isinstance(event, BotSeated):
        return replace(session, life=replace(life, bots={**life.bots, event.seat: event.kind}))
    if isinstance(event, SeatResigned):
        bots = {**life.bots, event.seat: event.bot} if event.bot else dict(life.bots)
        left = {**life.left, event.player: (event.seat, session.version)}
        return replace(session, life=replace(life, bots=bots, resigned=(*life.resigned, event.seat), left=left))
    if isinstance(event, GameAborted):
        return replace(session, status=CANCELLED, outcome=f"aborted by {event.seat} before every seat had acted")
    if isinstance(event, SeatAbandoned):
        left = {**life.left, event.player: (event.seat, session.version)}
        return replace(session, life=replace(
            life, bots={**life.bots, event.seat: event.bot}, abandoned=(*life.abandoned, event.seat), left=left))
    if isinstance(event, InviteIssued):
        return replace(session, life=replace(life, invites={**life.invites, event.code_sha256: event.seat}))
    if isinstance(event, InviteRedeemed):
        invites = {code: seat for code, seat in life.invites.items() if code != event.code_sha256}
        return replace(session, life=replace(life, invites=invites, spent=life.spent | {event.code_sha256}))
    if isinstance(event, SeatReplaced):
        bots = {seat: kind for seat, kind in life.bots.items() if seat != event.seat}
        abandoned = tuple(seat for seat in life.abandoned if seat != event.seat)
        # The new holder sees the seat, its past too, as any holder does (the
        # vanished player taking it back as well); one handed over without a
        # SeatAbandoned stops seeing it here.
        left = {player: held for player, held in life.left.items() if player != event.player}
        if event.player_before not in (None, event.player) and event.player_before not in left:
            left[event.player_before] = (event.seat, session.version)
        return replace(session, players={**session.players, event.seat: event.player},
                       life=replace(life, bots=bots, abandoned=abandoned, left=left))
    if isinstance(event, RematchInvited):
        return replace(session, life=replace(life, rematch_of=event.of_game, reserved=dict(event.invited)))
    if isinstance(event, RematchCreated):
        return replace(session, life=replace(life, rematch=event.game_id))
    if isinstance(event, ClocksComputed):
        used = life.turn_used if life.paused else None  # the resume's clocks have used it
        if life.paused and used is None and life.clocks is not None:  # the pause's own clocks
            used = _turn_used(life.clocks, event.at)
        return replace(session, life=replace(life, clocks=event, turn_used=used))
    if isinstance(event, SeatAway):
        return replace(session, life=replace(life, away={**life.away, event.seat: event}))
    if isinstance(event, SeatBack):
        return replace(session, life=replace(life, away={s: a for s, a in life.away.items() if s != event.seat}))
    if isinstance(event, PauseAsked):
        return replace(session, life=replace(life, pause_asked=life.pause_asked | {event.seat}))
    if isinstance(event, GamePaused):
        return replace(session, life=replace(life, paused=True))
    if isinstance(event, GameResumed):
        return replace(session, life=replace(life, paused=False, pause_asked=frozenset()))
    if isinstance(event, TakebackAsked):
        return replace(session, life=replace(life, takeback=Takeback(event.seat, event.version)))
    if isinstance(event, TakebackAccepted) and life.takeback is not None:
        taken = replace(life.takeback, accepted=life.takeback.accepted | {event.seat})
        return replace(session, life=replace(life, takeback=taken))
    if isinstance(event, TakebackRefused):
        return replace(session, life=replace(life, takeback=None))
    if isinstance(event, TakenBack):
        return replace(session, state=session.state_at(event.version), life=replace(life, takeback=None),
                       recent=tuple(kept for kept in session.recent if kept[0] < event.version))
    if isinstance(event, TimeGiven):
        return replace(session, life=replace(life, given={**life.given,
                                                          event.seat: life.given.get(event.seat, 0) + event.seconds}))
    if isinstance(event, AGREEMENT_EVENTS):
        return fold_agreement(session, life, event)
    raise AssertionError(f"not a lifecycle event: {event!r}")
