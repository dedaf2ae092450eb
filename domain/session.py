"""A hosted game from lobby to standings: the engine's own aggregate.

One stream holds a game's whole life. The engine's events (GameCreated,
SeatTaken, PlayersSeated, TurnTimedOut, GameOver, GameScored...) frame the
game's own events; ``evolve`` folds the first itself and hands the others to
the game's rules. Like a game, this module is pure: the command service
brings the clock, the seed and the storage.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from .engine import (
    EVERYONE,
    Codec,
    Command,
    Event,
    IllegalCommand,
    InvalidOption,
    Standing,
    UnreadableHistory,
    not_your_turn,
    resolve_options,
    seed_commitment,
)
from .kit import Game
from . import randomness
from .upcasting import ENGINE_UPCASTERS, UnknownEventType, upcast
from .lifecycle.state import LIFECYCLE_EVENTS, Life
from .lifecycle.state import fold as fold_life
from .lifecycle.standings import OUTCOME_FOLLOWS_STANDINGS, agreeing_outcome

LOBBY, ACTIVE, SCORING, FINISHED, CANCELLED = "lobby", "active", "scoring", "finished", "cancelled"
# What new games are recorded with (openapi/verifying-a-game.md, section 1);
# a game keeps the versions its GameCreated names, for ever.
CHAIN_VERSION = 2  # 2: every event's metadata holds a salt, so receipts hide (section 3.2)
CHAIN_VERSIONS = frozenset({1, 2})  # every chain version this installation reads


class UnknownChainVersion(UnreadableHistory):
    """A game hashed under a chain version this installation lacks: no
    finding about the game, either way."""

    kind = "chain-version-unknown"
RANDOMNESS_VERSION = 2  # 2: HMAC-SHA256 counter mode with players' contributions and draw lists (section 4)
SYSTEM = "system"
RECENT_STATES = 64  # game events a takeback may reach back over


class LobbyRefusal(IllegalCommand):
    """A lobby action that the game's status or seats forbid."""


class NotSeated(IllegalCommand):
    """The player holds no seat (or not that seat) in this game."""


class ContributionMade(IllegalCommand):
    """The seat has contributed to the randomness already."""


class BadContribution(IllegalCommand):
    """A contribution that is not 1 to 64 bytes written in hex."""


@dataclass(frozen=True)
class GameCreated(Event):
    """The game was created, in its lobby: the first event of every game,
    naming its game, options, seats and host, and committing to its seed.

    ``rules_version``: the version of the game's rules it is played under,
    for ever; ``data_files``: the sha256 of each data file those rules read
    (schema version 2; version 1 had neither, see domain/upcasting.py);
    ``chain_version`` and ``randomness_version``: how its hashed documents
    are written and how its draws are taken, for ever (schema version 3;
    openapi/verifying-a-game.md defines each version)."""

    schema_version = 3

    game: str
    options: Mapping[str, Any]
    seats: tuple[str, ...]
    host: str
    seed_sha256: str
    rules_version: int
    data_files: Mapping[str, str]
    chain_version: int = 1
    randomness_version: int = 1


@dataclass(frozen=True)
class SeatTaken(Event):
    """A player took a seat in the lobby (the host at creation, then each who joins or redeems an invite)."""

    seat: str
    player: str


@dataclass(frozen=True)
class SeatLeft(Event):
    """A player left the lobby, freeing his seat; when the host leaves, another seated player
    hosts (an empty lobby is cancelled: GameCancelled follows)."""

    seat: str
    player: str
    new_host: str | None


@dataclass(frozen=True)
class SeedContributed(Event):
    """A seat's contribution to the game's randomness (hex, 1 to 64 bytes),
    mixed into the generator's key with the seed (verifying-a-game.md, 4.2)."""

    seat: str
    contribution: str


@dataclass(frozen=True)
class GameCancelled(Event):
    """The game was cancelled in its lobby and will never start."""

    reason: str


@dataclass(frozen=True)
class PlayersSeated(Event):
    """The host started the game with these players; the game's own setup events follow."""

    players: Mapping[str, str]


@dataclass(frozen=True)
class TurnTimedOut(Event):
    """A seat's deadline passed: the server plays the seat's turn with the game's timeout command,
    whose events follow."""

    seat: str
    deadline_version: int


@dataclass(frozen=True)
class GameOver(Event):
    """The game ended: the result, and the seed published so that anyone can check every draw;
    GameScored follows."""

    outcome: str
    seed: str


@dataclass(frozen=True)
class GameScored(Event):
    """The game's final standings, recorded once it is scored."""

    standings: tuple[Mapping[str, Any], ...]


