"""Table talk: messages between the players of a game, in channels.

Channels (README, "Messages"):
- ``table``: everyone at the table. Spectators read it only when the host
  allowed it (option ``spectators_read_table``), and never write.
- ``team:<team>``: the seats of one side, where the game has sides. Coronation's
  detective seats plan together against Lind (``team:detectives``); no other
  hosted game has teams.
- ``private:<seat>+<seat>``: two seats, in games where a deal between two
  players is part of play: every multiplayer game without sides whose table
  has three seats or more (at two seats a private channel is the table). In
  Coronation there is none: Lind has nobody to deal with, and the detectives
  share one side.

A message is an event of a stream of its own, one per channel
(``talk-<game id>/<channel>``), hash-chained by the store like a game's
stream. It never enters the game's stream, so the game's export, audit and
every door of the game (view, feed, streams) are the same whether anybody
talked or not, and a channel's members, and only they, can read and verify
the channel's whole chain. Who may read a message is decided when it is sent
(its ``readers``) and by who holds a seat of the channel now: a player who
takes a seat over reads the seat's channels from their start, as he reads
its feed; a player who resigned keeps what was sent while he played.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any, Iterable

from ..engine import Event
from ..readable import unreadable

TABLE = "table"
TEAM, PRIVATE = "team:", "private:"
MAX_LENGTH = 2000  # characters
RATE = (10, 60)  # at most 10 messages per player per game in any 60 seconds
SPECTATORS_READ_TABLE = "spectators_read_table"
# The games with sides, and how their seats make them.
TEAMS = {"coronation": {"detectives": lambda seat: seat.startswith("detective-")}}


class TalkRefused(Exception):
    """A message, read or mute the channel's rules refuse, with a sentence; ``kind`` names the problem."""

    def __init__(self, message: str, kind: str = "message-refused"):
        super().__init__(message)
        self.message = message
        self.kind = kind


@dataclass(frozen=True)
class MessageSent(Event):
    """A message of ``player`` (playing ``seat``; None for the host before he
    has one) to ``channel``."""

    channel: str
    seat: str | None
    player: str
    text: str


def stream_of(game_id: Any, channel: str) -> str:
    return f"talk-{game_id}/{channel}"


def channels(game: str, seats: Iterable[str]) -> list[str]:
    """Every channel a game of ``game`` with ``seats`` has."""
    seats = list(seats)
    teams = TEAMS.get(game)
    if teams is not None:
        return [TABLE, *(f"{TEAM}{name}" for name, member in teams.items() if any(map(member, seats)))]
    if len(seats) < 3:
        return [TABLE]
    pairs = [(a, b) for n, a in enumerate(seats) for b in seats[n + 1:]]
    return [TABLE, *(f"{PRIVATE}{a}+{b}" for a, b in pairs)]


def channel_seats(game: str, seats: Iterable[str], channel: str) -> tuple[str, ...]:
    """The seats whose players are in ``channel`` (TalkRefused if the game has no such channel)."""
    seats = tuple(seats)
    if channel not in channels(game, seats):
        raise TalkRefused(f"this game has no channel {channel!r}; its channels are {', '.join(channels(game, seats))}",
                          "no-such-channel")
    if channel == TABLE:
        return seats
    if channel.startswith(TEAM):
        member = TEAMS[game][channel[len(TEAM):]]
        return tuple(seat for seat in seats if member(seat))
    return tuple(channel[len(PRIVATE):].split("+"))


def seats_played(session, player: str) -> tuple[str, ...]:
    """The seats ``player`` plays now: held, not left by resigning or abandonment."""
    left = session.life.left.get(player)
    return tuple(seat for seat, holder in session.players.items()
                 if holder == player and not (left and left[0] == seat))


def at_table(session, player: str) -> bool:
    """A player of the table: the host, or one who holds or held a seat (a
    resigned player may still talk at the table)."""
    return player == session.host or player in session.players.values()


def readers(game: str, session, channel: str) -> list[str]:
    """The players who read a message sent to ``channel`` now."""
    members = channel_seats(game, session.seats, channel)
    if channel == TABLE:
        return sorted({session.host, *session.players.values()} - {None})
    return sorted({holder for seat in members for holder in [session.players.get(seat)]
                   if holder and seat in seats_played(session, holder)})


def may_read(game: str, session, channel: str, player: str | None) -> bool:
    """Whether ``player`` (None: a spectator) reads ``channel`` of this game
    now, beyond the messages sent while he was among their readers."""
    if channel == TABLE:
        if player is not None and at_table(session, player):
            return True
        return bool(session.options.get(SPECTATORS_READ_TABLE, False))
    if player is None:
        return False
    members = channel_seats(game, session.seats, channel)
    return any(seat in members for seat in seats_played(session, player))


def reads_message(game: str, session, channel: str, player: str | None, readers) -> bool:
    """Whether ``player`` (None: a spectator) reads one message of ``channel``
    sent to ``readers`` (its metadata's): decided per message, so that a
    player who left a seat hears nothing said in its channels after he left,
    whatever he opened before. The table's messages are everyone's at it."""
    if player is not None and player in (readers or ()):
        return True
    return channel == TABLE and may_read(game, session, TABLE, player)


def channels_of(game: str, session, player: str | None) -> list[str]:
    """The channels ``player`` reads now."""
    return [channel for channel in channels(game, session.seats) if may_read(game, session, channel, player)]


def send(game: str, session, player: str, channel: str, text: Any) -> MessageSent:
    """The message, or TalkRefused saying why not (nothing is stored then)."""
    members = channel_seats(game, session.seats, channel)
    if channel == TABLE:
        if not at_table(session, player):
            raise TalkRefused("only the host and the players of this game may write at its table", "not-in-channel")
        seat = next(iter(seats_played(session, player)), None)
    else:
        mine = [seat for seat in seats_played(session, player) if seat in members]
        if not mine:
            raise TalkRefused(f"you play no seat of channel {channel} ({', '.join(members)})", "not-in-channel")
        seat = mine[0]
    return MessageSent(channel=channel, seat=seat, player=player, text=checked_text(text))


def checked_text(text: Any) -> str:
    if not isinstance(text, str):
        raise TalkRefused("a message's text is a string")
    text = unicodedata.normalize("NFC", text.strip())
    if not text:
        raise TalkRefused("a message needs some text")
    if len(text) > MAX_LENGTH:
        raise TalkRefused(f"a message is at most {MAX_LENGTH} characters, not {len(text)}")
    why = unreadable(text, "a message", layout="\n\t")  # the rule of player names, lines allowed
    if why:
        raise TalkRefused(why)
    return text
