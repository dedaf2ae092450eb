"""From the global feed to notifications: fold each game's session as its
events go by, and at the end of every decision (the events one command wrote
together, told apart by their ``decided_at`` metadata) ask what concerns whom.

A notification carries only what its recipient may see: the public summary of
the game (its name, version, who is to act, which seat timed out, the
standings once scored) and the recipient's own seat; never a view or an event
body, so nothing hidden can leak through it.
"""

from __future__ import annotations

import uuid
from collections import OrderedDict
from dataclasses import dataclass
from typing import Iterable

from domain import games as registry
from domain import session as sessions

GAME_STREAM_PREFIX = "game-"
KINDS = ("your_turn", "game_started", "seat_timed_out", "game_over", "lobby_joined", "lobby_left")


@dataclass(frozen=True)
class Notice:
    player: str
    kind: str
    detail: dict


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


def notices(before, after, events) -> list[Notice]:
    """What one decision (``events``, taking the game from ``before`` to
    ``after``) tells whom. Pure."""
    out: list[Notice] = []
    players_after = dict(after.players)
    for event in events:
        if isinstance(event, sessions.SeatTaken) and before is not None and after.status == sessions.LOBBY:
            for seat, player in players_after.items():
                if player != event.player:
                    out.append(Notice(player, "lobby_joined", {"player": event.player, "player_seat": event.seat}))
        elif isinstance(event, sessions.SeatLeft):
            for seat, player in players_after.items():
                out.append(Notice(player, "lobby_left", {"player": event.player, "player_seat": event.seat}))
        elif isinstance(event, sessions.PlayersSeated):
            for player in dict(event.players).values():
                out.append(Notice(player, "game_started", {}))
        elif isinstance(event, sessions.TurnTimedOut):
            for player in players_after.values():
                out.append(Notice(player, "seat_timed_out", {"timed_out_seat": event.seat}))
        elif isinstance(event, sessions.GameScored):
            standings = [dict(s) for s in event.standings]
            for player in players_after.values():
                out.append(Notice(player, "game_over", {"outcome": after.outcome, "standings": standings}))
    return out


def your_turn(rules, before, after) -> list[Notice]:
    was = sessions.to_act(rules, before) if before is not None else frozenset()
    now = sessions.to_act(rules, after)
    return [Notice(after.players[seat], "your_turn", {}) for seat in sorted(now - was) if seat in after.players]


class Deriver:
    """Keeps recent games' sessions in memory (bounded); a game it has not
    seen, or seen at another version, is rebuilt from its stream."""

    def __init__(self, read_stream, cache_size: int = 4096):
        self.read_stream = read_stream  # (stream_id, from_version, to_version) -> [RecordedEvent]
        self.cache_size = cache_size
        self._games: OrderedDict[str, tuple] = OrderedDict()

    def _session_before(self, record):
        cached = self._games.get(record.stream_id)
        if cached is not None and cached[1].version == record.version - 1:
            self._games.move_to_end(record.stream_id)
            return cached
        if record.version == 1:
            return None, None
        earlier = self.read_stream(record.stream_id, 1, record.version - 1)
        rules = registry.get(earlier[0].data["game"])
        session = None
        for each in earlier:
            session = sessions.evolve(rules, session, _decode(rules, each))
        return rules, session

    def _keep(self, stream_id, rules, session) -> None:
        self._games[stream_id] = (rules, session)
        self._games.move_to_end(stream_id)
        while len(self._games) > self.cache_size:
            self._games.popitem(last=False)

    def derive(self, records: Iterable) -> list[Notification]:
        """Notifications of whole decisions among ``records`` (a slice of the feed)."""
        records = [r for r in records if r.stream_id.startswith(GAME_STREAM_PREFIX)]
        out: list[Notification] = []
        i = 0
        while i < len(records):
            j = i + 1
            while j < len(records) and _same_decision(records[j - 1], records[j]):
                j += 1
            out.extend(self._decision(records[i:j]))
            i = j
        return out

    def _decision(self, group) -> list[Notification]:
        first = group[0]
        rules, before = self._session_before(first)
        if first.version == 1:
            rules = registry.get(first.data["game"])
        if rules is None:
            return []  # a game this release does not host
        after = before
        events = []
        for record in group:
            event = _decode(rules, record)
            events.append(event)
            after = sessions.evolve(rules, after, event)
        self._keep(first.stream_id, rules, after)
        found = notices(before, after, events) + your_turn(rules, before, after)
        last = group[-1]
        game_id = first.stream_id[len(GAME_STREAM_PREFIX):]
        to_act = sorted(sessions.to_act(rules, after))
        result = []
        for notice in found:
            seat = after.seat_of(notice.player) or (before.seat_of(notice.player) if before else None)
            nid = notification_id(last.global_position, notice.player, notice.kind)
            payload = {
                "id": nid, "kind": notice.kind, "game_id": game_id, "game": after.game,
                "version": last.version, "status": after.status, "seat": seat, "to_act": to_act,
                "occurred_at": last.recorded_at.isoformat(), **notice.detail,
            }
            result.append(Notification(nid, last.global_position, notice.player, game_id, notice.kind,
                                       last.version, payload, last.recorded_at))
        return result


def _decode(rules, record):
    return sessions.decode_event(rules, {"type": record.type, **record.data})


def _same_decision(a, b) -> bool:
    return (a.stream_id == b.stream_id and b.version == a.version + 1
            and "decided_at" in a.metadata and a.metadata.get("decided_at") == b.metadata.get("decided_at"))


def whole_decisions(records: list, full: bool) -> list:
    """A full batch may end inside a decision (the feed's limit cut it): hold
    its tail back for the next batch, unless it is the whole batch."""
    if not full or not records:
        return records
    cut = len(records) - 1
    while cut > 0 and _same_decision(records[cut - 1], records[cut]):
        cut -= 1
    return records[:cut] if cut > 0 else records