ENGINE_EVENTS = (
    GameCreated, SeatTaken, SeatLeft, SeedContributed, GameCancelled, PlayersSeated, TurnTimedOut, GameOver, GameScored,
    *LIFECYCLE_EVENTS,
)
ENGINE_EVENT_TYPES = frozenset(cls.__name__ for cls in ENGINE_EVENTS)
_ENGINE_CODEC = Codec(ENGINE_EVENTS)


@dataclass(frozen=True)
class Session:
    game: str
    options: Mapping[str, Any]
    seats: tuple[str, ...]
    host: str
    seed_sha256: str
    rules_version: int = 1
    chain_version: int = 1
    randomness_version: int = 1
    players: Mapping[str, str] = field(default_factory=dict)  # seat -> player id
    contributions: Mapping[str, str] = field(default_factory=dict)  # seat -> hex, from SeedContributed
    status: str = LOBBY
    state: Any = None
    version: int = 0
    outcome: str | None = None
    seed: str | None = None
    standings: tuple[Mapping[str, Any], ...] | None = None
    life: Life = field(default_factory=Life)  # bots, resignations, invites, clocks: see domain.lifecycle
    # (version, the game's state at that version) before each of the last
    # RECENT_STATES game events, oldest first: what a takeback returns to.
    recent: tuple[tuple[int, Any], ...] = ()

    def state_at(self, version: int) -> Any:
        """The game's state as it was at ``version``, from ``recent``: the
        state before the first game event after it (or now, if none came)."""
        for at, state in self.recent:
            if at >= version:
                return state
        return self.state

    def remembers(self, version: int) -> bool:
        return bool(self.recent) and self.recent[0][0] <= version

    def seat_of(self, player: str) -> str | None:
        """The seat ``player`` holds (even one he resigned or was abandoned from)."""
        for seat, holder in self.players.items():
            if holder == player:
                return seat
        return None

    def seat_seen_by(self, player: str | None, version: int | None = None) -> str | None:
        """The seat whose secrets ``player`` sees at ``version`` (default: now);
        None: what a spectator sees. Every door that shows a game to a player
        (view, view?at, feed, game stream, legal commands) asks this.

        A holder sees his seat, its whole past included (so does a new holder
        after a replacement). From his SeatResigned or SeatAbandoned on, the
        former holder sees what a spectator sees, and keeps the seat's view of
        the versions before it; an abandoned player who takes the seat back is
        a holder again. A player who left one seat and later took another sees
        the one he holds (or held last)."""
        if not player:
            return None
        held = self.life.left.get(player)
        if held is None:
            return self.seat_of(player)
        seat, until = held
        return seat if (self.version if version is None else version) < until else None

    @property
    def over(self) -> bool:
        return self.status in (SCORING, FINISHED)


def decode_event(rules: Game, data: Mapping[str, Any]) -> Event:
    """An event in its current shape (``data`` includes its ``type``)."""
    if data.get("type") in ENGINE_EVENT_TYPES:
        return _ENGINE_CODEC.decode(data)  # type: ignore[return-value]
    return rules.decode_event(data)


def decode_stored(rules: Game, type_name: str, schema_version: int, data: Mapping[str, Any]) -> Event:
    """A stored event, upcast from the shape it was written in to the current one."""
    if type_name in ENGINE_EVENT_TYPES:
        cls, upcasters = _ENGINE_CODEC.classes[type_name], ENGINE_UPCASTERS
    else:
        cls, upcasters = rules.event_codec.classes.get(type_name), rules.upcasters
        if cls is None:
            raise UnknownEventType(
                f"stored event type {type_name!r} is not an event of {rules.name} rules version {rules.version}"
            )
    return decode_event(rules, {**upcast(cls, schema_version, data, upcasters), "type": type_name})


def created_from_stored(schema_version: int, data: Mapping[str, Any]) -> GameCreated:
    """The first event of a stream, read before its game's rules are known."""
    shaped = upcast(GameCreated, schema_version, data, ENGINE_UPCASTERS)
    return _ENGINE_CODEC.decode({**shaped, "type": "GameCreated"})  # type: ignore[return-value]


