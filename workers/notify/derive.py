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
from typing import Iterable

from domain.notices import REMINDER_STREAM_PREFIX, notices_of


@dataclass(frozen=True)
class Notification:
    id: str
    position: int
    player_id: str
    game_id: str
    kind: str
    version: int
    payload: dict
    event_at: object


def notification_id(position: int, player: str, kind: str) -> str:
    """Stable: the same event, recipient and kind give the same id on every run."""
    return f"n{position}-{uuid.UUID(str(player)).hex}-{kind}"


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


def derive(records: Iterable, game_names: dict[str, str]) -> list[Notification]:
    """The notifications of a slice of the feed; ``game_names``: game id -> game."""
    out: list[Notification] = []
    for record in records:
        found = notices_of(record)
        if not found:
            continue
        seat_of = {player: seat for seat, player in (record.metadata.get("seated") or {}).items()}
        occurred = record.recorded_at.isoformat()
        for notice in found:
            for player in notice.players:
                nid = notification_id(record.global_position, player, notice.kind)
                payload = {
                    "id": nid, "kind": notice.kind, "game_id": notice.game_id,
                    "game": game_names.get(notice.game_id), "version": notice.version,
                    "seat": seat_of.get(player), "seats": list(notice.seats), "data": dict(notice.data),
                    "occurred_at": occurred,
                }
                out.append(Notification(nid, record.global_position, player, notice.game_id, notice.kind,
                                        notice.version, payload, record.recorded_at))
    return out
