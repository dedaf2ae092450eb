"""Shaping answers for one viewer. Game state reaches a client only through
the game's own ``view`` and ``visible``; this module adds the frame."""

from __future__ import annotations

import hashlib

from domain import session as sessions
from domain import words
from domain.engine import EVERYONE
from domain.lifecycle.clocks import shown as shown_clocks

from .player_names import Naming

NO_NAMES = Naming(seats={}, players={})  # where no names are read (tests of the doors): the ids stay


def viewer_seat(session, player: str | None, version: int | None = None) -> str | None:
    """The seat whose view ``player`` gets at ``version`` (default: now) of the
    game ``session`` holds now: see Session.seat_seen_by."""
    return session.seat_seen_by(player, version)


def envelope(game_id, rules, session, seat: str | None, ended: bool = False, naming: Naming = NO_NAMES) -> dict:
    """``ended``: the game is over now, so even a past version shows everything;
    ``naming``: who holds each seat (api/service/player_names.py)."""
    viewer = EVERYONE if ended else sessions.viewer_for(session, seat)
    return {
        "game_id": game_id,
        "game": session.game,
        "rules_version": session.rules_version,
        "version": session.version,
        "status": session.status,
        "seat": seat,
        "to_act": sorted(sessions.to_act(rules, session)),
        # The result in words, its seats named as the log's sentences are ("Ada wins with 12 points").
        "outcome": naming.say(session.outcome) if session.outcome else None,
        # In rank order, whatever order the game scored its seats in (ties keep the game's seat order).
        "standings": sorted(session.standings, key=lambda s: s["rank"]) if session.standings is not None else None,
        "view": rules.view(session.state, viewer) if session.state is not None else None,
        "bots": dict(session.life.bots),
        "resigned": list(session.life.resigned),
        "clocks": shown_clocks(session.options, session.life.clocks),
        "rematch": session.life.rematch,
        "away": {seat: away.until for seat, away in session.life.away.items()},
        "paused": session.life.paused,
        "names": dict(naming.seats),
        # Hashed: what a contributor compares with what he sent, before he agrees to start.
        "contributions": {seat: hashlib.sha256(bytes.fromhex(contribution)).hexdigest()
                          for seat, contribution in sorted(session.contributions.items())},
    }


def legal_commands(rules, session, seat: str | None) -> list[dict]:
    if seat is None or seat not in sessions.to_act(rules, session) or session.life.plays(seat):
        return []  # a seat a bot plays (resigned or abandoned) takes no commands from its player
    return [command.to_json() for command in rules.legal_commands(session.state, seat)]


def command_texts(rules, commands: list[dict], naming: Naming = NO_NAMES) -> list[str]:
    """Each legal command in words, its seats named (texts[i] says commands[i])."""
    return [naming.say(words.command(rules, command)) for command in commands]


def named(items: list[dict], naming: Naming) -> list[dict]:
    """Feed items (``feed_item``) with their ``text`` naming the players."""
    for item in items:
        item["text"] = naming.say(item["text"])
    return items


def feed(rules, session, records, player: str | None) -> list[dict]:
    """Each event as ``player`` may see it now (everything once the game is
    over): as the seat he sees at that event's version (viewer_seat)."""
    return [feed_item(rules, session, record, viewer_seat(session, player, record.version)) for record in records]


def feed_item(rules, session, record, seat: str | None) -> dict:
    """One stored event as ``seat`` may see it (everything once the game is over)."""
    event = sessions.decode_stored(rules, record.type, record.schema_version, record.data)
    visible = sessions.visible(rules, session, event, seat)
    data = {"type": record.type, **visible}
    return {
        "version": record.version,
        "type": visible.get("type", record.type),
        "recorded_at": record.recorded_at,
        "seat": record.metadata.get("seat"),
        "decided_at": record.metadata.get("decided_at", record.version - 1),
        "data": data,
        "text": told(rules, session, data, seat),
    }


def told(rules, session, visible: dict, seat: str | None) -> str:
    """The sentence for an event as ``seat`` may see it, made from that visible
    dict alone (domain/words.py), so it tells no more than the dict does."""
    return words.describe(rules.name, visible, sessions.viewer_for(session, seat))

