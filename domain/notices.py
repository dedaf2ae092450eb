"""What in a game's log concerns a player: their turn came, the game started,
a seat timed out, the game ended or was scored, someone joined or left their
lobby, a seat resigned, was abandoned to a bot or changed hands, the game
was aborted, a rematch was created. Pure and standard library only, like the
rest of ``domain``.

A notice is derived from ONE stored event (its stream id, version, type,
data, metadata and, where known, its global position), without replaying
the game, so that anything following the global feed (a player's stream, a
notification or webhook subscription) pays a dictionary lookup per event,
not a game replay. That needs the command path to record, in the metadata
of what it appends, what only a replay would know:

- ``seated``: ``{seat: player id}`` after the decision, on every engine
  event (GameCreated, SeatTaken, SeatLeft, GameCancelled, PlayersSeated,
  TurnTimedOut, GameOver, GameScored and the lifecycle events of
  domain/lifecycle/state.py) and on the last event of each append;
- ``to_act``: the seats to act after the decision, and ``turn_came``: those
  of them that were not to act before it and whose holder plays them (not a
  seat a bot plays since its player resigned or was abandoned: he is told
  no more turns of it), on the last event of each append;
- ``asked``: on EndProposed, the players who still play their seats, to
  accept or decline it (not one whose seat a bot plays since he resigned or
  was abandoned);
- ``timeout_step``: on the second and later steps of a turn that one deadline
  played out (TurnTimedOut of each step), so that a missed turn is told once.

Events stored without these keys (before they existed) still give the
notices their own data allows (``started`` from PlayersSeated's players,
``joined``/``left`` for the seat's own player), and no ``turn`` notice.

The seat-life kinds (domain/lifecycle), told to the game's players as
``seated`` records them; as with the lobby's moves, whoever made the move
is not told of it, except where it changes their seat:

- ``resigned`` (SeatResigned): ``seat``, ``player``, ``bot`` (the bot kind
  that plays the seat from now on, or None); the resigner is not told;
- ``abandoned`` (SeatAbandoned): after ``timeouts`` timeouts in a row a
  ``bot`` plays ``seat``; everyone is told, its ``player`` too;
- ``replaced`` (SeatReplaced): ``seat`` changed hands from ``player_before``
  (None: nobody held it) to ``player``; everyone is told, both of them too;
- ``aborted`` (GameAborted): ``seat`` and ``player`` aborted the game, which
  has no result; the aborter is not told;
- ``rematch`` (RematchCreated, appended to the finished game): ``rematch_id``,
  the new game's id; every player of the old game but its creator is told;
- ``end-proposed`` (EndProposed, domain.lifecycle.agreement): ``seat`` and
  ``player`` proposed ending the game, ``ending`` cancelled or as-it-stands;
  every other player ``asked`` is told, to accept or decline it. The doors that deliver
  it add ``text``, ``proposal_sentence`` with the proposer's name (names are
  not in the log). A game ended by agreement is told as any end is: as it
  stands, by its GameOver (``ended``); cancelled, as ``cancelled`` with the
  reason and ``ending``.

Interface:

- ``notices(stream_id, version, type, data, metadata, position=None)`` ->
  ``list[Notice]``: the notices of one event (most events have none);
- ``notices_of(record)``: the same for anything with attributes
  ``stream_id, version, type, data, metadata`` and optionally
  ``global_position`` (an ``eventstore`` RecordedEvent);
- ``game_id_of(stream_id)``: the game id of a game stream, else None;
- ``muted_by(notice, player, muted)``: whether ``player`` drops a message's
  notice, having muted its sender;
- ``Notice``: ``kind`` (one of ``KINDS``), ``game_id``, ``version`` (the
  game's version the notice is about; a message's: its channel's),
  ``position`` (the event's global position, or None when read without it,
  and always for a message), ``seats`` (the seats concerned:
  whose turn came, who timed out, joined, left, resigned, was abandoned or
  replaced), ``players`` (the
  player ids to tell, sorted; the actor of a lobby move is not told of their
  own move), ``data`` (public details only: seats, players, outcome,
  standings, the seats to act), ``id`` (``game_id:version:kind``, stable,
  for receivers to deduplicate), ``concerns(player)`` and ``to_json()``.

Everything a notice carries is public: seats and their players are shown in
every game's summary, and outcome and standings are public once written.
No game event's data is read beyond the engine's own events, so no hidden
information can pass through here. The one exception is ``message``
(MessageSent of a channel's stream, domain.lifecycle.talk): it carries the
message's ``channel``, ``seat``, ``player`` and ``text``, and is told only to
the readers recorded with it (``readers``: who played a seat of the channel
when it was sent), never its sender; its id is
``game_id:channel:version:message``. Its ``players`` are the same for every
one of them: whom a reader muted is his own business, so each door that
delivers a notice (a player's stream, the notifier) drops, for that reader
only, the messages of the players he muted (``muted_by``); nothing recorded
with the message says who muted whom.

``reminder`` (ReminderDue of a game's reminder stream, ``remind-<game id>``,
api/service/reminders.py) is told to the one player whose seat's deadline
nears: ``seat``, ``deadline``, ``left_seconds``, ``clock`` (turn or bank),
``at_deadline`` (absence, timeout or abandon), ``channels`` (the ones it goes out on:
``Notice.reaches``) and ``text``, a sentence made of them; its id is
``game_id:reminders:version:reminder``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

TURN, STARTED, TIMED_OUT, ENDED, SCORED, JOINED, LEFT, CANCELLED = (
    "turn", "started", "timed-out", "ended", "scored", "joined", "left", "cancelled",
)
RESIGNED, ABANDONED, REPLACED, ABORTED, REMATCH = "resigned", "abandoned", "replaced", "aborted", "rematch"
END_PROPOSED = "end-proposed"
MESSAGE = "message"
REMINDER = "reminder"
KINDS = (TURN, STARTED, TIMED_OUT, ENDED, SCORED, JOINED, LEFT, CANCELLED,
         RESIGNED, ABANDONED, REPLACED, ABORTED, REMATCH, MESSAGE, REMINDER, END_PROPOSED)
GAME_STREAM_PREFIX = "game-"
# A channel's messages (domain.lifecycle.talk): ``talk-<game id>/<channel>``.
TALK_STREAM_PREFIX = "talk-"
# A game's reminders (api/service/reminders.py): ``remind-<game id>``.
REMINDER_STREAM_PREFIX = "remind-"
REMINDER_CHANNEL = "reminders"


@dataclass(frozen=True)
class Notice:
    kind: str
    game_id: str
    version: int
    seats: tuple[str, ...]
    players: tuple[str, ...]
    data: Mapping[str, Any] = field(default_factory=dict)
    position: int | None = None
    channel: str | None = None  # a message's channel; its version is the channel's

    @property
    def id(self) -> str:
        if self.channel is not None:
            return f"{self.game_id}:{self.channel}:{self.version}:{self.kind}"
        return f"{self.game_id}:{self.version}:{self.kind}"

    def concerns(self, player: str) -> bool:
        return player in self.players

    def reaches(self, channel: str) -> bool:
        """Whether the notice goes out on ``channel`` (stream, mail, webhook):
        a reminder only on the channels its player chose for it."""
        return self.kind != REMINDER or channel in (self.data.get("channels") or ())

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "kind": self.kind,
            "game_id": self.game_id,
            "version": self.version,
            "position": self.position,
            "seats": list(self.seats),
            "players": list(self.players),
            "data": dict(self.data),
        }


def game_id_of(stream_id: str) -> str | None:
    if not stream_id.startswith(GAME_STREAM_PREFIX):
        return None
    return stream_id[len(GAME_STREAM_PREFIX):] or None


def notices_of(record) -> list[Notice]:
    return notices(record.stream_id, record.version, record.type, record.data, record.metadata,
                   getattr(record, "global_position", None))


def _message(stream_id: str, version: int, type: str, data: Mapping[str, Any],
             metadata: Mapping[str, Any], position: int | None) -> list[Notice]:
    """A message is told to the readers the command path recorded with it but
    its sender (whoever muted him drops it at delivery: ``muted_by``); it
    carries the text: only readers get it."""
    game_id, _, channel = stream_id[len(TALK_STREAM_PREFIX):].partition("/")
    players = tuple(sorted(set(metadata.get("readers") or ()) - {data.get("player")}))
    if type != "MessageSent" or not players or not channel:
        return []
    details = {key: data.get(key) for key in ("channel", "seat", "player", "text")}
    # No position: a global position would count the talk of every channel, read or not.
    return [Notice(MESSAGE, game_id, version, tuple(s for s in [data.get("seat")] if s), players, details,
                   None, channel)]


def muted_by(notice: Notice, player: str, muted: Mapping[tuple[str, str], Any]) -> bool:
    """Whether ``player`` drops this notice because he muted its sender in its
    game; ``muted``: (player, game id) -> the player ids he muted there."""
    return notice.kind == MESSAGE and notice.data.get("player") in muted.get((player, notice.game_id), ())


def _reminder(stream_id: str, version: int, type: str, data: Mapping[str, Any],
              position: int | None) -> list[Notice]:
    """A reminder is told to the one player whose seat's deadline nears; its
    data are public (the seat, its deadline, the game's options) and the
    sentence made of them."""
    player = data.get("player")
    if type != "ReminderDue" or not player:
        return []
    details = {key: data.get(key) for key in ("seat", "game", "game_version", "deadline", "left_seconds",
                                               "offset_seconds", "clock", "at_deadline", "channels", "text")}
    return [Notice(REMINDER, stream_id[len(REMINDER_STREAM_PREFIX):], version, (data.get("seat"),), (player,),
                   details, position, REMINDER_CHANNEL)]


def proposal_sentence(name: str, game: str, ending: str, link: str) -> str:
    """What a proposal to end says to the other players: who, which game, which ending, where to answer."""
    how = "cancelled, with no result" if ending == "cancelled" else "as it stands, ranked by its score now"
    return f"{name} proposes to end your game of {game} {how}: accept or decline at {link}"


def notices(stream_id: str, version: int, type: str, data: Mapping[str, Any],
            metadata: Mapping[str, Any] | None, position: int | None = None) -> list[Notice]:
    if stream_id.startswith(REMINDER_STREAM_PREFIX):
        return _reminder(stream_id, version, type, data, position)
    if stream_id.startswith(TALK_STREAM_PREFIX):
        return _message(stream_id, version, type, data, metadata or {}, position)
    game_id = game_id_of(stream_id)
    if game_id is None:
        return []
    metadata = metadata or {}
    seated: dict[str, str] = dict(metadata.get("seated") or {})
    everyone = tuple(sorted(set(seated.values())))
    actor = metadata.get("actor")
    found: list[Notice] = []

    def add(kind, seats, players, details=None):
        players = tuple(sorted(set(players)))
        if players:
            found.append(Notice(kind, game_id, version, tuple(seats), players, details or {}, position))

    if type == "SeatTaken":
        others = [p for p in seated.values() if p != data.get("player")]
        add(JOINED, [data.get("seat")], others, {"seat": data.get("seat"), "player": data.get("player")})
    elif type == "SeatLeft":
        others = [p for p in seated.values() if p != data.get("player")]
        details = {"seat": data.get("seat"), "player": data.get("player"), "new_host": data.get("new_host")}
        add(LEFT, [data.get("seat")], others, details)
    elif type == "GameCancelled":
        add(CANCELLED, [], [p for p in everyone if p != actor], {"reason": data.get("reason")})
    elif type == "PlayersSeated":
        players = dict(data.get("players") or seated)
        add(STARTED, sorted(players), players.values(), {"players": players})
    elif type == "TurnTimedOut" and metadata.get("timeout_step", 1) == 1:
        # One notice per missed turn: the later steps of a timed-out turn carry ``timeout_step``
        # (domain.lifecycle.clocks.continues_missed_turn; not imported, to keep this module standalone).
        add(TIMED_OUT, [data.get("seat")], everyone, {"seat": data.get("seat")})
    elif type == "GameOver":
        add(ENDED, [], everyone, {"outcome": data.get("outcome")})
    elif type == "GameScored":
        add(SCORED, [], everyone, {"standings": list(data.get("standings") or [])})
    elif type == "SeatResigned":
        details = {"seat": data.get("seat"), "player": data.get("player"), "bot": data.get("bot")}
        add(RESIGNED, [data.get("seat")], [p for p in everyone if p != data.get("player")], details)
    elif type == "SeatAbandoned":
        details = {key: data.get(key) for key in ("seat", "player", "timeouts", "bot")}
        add(ABANDONED, [data.get("seat")], [*everyone, data.get("player")], details)
    elif type == "SeatReplaced":
        before, after = data.get("player_before"), data.get("player")
        details = {"seat": data.get("seat"), "player_before": before, "player": after}
        add(REPLACED, [data.get("seat")], [p for p in (*everyone, before, after) if p], details)
    elif type == "GameAborted":
        details = {"seat": data.get("seat"), "player": data.get("player")}
        add(ABORTED, [], [p for p in everyone if p != data.get("player")], details)
    elif type == "EndAgreed" and data.get("ending") == "cancelled":
        # Ended by its players' agreement (domain.lifecycle.agreement): told as a cancellation, with why.
        reason = "Ended by agreement of its players: cancelled, with no result"
        add(CANCELLED, [], [p for p in everyone if p != actor], {"reason": reason, "ending": "cancelled"})
    elif type == "EndProposed":
        details = {key: data.get(key) for key in ("seat", "player", "ending")}
        asked = metadata.get("asked", everyone)  # stored before ``asked`` existed: everyone, as then
        add(END_PROPOSED, [data.get("seat")], [p for p in asked if p != data.get("player")], details)
    elif type == "RematchCreated":
        add(REMATCH, [], [p for p in everyone if p != actor], {"rematch_id": data.get("game_id")})

    came = [seat for seat in metadata.get("turn_came") or () if seat in seated]
    if came:
        add(TURN, sorted(came), [seated[seat] for seat in came], {"to_act": sorted(metadata.get("to_act") or came)})
    return found


__all__ = ["Notice", "KINDS", "notices", "notices_of", "game_id_of", "muted_by",
           "TURN", "STARTED", "TIMED_OUT", "ENDED", "SCORED", "JOINED", "LEFT", "CANCELLED",
           "RESIGNED", "ABANDONED", "REPLACED", "ABORTED", "REMATCH", "MESSAGE", "REMINDER", "REMINDER_STREAM_PREFIX",
           "END_PROPOSED", "proposal_sentence"]
