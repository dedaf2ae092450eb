"""The events this process appended, as a read of them would give them back,
kept a while so that its streams need not read them back (issue 37).

A move POSTed to a process is followed, in that same process, by its
streams waking and asking for the move's new events (api/service/shared.py):
they were in its hands a moment before. Each is kept here once its commit
returned, with what only the database could tell, from the append itself:
the time it was recorded (the statement's ``now()``, which is the column's
default) and its link hash (computed as the store computes it,
api/service/receipts.py). What a stream is given is what PostgreSQL gives
back: data and metadata parsed from their JSON, each object's keys in
jsonb's order, made so only when a stream first asks (a command nobody
watches pays nothing for it). An event whose JSON would not come back the
same (a float, which jsonb may give back as an integer) is not given, and
is read back as before.
Its global position is not known without a read: what is kept is not a
RecordedEvent, and serves only what shows an event to a reader.
"""

from __future__ import annotations

import datetime as dt
import json
import threading
import uuid
from collections import OrderedDict
from dataclasses import dataclass


@dataclass(frozen=True)
class AppendedEvent:
    """An event of a game as it was stored, but for its global position."""

    stream_id: str
    version: int
    event_id: uuid.UUID
    type: str
    schema_version: int
    data: dict
    metadata: dict
    recorded_at: dt.datetime
    hash: str


class AppendedHere:
    """Kept as appended (the commit pays nothing more); made into what a read
    would give back only when a stream asks, once."""

    def __init__(self, capacity: int = 4096):
        self.capacity = capacity
        self._events: OrderedDict[tuple[uuid.UUID, int], AppendedEvent | _AsAppended] = OrderedDict()
        self._lock = threading.Lock()

    def keep(self, game_id: uuid.UUID, stream_id: str, new_events, links, recorded_at: dt.datetime) -> None:
        """The events just committed, each with its (version, hash) link."""
        with self._lock:
            for event, (version, hash_hex) in zip(new_events, links):
                self._events[(game_id, version)] = _AsAppended(stream_id, version, event, hash_hex, recorded_at)
            while len(self._events) > self.capacity:
                self._events.popitem(last=False)

    def between(self, game_id: uuid.UUID, first: int, last: int) -> list[AppendedEvent] | None:
        """The events from ``first`` to ``last``, if this process appended and still holds them all."""
        with self._lock:
            found = [self._events.get((game_id, version)) for version in range(first, last + 1)]
        if any(event is None for event in found):
            return None
        shown = [event.as_read() if isinstance(event, _AsAppended) else event for event in found]
        if any(event is None for event in shown):
            return None  # read back, all of them: a catch-up takes all or none from here
        with self._lock:
            for event in shown:
                if (game_id, event.version) in self._events:
                    self._events[(game_id, event.version)] = event
        return shown


@dataclass(frozen=True)
class _AsAppended:
    stream_id: str
    version: int
    event: object  # eventstore's NewEvent
    hash: str
    recorded_at: dt.datetime

    def as_read(self) -> AppendedEvent | None:
        data, metadata = as_read_back(self.event.data), as_read_back(self.event.metadata)
        if data is None or metadata is None:
            return None
        return AppendedEvent(self.stream_id, self.version, self.event.event_id, self.event.type,
                             self.event.schema_version, data, metadata, self.recorded_at, self.hash)


def as_read_back(value):
    """``value`` as a jsonb column gives it back through psycopg, or None
    when that is not certain (a float: 1e16 comes back as an int)."""
    try:
        parsed = json.loads(json.dumps(value, allow_nan=False), parse_float=_refuse_float)
    except (ValueError, TypeError):
        return None
    return _jsonb_order(parsed)


def _refuse_float(text: str):
    raise ValueError(f"a float ({text}) may not come back from jsonb as it went in")


def _jsonb_order(value):
    """jsonb keeps an object's keys sorted shorter first, then by their bytes."""
    if isinstance(value, dict):
        return {key: _jsonb_order(value[key]) for key in sorted(value, key=lambda k: (len(k.encode()), k.encode()))}
    if isinstance(value, list):
        return [_jsonb_order(item) for item in value]
    return value
