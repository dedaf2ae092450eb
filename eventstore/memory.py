"""An in-memory event store with the same protocol as PostgresEventStore, for pure tests.

It follows the same rules (expected versions, idempotent re-appends, the hash
chain, snapshots per schema version), and copies data in and out through JSON,
as jsonb does, so callers can't change stored events by mutating dicts.
"""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from datetime import datetime, timezone
from typing import Sequence

from eventstore.chain import link_hash, verify_chain
from eventstore.types import (
    EventIdConflict,
    NewEvent,
    RecordedEvent,
    Snapshot,
    Verification,
    WrongExpectedVersion,
    check_stream_id,
    prepare_append,
)


class InMemoryEventStore:
    def __init__(self):
        self._condition = threading.Condition()
        self._streams: dict[str, list[RecordedEvent]] = {}
        self._all: list[RecordedEvent] = []
        self._by_id: dict = {}
        self._snapshots: dict[tuple[str, int], Snapshot] = {}
        self._closed = False

    def append(self, stream_id: str, events: Sequence[NewEvent], expected_version,
               conn=None, *, announce_later: bool = False) -> int:
        events, expected, bodies = prepare_append(stream_id, events, expected_version)
        with self._condition:
            stream = self._streams.get(stream_id, [])
            current = len(stream)
            if events and any(event.event_id in self._by_id for event in events):
                first = self._duplicate_start(stream_id, events, bodies)
                if expected is not None and expected != first - 1:
                    raise WrongExpectedVersion(stream_id, expected_version, current)
                return first + len(events) - 1
            if expected is not None and expected != current:
                raise WrongExpectedVersion(stream_id, expected_version, current)
            if not events:
                return current
            previous = stream[-1].hash if stream else None
            now = datetime.now(timezone.utc)
            for event, body in zip(events, bodies):
                version = len(stream) + 1
                text = f'{body},"version":{version}}}'
                stored = json.loads(body + "}")
                recorded = RecordedEvent(
                    len(self._all) + 1, stream_id, version, event.event_id, event.type,
                    event.schema_version, stored["data"], stored["metadata"], now,
                    link_hash(previous, text),
                )
                previous = recorded.hash
                stream.append(recorded)
                self._all.append(recorded)
                self._by_id[event.event_id] = recorded
            self._streams[stream_id] = stream
            self._condition.notify_all()
            return len(stream)

    def _duplicate_start(self, stream_id, events, bodies) -> int:
        """The version where these already-stored events start; EventIdConflict if they differ."""
        first = None
        for offset, (event, body) in enumerate(zip(events, bodies)):
            stored = self._by_id.get(event.event_id)
            if stored is None:
                raise EventIdConflict(f"stream {stream_id!r}: event {event.event_id} is already"
                                      " stored only partly: some events of this append exist,"
                                      " others do not")
            if first is None:
                first = stored.version
            content = json.loads(body + "}")
            if stored.stream_id != stream_id:
                where = f"in stream {stored.stream_id}"
            elif stored.version != first + offset:
                where = "at another place in this stream"
            elif (stored.type, stored.schema_version, stored.data, stored.metadata) != (
                    content["type"], content["schema_version"], content["data"],
                    content["metadata"]):
                where = "with other content"
            else:
                continue
            raise EventIdConflict(f"stream {stream_id!r}: event {event.event_id} is already"
                                  f" stored {where}")
        return first

    def announce(self, stream_id: str, version: int) -> None:
        """Waiters are woken by append itself here."""

    def save_snapshot(self, stream_id: str, version: int, schema_version: int, state: bytes,
                      conn=None) -> None:
        check_stream_id(stream_id)
        with self._condition:
            key = (stream_id, schema_version)
            old = self._snapshots.get(key)
            if old is None or old.version <= version:
                self._snapshots[key] = Snapshot(version, schema_version, bytes(state))

    def stream_version(self, stream_id: str, conn=None) -> int:
        with self._condition:
            return len(self._streams.get(stream_id, ()))

    def read_stream(self, stream_id: str, from_version: int = 1, to_version: int | None = None,
                    conn=None, *, metadata: bool = True) -> list[RecordedEvent]:
        with self._condition:
            stream = self._streams.get(stream_id, [])
            end = len(stream) if to_version is None else max(0, min(to_version, len(stream)))
            events = [_copy(event) for event in stream[max(1, from_version) - 1:end]]
        return events if metadata else [dataclasses.replace(event, metadata={}) for event in events]

    def read_tail(self, stream_id: str, after: int, metadata: bool = False) -> list[RecordedEvent]:
        return self.read_stream(stream_id, after + 1, metadata=metadata)

    def read_all(self, after: int = 0, limit: int = 1000) -> list[RecordedEvent]:
        with self._condition:
            return [_copy(event) for event in self._all[max(0, after):max(0, after) + limit]]

    def read_all_of(self, stream_ids, after: int = 0, limit: int = 1000) -> list[RecordedEvent]:
        wanted = set(stream_ids)
        with self._condition:
            found = [e for e in self._all[max(0, after):] if e.stream_id in wanted][:limit]
            return [_copy(event) for event in found]

    def last_position(self, shown: bool = False) -> int:
        """(Positions here are all shown: no stream numbers its own.)"""
        with self._condition:
            return len(self._all)

    def load_snapshot(self, stream_id: str, schema_version: int) -> Snapshot | None:
        with self._condition:
            return self._snapshots.get((stream_id, schema_version))

    def verify(self, stream_id: str) -> Verification:
        with self._condition:
            stream = list(self._streams.get(stream_id, []))
        head = (len(stream), stream[-1].hash if stream else None)
        return verify_chain(stream, head)

    def known_version(self, stream_id: str) -> int | None:
        return self.stream_version(stream_id)

    def swept_version(self, stream_id: str) -> int | None:
        return self.stream_version(stream_id)

    def recent_version(self, stream_id: str, max_age: float | None = None) -> int:
        return self.stream_version(stream_id)

    def wait_for_version(self, stream_id: str, version: int, timeout: float, until=None, watching=None) -> int:
        """``until``: checked at each wake-up (nothing here wakes early for it; ``watching`` is not called)."""
        deadline = time.monotonic() + max(0.0, timeout)
        with self._condition:
            while True:
                current = len(self._streams.get(stream_id, ()))
                remaining = deadline - time.monotonic()
                if current > version or remaining <= 0 or self._closed or (until is not None and until()):
                    return current
                self._condition.wait(remaining)

    def close(self) -> None:
        with self._condition:
            self._closed = True
            self._condition.notify_all()


def _copy(event: RecordedEvent) -> RecordedEvent:
    data, metadata = json.loads(json.dumps([event.data, event.metadata]))
    return RecordedEvent(event.global_position, event.stream_id, event.version, event.event_id,
                         event.type, event.schema_version, data, metadata, event.recorded_at,
                         event.hash)