def evolve(rules: Game, session: Session | None, event: Event) -> Session:
    """Fold one event; the version counts every event of the stream."""
    if isinstance(event, GameCreated):
        return Session(
            event.game, dict(event.options), tuple(event.seats), event.host, event.seed_sha256,
            rules_version=event.rules_version, chain_version=event.chain_version,
            randomness_version=event.randomness_version, version=1,
        )
    assert session is not None, "a game stream starts with GameCreated"
    version = session.version + 1  # every event counts; one replace per event (a replay's cost is in them)
    if isinstance(event, SeatTaken):
        return replace(session, version=version, players={**session.players, event.seat: event.player})
    if isinstance(event, SeatLeft):
        players = {seat: player for seat, player in session.players.items() if seat != event.seat}
        return replace(session, version=version, players=players, host=event.new_host or session.host)
    if isinstance(event, SeedContributed):
        contributions = {**session.contributions, event.seat: event.contribution}
        return replace(session, version=version, contributions=contributions)
    if isinstance(event, GameCancelled):
        return replace(session, version=version, status=CANCELLED)
    if isinstance(event, PlayersSeated):
        return replace(session, version=version, status=ACTIVE, players=dict(event.players))
    if isinstance(event, TurnTimedOut):
        return replace(session, version=version)
    if isinstance(event, GameOver):
        return replace(session, version=version, status=SCORING, outcome=event.outcome, seed=event.seed)
    if isinstance(event, GameScored):
        return replace(session, version=version, status=FINISHED, standings=tuple(event.standings))
    if isinstance(event, LIFECYCLE_EVENTS):
        return fold_life(replace(session, version=version), event)
    recent = (*session.recent[-(RECENT_STATES - 1):], (session.version, session.state))
    # A move by anyone ends an open takeback request.
    life = replace(session.life, takeback=None) if session.life.takeback is not None else session.life
    return replace(session, version=version, state=rules.evolve(session.state, event), recent=recent, life=life)


def replay(rules: Game, events, session: Session | None = None) -> Session | None:
    for event in events:
        session = evolve(rules, session, event)
    return session


# Lobby decisions


MAX_TURN_SECONDS = 30 * 24 * 3600


def create(rules: Game, host: str, options: Mapping[str, Any] | None, seed: bytes, seat: str | None) -> list[Event]:
    """The game's options plus the engine's own ``turn_seconds`` (the per-turn
    deadline; absent or null means no deadline)."""
    game_options = dict(options or {})
    turn_seconds = game_options.pop("turn_seconds", None)
    if turn_seconds is not None and (
        isinstance(turn_seconds, bool) or not isinstance(turn_seconds, int) or not 1 <= turn_seconds <= MAX_TURN_SECONDS
    ):
        raise InvalidOption(
            f"option turn_seconds must be a whole number of seconds from 1 to {MAX_TURN_SECONDS} (30 days), "
            f"not {turn_seconds!r}", "turn_seconds"
        )
    resolved = {**resolve_options(rules.options, game_options), "turn_seconds": turn_seconds}
    seats = tuple(_seats_of_options(rules, resolved))
    created = GameCreated(
        rules.name, resolved, seats, host, seed_commitment(seed), rules.version, rules.data_digests(),
        CHAIN_VERSION, RANDOMNESS_VERSION,
    )
    chosen = seat or seats[0]
    if chosen not in seats:
        raise LobbyRefusal(f"there is no seat {chosen!r}; seats are {', '.join(seats)}")
    return [created, SeatTaken(chosen, host)]


def _seats_of_options(rules: Game, options: Mapping[str, Any]):
    """The seats; the seats depend on the options alone, so a game refusing
    them refuses the options (such as a first player beyond the players):
    the refusal names the first option its reason names."""
    try:
        return rules.seats(options)
    except InvalidOption:
        raise
    except IllegalCommand as error:
        named = [name for name in options if f"option {name} " in error.message]
        raise InvalidOption(error.message, named[0] if named else "players") from None


def join(session: Session, player: str, seat: str | None) -> list[Event]:
    _require_lobby(session, "join")
    held = session.seat_of(player)
    if held is not None:
        raise LobbyRefusal(f"you already sit at {held} in this game")
    free = [s for s in session.seats if s not in session.players and s not in session.life.bots]
    if not free:
        raise LobbyRefusal("every seat is taken")
    if seat is None:
        seat = free[0]
    elif seat not in session.seats:
        raise LobbyRefusal(f"there is no seat {seat!r}; seats are {', '.join(session.seats)}")
    elif seat not in free:
        raise LobbyRefusal(f"seat {seat} is taken; free seats: {', '.join(free)}")
    return [SeatTaken(seat, player)]


def leave(session: Session, player: str) -> list[Event]:
    _require_lobby(session, "leave")
    seat = session.seat_of(player)
    if seat is None:
        raise NotSeated("you hold no seat in this game")
    others = [p for s, p in session.players.items() if p != player]
    if player != session.host:
        return [SeatLeft(seat, player, None)]
    if not others:
        return [SeatLeft(seat, player, None), GameCancelled("the host left an empty lobby")]
    return [SeatLeft(seat, player, others[0])]


