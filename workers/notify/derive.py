"""From the global feed to notifications: ``domain.notices`` says what one
stored event tells whom (from the event and the facts the command path
records in its metadata, without replaying the game); here each notice
becomes one notification per recipient, with a stable id.

A notification carries only what its recipient may see: what the notice
carries (seats, players, outcome, standings, the seats to act: all public),
the game's name, and the recipient's own seat; never a view or a game
event's data, so nothing hidden can leak through it.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from domain.games import title_of
from domain.notices import END_PROPOSED, MESSAGE, REMINDER_STREAM_PREFIX, muted_by, notices_of, proposal_sentence


@dataclass(frozen=True)
class Notification:
    id: str
    position: int
    player_id: str
    game_id: str
    kind: str
    version: int
    payload: dict  # whole, as its readers are given it; stored without what the columns hold (payloads.py)
    event_at: object


def notification_id(position: int, player: str, kind: str) -> str:
    """Stable: the same event, recipient and kind give the same id on every run."""
    return f"n{position}-{uuid.UUID(str(player)).hex}-{kind}"


def message_notification_id(notice, player: str) -> str:
    """A message's: numbered by its channel's version, never by a global
    position (which would count the talk of channels its reader does not read)."""
    channel = notice.channel.replace(":", "-").replace("+", "-")
    return f"m{notice.version}-{uuid.UUID(notice.game_id).hex}-{channel}-{uuid.UUID(str(player)).hex}"


def readers_of_messages(records: Iterable) -> set[str]:
    """Whom the messages of a slice of the feed may tell: whose mutes matter to it."""
    return {player for record in records if record.type == "MessageSent"
            for player in record.metadata.get("readers") or ()}


def game_ids(records: Iterable) -> set[str]:
    return {game_id for record in records for game_id in [_game_id(record.stream_id)] if game_id}


def _game_id(stream_id: str) -> str | None:
    """The game of a game's stream, of one of its channels (table talk) or of its reminders."""
    if stream_id.startswith("game-"):
        return stream_id[5:]
    if stream_id.startswith("talk-"):
        return stream_id[5:].partition("/")[0]
    if stream_id.startswith(REMINDER_STREAM_PREFIX):
        return stream_id[len(REMINDER_STREAM_PREFIX):]
    return None


def proposers(records: Iterable) -> set[str]:
    """The players whose proposals to end a game a slice of the feed holds: whose names its sentences say."""
    return {record.data.get("player") for record in records if record.type == "EndProposed"} - {None}


def derive(records: Iterable, game_names: dict[str, str],
           muted: Mapping[tuple[str, str], Any] | None = None, player_names: Mapping[str, str] | None = None,
           public_url: str = "") -> list[Notification]:
    """The notifications of a slice of the feed; ``game_names``: game id -> game;
    ``muted``: (player, game id) -> whom he muted there (his messages are not his notifications);
    ``player_names``: player id -> name, of the ``proposers`` (a proposal's sentence names its proposer);
    ``public_url``: where the server is, for the table's link in that sentence."""
    out: list[Notification] = []
    for record in records:
        found = notices_of(record)
        if not found:
            continue
        seat_of = {player: seat for seat, player in (record.metadata.get("seated") or {}).items()}
        occurred = record.recorded_at.isoformat()
        for notice in found:
            data = dict(notice.data)
            if notice.kind == END_PROPOSED:
                data["text"] = proposal_sentence((player_names or {}).get(data["player"]) or "A player",
                                                 title_of(game_names.get(notice.game_id)), data["ending"],
                                                 f"{public_url}/#/games/{notice.game_id}")
            for player in notice.players:
                if muted and muted_by(notice, player, muted):
                    continue
                nid = (message_notification_id(notice, player) if notice.kind == MESSAGE
                       else notification_id(record.global_position, player, notice.kind))
                payload = {
                    "id": nid, "kind": notice.kind, "game_id": notice.game_id,
                    "game": game_names.get(notice.game_id), "version": notice.version,
                    "seat": seat_of.get(player), "seats": list(notice.seats), "data": dict(data),
                    "occurred_at": occurred,
                }
                out.append(Notification(nid, record.global_position, player, notice.game_id, notice.kind,
                                        notice.version, payload, record.recorded_at))
    return out
