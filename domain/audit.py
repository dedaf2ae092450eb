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
from .engine import IllegalCommand, UnknownRulesVersion, seed_commitment
from .kit import Game
from .randomness import VERSIONS as RANDOMNESS_VERSIONS, UnknownRandomnessVersion
from .upcasting import UpcastError
from . import engine_rules
from .lifecycle import bots, takeback
from .lifecycle import decide as lifecycle
from .lifecycle.clocks import continues_missed_turn
from .seat_life_audit import redecide_seat_life


@dataclass
class Rerun:
    ok: bool = True
    batches: int = 0
    problems: list[str] = field(default_factory=list)
    session: Any = None  # the game as the re-run leaves it (check-history compares it)

    def fail(self, message: str) -> None:
        self.ok = False
        self.problems.append(message)

    def to_json(self) -> dict:
        return {"ok": self.ok, "batches": self.batches, "problems": self.problems}


def _canon(events) -> str:
    return json.dumps([event.to_json() for event in events], sort_keys=True)


def rerun(rules: Game, records: Iterable[Mapping[str, Any]], secret_seed: bytes | None = None,
          complete: bool = False) -> Rerun:
    """``records``: the game's log in order, each with type, schema_version,
    data, metadata; ``rules``: the rules version the game was created under
    (``domain.games.rules_for``). The last GameOver must carry the seed.
    A log this installation cannot read (UnreadableHistory) raises: that is
    no finding about the game, and must not read as one. ``secret_seed``:
    the server's stored seed, to re-run a game that has not ended yet
    (``boardlog check-history``). ``complete``: the records are a finished
    game's whole log (an export), which must end in its standings.

    The rules every game obeys (``domain.engine_rules``) are checked first,
    from the engine's events and the metadata alone; then every batch, seat
    decisions included, is decided again with the rules and compared."""
    records = list(records)
    result = Rerun()
    events = []
    for version, record in enumerate(records, 1):
        try:
            events.append(sessions.decode_stored(rules, record["type"], record.get("schema_version", 1),
                                                 record["data"]))
        except UpcastError:
            raise  # not evidence of tampering: this installation cannot read that shape
        except Exception as error:  # whatever a changed row makes decoding raise
            result.fail(f"at version {version}: the stored {record.get('type')} is not an event this game records "
                        f"({type(error).__name__}: {error})")
            return result
    ended = [e for e in events if isinstance(e, sessions.GameOver)]
    if not events or not isinstance(events[0], sessions.GameCreated):
        result.fail("the log does not start with GameCreated")
        return result
    if events[0].rules_version != rules.version:
        raise UnknownRulesVersion(
            f"the game was created under {rules.name} rules version {events[0].rules_version}; "
            f"it cannot be audited under version {rules.version}"
        )
    if events[0].randomness_version not in RANDOMNESS_VERSIONS:
        raise UnknownRandomnessVersion(
            f"the game draws under randomness version {events[0].randomness_version}; this installation knows "
            f"version(s) {', '.join(map(str, RANDOMNESS_VERSIONS))}")
    if not ended and secret_seed is None:
        result.fail("the game has not ended: its seed is still secret")
        return result
    if ended:
        try:
            seed = bytes.fromhex(ended[-1].seed)
        except (TypeError, ValueError):
            result.fail("the published seed is not written in hex")
            return result
    else:
        seed = secret_seed
    if seed_commitment(seed) != events[0].seed_sha256:
        result.fail("the published seed does not match the commitment in GameCreated")
        return result
    shapeless = engine_rules.metadata_problems(records)
    if shapeless:
        result.fail(shapeless[0])
        return result
    try:
        framed = engine_rules.check(
            # The engine's events as decoded (upcast); a game's own are not read there.
            [{"type": r["type"], "data": e.to_json() if r["type"] in engine_rules.ENGINE_TYPES else r["data"],
              "metadata": r["metadata"]} for r, e in zip(records, events)],
            complete)
    except (AttributeError, KeyError, TypeError, ValueError) as error:  # metadata of shapes no server writes
        framed = [f"the metadata does not read: {type(error).__name__}: {error}"]
    for problem in framed:
        result.fail(problem)
    session = None
    position = 0
    past: list[tuple] = []  # each batch's (seat, timed out, is a replacement), as lifecycle.history reads them
    decided: list = []  # each batch as recorded, for a takeback's look back (domain.lifecycle.takeback)
    keyed = [(engine_rules.batch_key(r["metadata"]), e) for r, e in zip(records, events)]
    for key, group in groupby(keyed, key=lambda pair: pair[0]):
        batch = [event for _, event in group]
        meta = records[position]["metadata"]
        result.batches += 1
        _check_actor(session, meta, result)
        source = sessions.source(session, seed) if session is not None else None
        expected = _redecide(rules, session, meta, batch, seed, result, past, source, decided)
        _check_draws(source, records[position:position + len(batch)], position, result)
        # Equal objects are equal logs (the cheap test, passed by nearly every
        # batch); otherwise the canonical JSON decides (a list may equal a tuple).
        if expected is not None and expected != batch and _canon(expected) != _canon(batch):
            result.fail(f"at version {position + 1}: the events at versions {position + 1}-{position + len(batch)} "
                        "are not what the command gives")
        for offset, event in enumerate(batch):
            try:
                session = sessions.evolve(rules, session, event)
            except Exception as error:  # an event the rules cannot apply: nothing after it replays
                result.fail(f"at version {position + offset + 1}: the stored {type(event).__name__} does not apply "
                            f"to the game as it stood ({type(error).__name__}: {error}); the history no longer "
                            "replays from there")
                return result
            recorded = records[position + offset]["metadata"].get("to_act")
            replayed = sorted(sessions.to_act(rules, session)) if recorded is not None else None
            if recorded != replayed:
                said = ", ".join(map(str, recorded)) if isinstance(recorded, list) else repr(recorded)
                result.fail(f"at version {session.version}: the metadata says {said or 'nobody'} to act, "
                            f"the replay {', '.join(replayed) or 'nobody'}")
        past.append(_seat_record(meta))
        decided.append(takeback.Batch(meta, batch))
        position += len(batch)
    result.session = session
    return result