def contribute(session: Session, player: str, contribution: Any) -> list[Event]:
    """A seated player's contribution to the randomness: once per seat (a seat
    keeps it when its holder leaves), in the lobby only, since the deal is
    drawn at the start from the key it enters; the same one sent again is
    nothing new."""
    if session.status != LOBBY:
        happened = "the game was cancelled" if session.status == CANCELLED else "the game has started"
        raise LobbyRefusal(f"{happened}: contributions are fixed before the start (it is {session.status})")
    if session.randomness_version < 2:
        raise LobbyRefusal(f"this game draws under randomness version {session.randomness_version}, "
                           "which takes no contributions")
    seat = session.seat_of(player)
    if seat is None:
        raise NotSeated("only a player holding a seat in this game may contribute to its randomness")
    try:
        contribution = randomness.contribution_hex(contribution)
    except randomness.BadContribution as error:
        raise BadContribution(str(error)) from None
    if session.contributions.get(seat) == contribution:
        return []  # the same contribution sent again (a retried PUT) changes nothing
    if seat in session.contributions:
        raise ContributionMade(f"{seat} has contributed already; a contribution cannot be changed or added to")
    return [SeedContributed(seat, contribution)]


def start(rules: Game, session: Session, player: str, rng: random.Random) -> list[Event]:
    _require_lobby(session, "start")
    if player != session.host:
        raise LobbyRefusal("only the host may start the game")
    empty = [s for s in session.seats if s not in session.players and s not in session.life.bots]
    if empty:
        raise LobbyRefusal(f"seats {', '.join(empty)} are still empty")
    return [PlayersSeated(dict(session.players)), *rules.setup(session.seats, session.options, rng)]


def _require_lobby(session: Session, action: str) -> None:
    if session.status != LOBBY:
        raise LobbyRefusal(f"cannot {action}: the game is {session.status}, not in its lobby")


# Play


def source(session: Session, seed: bytes) -> randomness.Source:
    """The rngs of a decision taken on ``session``, under the game's randomness
    version (with the contributions of its lobby, for version 2)."""
    return randomness.Source(session.randomness_version, seed, session.contributions)


def to_act(rules: Game, session: Session) -> frozenset[str]:
    if session.status != ACTIVE:
        return frozenset()
    return frozenset(rules.to_act(session.state))


def play(rules: Game, session: Session, seat: str, command: Command, rng: random.Random, seed: bytes) -> list[Event]:
    """A seat's command, and GameOver (with the seed) if it ends the game."""
    if session.status != ACTIVE:
        raise LobbyRefusal(f"the game is {session.status}: no commands are taken")
    if seat not in rules.to_act(session.state):
        raise not_your_turn(seat, rules.to_act(session.state))
    events = list(rules.decide(session.state, seat, command, rng))
    return events + _ending(rules, session, events, seed)


def timed_out(
    rules: Game, session: Session, seat: str, command: Command, rng: random.Random, seed: bytes
) -> list[Event]:
    return [TurnTimedOut(seat, session.version), *play(rules, session, seat, command, rng, seed)]


def _ending(rules: Game, session: Session, events: list[Event], seed: bytes) -> list[Event]:
    state = session.state
    for event in events:
        state = rules.evolve(state, event)
    outcome = outcome_of(rules, session, state, session.life.resigned)
    return [] if outcome is None else [GameOver(outcome, seed.hex())]


def outcome_of(rules: Game, session: Session, state: Any, resigned: tuple[str, ...]) -> str | None:
    """The GameOver sentence of ``state``, or None while it runs: the rules'
    own, or, in a game created with ``outcome_follows_standings`` (every game
    since that option was recorded), one that agrees with the standings when
    the rules' names a resigned seat among the winners (domain.lifecycle.standings)."""
    told = rules.outcome(state)
    if told is None or not resigned or not session.options.get(OUTCOME_FOLLOWS_STANDINGS):
        return told
    return agreeing_outcome(told, rules.score(state), resigned)


def scored(rules: Game, session: Session) -> list[Event]:
    if session.status != SCORING:
        raise LobbyRefusal(f"the game is {session.status}, not awaiting its score")
    standings: list[Standing] = rules.score(session.state)
    return [GameScored(tuple(standing.to_json() for standing in standings))]


# Views


def viewer_for(session: Session, seat: str | None) -> str | None:
    """Everyone sees everything once the game is over."""
    return EVERYONE if session.over else seat


def visible(rules: Game, session: Session, event: Event, seat: str | None) -> dict:
    if type(event).__name__ in ENGINE_EVENT_TYPES:
        return event.to_json()
    return rules.visible(event, viewer_for(session, seat))


