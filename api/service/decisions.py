"""What a decision is made of: events with the metadata that says who caused
them and how (the audit re-runs decisions from it), and the scheduler the
service tells after each commit."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import Any, Mapping

from domain.engine import Event
from eventstore import NewEvent
from eventstore.chain import salt
from domain.session import ENGINE_EVENT_TYPES, Session


@dataclass(frozen=True)
class Decision:
    """Events to append, each with the metadata that says who caused it and
    how; ``banks_taken_back``: the banks a takeback gives back (seat -> its
    bank when it made the move taken back, domain.lifecycle.clocks.tick)."""

    events: list[Event]
    metadata: list[dict]
    banks_taken_back: Mapping[str, float] | None = None


class Scheduler:
    """What the service tells the workers after a commit. Redis is disposable:
    a lost call is recovered by the workers' sweeper from the read models."""

    def schedule_deadline(self, game_id: str, version: int, at: dt.datetime) -> None:
        pass

    def schedule_absence_check(self, game_id: str, version: int, at: dt.datetime) -> None:
        """A look at its players' absences (api/service/absences.py); lost, the game's next deadline looks."""

    def schedule_scoring(self, game_id: str) -> None:
        pass

    def schedule_bot(self, game_id: str, version: int, at: dt.datetime) -> None:
        pass

    def schedule_reminder(self, game_id: str, at: dt.datetime) -> None:
        """The game's next reminders (api/service/reminders.py), due at ``at``."""


def by(player, seat, command_json, session: Session, events: list[Event], draws=None) -> Decision:
    meta = metadata(player, seat, command_json, session.version, draws=draws)
    return Decision(events, [meta] * len(events))


def metadata(actor: str, seat: str | None, command_json: Mapping[str, Any], version: int, timeout: bool = False,
             draws: Mapping[str, list] | None = None) -> dict:
    """``draws``: the decision's draws by label (domain.randomness.Source.draws;
    randomness version 2), left out when it drew nothing."""
    meta = {"actor": actor, "seat": seat, "command": dict(command_json), "decided_at": version}
    if timeout:
        meta["timeout"] = True
    if draws:
        meta["draws"] = dict(draws)
    return meta


def new_event(event: Event, meta: dict):
    """What is appended for a domain event: its data, in its current schema version."""
    return NewEvent(type=event.type_name(), data=event_data(event), metadata=meta, schema_version=event.schema_version)


def with_notice_facts(events: list[Event], metadata: list[dict], after: Session,
                      to_act_before, to_act_after) -> list[dict]:
    """The metadata to store, with what domain/notices.py reads so that a
    notice never needs a replay: who sits where after the decision on every
    engine event and on the last event, and on the last event the seats to
    act and those whose turn came with it and whose holder plays them (a seat
    a bot plays since its player resigned or was abandoned tells him nothing:
    he sees the game as a spectator now); on a proposal to end, the players
    asked to accept it (those who still play their seats)."""
    seated = dict(after.players)
    out = []
    last = len(events) - 1
    for index, (event, meta) in enumerate(zip(events, metadata)):
        meta = dict(meta)
        if index == last or type(event).__name__ in ENGINE_EVENT_TYPES:
            meta["seated"] = seated
        if type(event).__name__ == "EndProposed":
            meta["asked"] = sorted({player for seat, player in seated.items() if after.seat_seen_by(player) == seat})
        if index == last:
            meta["to_act"] = sorted(to_act_after)
            came = set(to_act_after) - set(to_act_before)
            meta["turn_came"] = sorted(seat for seat in came if after.seat_seen_by(after.players.get(seat)) == seat)
        out.append(meta)
    return out


def with_salts(metadata: list[dict], session: Session, seed: bytes, first_version: int) -> list[dict]:
    """The metadata of events to be stored at ``first_version`` on, each with
    its salt in a game of chain version 2 (openapi/verifying-a-game.md,
    section 3.2), so that the chain head a receipt shows hides what its
    holder may not see; a game of chain version 1 is hashed as it always was."""
    if session.chain_version < 2:
        return metadata
    return [{**meta, "salt": salt(seed, first_version + index)} for index, meta in enumerate(metadata)]


def event_data(event: Event) -> dict:
    data = event.to_json()
    data.pop("type")
    return data


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def is_unique_violation(error: Exception) -> bool:
    from psycopg import errors

    return isinstance(error, errors.UniqueViolation)