def _seat_record(meta: Mapping[str, Any]) -> tuple:
    """What ``lifecycle.history`` reads of a batch, as the service gives it
    (api/service/lifecycle.py ``seat_history``): seat-life batches other
    than a redemption do not count."""
    command = engine_rules.command_type(meta)
    if (meta.get("lifecycle") and command != "RedeemInvite") or continues_missed_turn(meta):
        return (None, False, False)
    return (meta.get("seat"), bool(meta.get("timeout")), command == "RedeemInvite")


def _check_draws(source, batch_records, position: int, result: Rerun) -> None:
    """Randomness version 2: every event of a decision lists the draws the
    re-run took, label by label (verifying-a-game.md, section 4.4); version 1
    lists none."""
    taken = source.draws() if source is not None else {}
    if any((record["metadata"].get("draws") or {}) != taken for record in batch_records):
        result.fail(f"the draws recorded at versions {position + 1}-{position + len(batch_records)} "
                    "are not the ones the seed and contributions give")


def _check_actor(session, meta: Mapping[str, Any], result: Rerun) -> None:
    """A player's command is the command of the seat the player holds, and
    a seat a bot plays, or that resigned, takes none (as ``act`` refuses)."""
    if session is None or meta.get("lifecycle") or meta.get("timeout") or meta.get("bot") is not None:
        return
    if engine_rules.command_type(meta) in ("CreateGame", "CreateRematch", "JoinGame", "LeaveGame", "StartGame",
                                           "ScoreGame"):
        return
    seat, actor = meta.get("seat"), meta.get("actor")
    if not isinstance(seat, str) or session.players.get(seat) != actor:
        result.fail(f"at version {session.version + 1}: the command is credited to {actor}, "
                    f"who does not hold seat {seat} (held by {session.players.get(seat) or 'nobody'})")
    elif seat in session.life.resigned or session.life.plays(seat):
        result.fail(f"at version {session.version + 1}: a player's command for {seat}, "
                    f"which {'resigned' if seat in session.life.resigned else 'a bot plays'}")


def _redecide(rules, session, meta, batch, seed: bytes, result: Rerun, past, source, decided=()):
    """The events the recorded command gives again, or None where the batch
    is only checked to fold (creation, clocks)."""
    command = meta.get("command") if isinstance(meta.get("command"), dict) else {}
    kind = command.get("type")
    try:
        if kind == "StartGame":
            return sessions.start(rules, session, meta["actor"], source.game(session.version))
        if session is None or kind == "CreateGame":
            return None  # the creation: engine_rules checks its host and seat
        if kind == "JoinGame":
            return lifecycle.join(session, meta["actor"], command.get("seat"))
        if kind == "LeaveGame":
            return sessions.leave(session, meta["actor"])
        if kind == "ContributeRandomness":
            return sessions.contribute(session, meta["actor"], command.get("contribution"))
        if meta.get("lifecycle"):
            return redecide_seat_life(rules, session, meta, batch, seed, past, decided)
        if kind == "ScoreGame":
            return lifecycle.scored(rules, session)
        if meta.get("bot"):
            seat = meta["seat"]
            bot = bots.make(rules.name, meta["bot"])
            chosen = bots.decide_for(rules, session.state, seat, bot, source.bot(seat, session.version))
            if chosen.to_json() != command:
                result.fail(f"at version {session.version + 1}: the {meta['bot']} bot chose another command than "
                            "the seed gives")
        if meta.get("timeout"):
            chosen = rules.on_timeout(session.state, meta["seat"], source.timeout(session.version))
            if chosen.to_json() != command:
                result.fail(f"at version {session.version + 1}: the timeout applied another command than the seed gives")
            return sessions.timed_out(
                rules, session, meta["seat"], rules.decode_command(command), source.game(session.version), seed
            )
        return sessions.play(
            rules, session, meta["seat"], rules.decode_command(command), source.game(session.version), seed
        )
    except (IllegalCommand, KeyError, ValueError, TypeError) as error:
        decided = session.version if session else 0
        result.fail(f"at version {decided + 1}: the {kind or 'command'} decided on version {decided} is refused now: "
                    f"{error}")
        return None
