"""Re-running a finished game from its commands and its published seed.

Every batch of events in a game's log carries, in its metadata, the command
that caused it, the seat and the version it was decided at. With the seed,
each decision can be taken again: the same rng, the same state, the same
command must give the same events, or the log (or the server) lied.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any, Iterable, Mapping

from . import session as sessions
from .engine import DecodeError, IllegalCommand, Rules, rng_for, seed_commitment
from .lifecycle import bots
from .lifecycle import decide as lifecycle


@dataclass
class Rerun:
    ok: bool = True
    batches: int = 0
    problems: list[str] = field(default_factory=list)

    def fail(self, message: str) -> None:
        self.ok = False
        self.problems.append(message)

    def to_json(self) -> dict:
        return {"ok": self.ok, "batches": self.batches, "problems": self.problems}


def _canon(events) -> str:
    return json.dumps([event.to_json() for event in events], sort_keys=True)


def rerun(rules: Rules, records: Iterable[Mapping[str, Any]]) -> Rerun:
    """``records``: the game's log in order, each with type, data, metadata.
    The last GameOver must carry the seed."""
    records = list(records)
    result = Rerun()
    try:
        events = [sessions.decode_event(rules, {"type": r["type"], **r["data"]}) for r in records]
    except (DecodeError, TypeError) as error:
        result.fail(f"an event in the log is not one this game records: {error}")
        return result
    ended = [e for e in events if isinstance(e, sessions.GameOver)]
    if not events or not isinstance(events[0], sessions.GameCreated):
        result.fail("the log does not start with GameCreated")
        return result
    if not ended:
        result.fail("the game has not ended: its seed is still secret")
        return result
    try:
        seed = bytes.fromhex(ended[-1].seed)
    except (TypeError, ValueError):
        result.fail("the published seed is not written in hex")
        return result
    if seed_commitment(seed) != events[0].seed_sha256:
        result.fail("the published seed does not match the commitment in GameCreated")
        return result
    session = None
    position = 0
    keyed = [(_batch_key(r["metadata"]), e) for r, e in zip(records, events)]
    for key, group in groupby(keyed, key=lambda pair: pair[0]):
        batch = [event for _, event in group]
        meta = records[position]["metadata"]
        result.batches += 1
        expected = _redecide(rules, session, meta, batch, seed, result)
        if expected is not None and _canon(expected) != _canon(batch):
            result.fail(f"the events at versions {position + 1}-{position + len(batch)} are not what the command gives")
        session = sessions.replay(rules, batch, session)
        position += len(batch)
    return result


def _batch_key(meta: Mapping[str, Any]) -> tuple:
    return (meta.get("decided_at"), meta.get("seat"), bool(meta.get("timeout")), json.dumps(meta.get("command"), sort_keys=True))


def _redecide(rules, session, meta, batch, seed: bytes, result: Rerun):
    """The events the recorded command gives again, or None where nothing is
    random and the batch is only checked to fold (lobby and scoring)."""
    command = meta.get("command") or {}
    kind = command.get("type")
    try:
        if kind == "StartGame":
            return sessions.start(rules, session, meta["actor"], rng_for(seed, session.version))
        if kind in ("CreateGame", "JoinGame", "LeaveGame") or session is None or meta.get("lifecycle"):
            return None  # lobby and seat-life decisions: nothing random, only checked to fold
        if kind == "ScoreGame":
            return lifecycle.scored(rules, session)
        if meta.get("bot"):
            seat = meta["seat"]
            bot = bots.make(rules.name, meta["bot"])
            chosen = bots.decide_for(rules, session.state, seat, bot, bots.bot_rng(seed, seat, session.version))
            if chosen.to_json() != command:
                result.fail(f"the {meta['bot']} bot at version {session.version} chose another command than the seed gives")
        if meta.get("timeout"):
            chosen = rules.on_timeout(session.state, meta["seat"], rng_for(seed + b"/timeout", session.version))
            if chosen.to_json() != command:
                result.fail(f"the timeout at version {session.version} applied another command than the seed gives")
            return sessions.timed_out(
                rules, session, meta["seat"], rules.decode_command(command), rng_for(seed, session.version), seed
            )
        return sessions.play(
            rules, session, meta["seat"], rules.decode_command(command), rng_for(seed, session.version), seed
        )
    except (IllegalCommand, KeyError, ValueError, TypeError) as error:
        result.fail(f"the command decided at version {session.version if session else 0} is refused now: {error}")
        return None
