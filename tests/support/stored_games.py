"""Storing whole games in a real event store as an earlier release stored
them: an exported game (a golden file) or a hand-written log, rows exactly
as given (old schema versions included), with the read models the command
service would have written. Used by the history tests and bench/history.py."""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path

from api.service import readmodels
from domain import games as registry
from domain import session as sessions
from eventstore import NewEvent

GOLDEN = Path(__file__).resolve().parent.parent / "golden"


def golden_files(game: str | None = None) -> list[Path]:
    return sorted(GOLDEN.glob(f"{game or '*'}/*.jsonl"))


def read_export(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def store_game(service, records: list[dict], copy: bool = False, seed: bytes | None = None, rules=None) -> uuid.UUID:
    """Append ``records`` (each with type, schema_version, data, metadata and
    event_id) as one game's stream, with its read models. ``copy``: under a new
    game id and new event ids (the chain is the store's own either way).
    ``rules``: to project a game whose recorded rules this code lacks."""
    game_id = uuid.uuid4() if copy or "stream_id" not in records[0] else uuid.UUID(records[0]["stream_id"][5:])
    new = [
        NewEvent(type=r["type"], data=r["data"], metadata=r["metadata"], schema_version=r["schema_version"],
                 event_id=uuid.uuid4() if copy or "event_id" not in r else uuid.UUID(r["event_id"]))
        for r in records
    ]
    created = sessions.created_from_stored(records[0]["schema_version"], records[0]["data"])
    rules = rules or registry.rules_for(created)
    events = [sessions.decode_stored(rules, r["type"], r["schema_version"], r["data"]) for r in records]
    first = sessions.replay(rules, events[:1])
    session = sessions.replay(rules, events[1:], first)
    published = [e.seed for e in events if isinstance(e, sessions.GameOver)]
    seed = bytes.fromhex(published[-1]) if published else seed or os.urandom(32)
    players = {created.host, *(e.player for e in events if isinstance(e, (sessions.SeatTaken, sessions.SeatLeft)))}
    with service.pool.connection() as conn, conn.transaction():
        for player in sorted(players):
            conn.execute(
                "insert into players (id, name, token_sha256) values (%s, %s, %s) on conflict (id) do nothing",
                (player, f"stored-{player[:8]}", os.urandom(32)),
            )
        readmodels.insert_game(conn, game_id, first, seed)
        service.store.append(f"game-{game_id}", new, 0, conn=conn)
        readmodels.project(conn, game_id, session, events, sessions.to_act(rules, session), None)
    return game_id
