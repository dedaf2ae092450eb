"""The vocabulary of the event store: sentinels, records, errors, and input checks.

Both stores (PostgreSQL and in-memory) speak exactly these types, and both run
every append through :func:`prepare_append` first, so bad input is refused the
same way, before anything is written.
"""

from __future__ import annotations

import math
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple, Sequence

from eventstore.chain import canonical_json

MAX_EVENT_BYTES = 1024 * 1024  # canonical JSON of one event, data and metadata included
MAX_STREAM_ID_LENGTH = 200  # NOTIFY payloads are small; stream ids are short


class _Sentinel:
    __slots__ = ("_name",)

    def __init__(self, name: str):
        self._name = name

    def __repr__(self) -> str:
        return self._name

    def __reduce__(self):  # pickling keeps identity
        return self._name


NO_STREAM = _Sentinel("NO_STREAM")
"""Expected version: the stream must not exist yet (same as 0)."""
ANY = _Sentinel("ANY")
"""Expected version: append wherever the stream is now, no check."""


@dataclass(frozen=True)
class NewEvent:
    type: str
    data: dict
    metadata: dict = field(default_factory=dict)
    event_id: uuid.UUID = field(default_factory=uuid.uuid4)
    schema_version: int = 1


@dataclass(frozen=True)
class RecordedEvent:
    global_position: int
    stream_id: str
    version: int  # 1-based position inside the stream
    event_id: uuid.UUID
    type: str
    schema_version: int
    data: dict
    metadata: dict
    recorded_at: datetime
    hash: str  # hex sha256 of the chain link


@dataclass(frozen=True)
class Snapshot:
    version: int
    schema_version: int
    state: bytes


@dataclass(frozen=True)
class Verification:
    ok: bool
    checked: int
    broken_at: int | None
    reason: str | None


class WrongExpectedVersion(Exception):
    """The stream is not at the version the caller expected."""

    def __init__(self, stream_id: str, expected: Any, actual: int):
        self.stream_id = stream_id
        self.expected = expected
        self.actual = actual
        super().__init__(
            f"stream {stream_id!r} is at version {actual}, but the append expected {expected!r}"
        )


class EventIdConflict(Exception):
    """An event id already stored with other content, or at another place."""


class InvalidAppend(ValueError):
    """An append refused before any write: bad expected version, too large, not JSON."""


def expected_as_int(expected: Any) -> int | None:
    """The expected version as an int, or None for ANY; InvalidAppend otherwise."""
    if expected is ANY:
        return None
    if expected is NO_STREAM:
        return 0
    if isinstance(expected, bool) or not isinstance(expected, int):
        raise InvalidAppend(
            f"expected_version must be an int >= 0, NO_STREAM or ANY, not {expected!r}"
        )
    if expected < 0:
        raise InvalidAppend(f"expected_version must be >= 0, not {expected}")
    return expected


def check_stream_id(stream_id: Any) -> str:
    if not isinstance(stream_id, str) or not stream_id:
        raise InvalidAppend(f"stream_id must be a non-empty string, not {stream_id!r}")
    if len(stream_id) > MAX_STREAM_ID_LENGTH:
        raise InvalidAppend(f"stream_id is longer than {MAX_STREAM_ID_LENGTH} characters")
    if "\x00" in stream_id:
        raise InvalidAppend("stream_id must not contain NUL characters")
    return stream_id


def _check_json_values(value: Any, where: str) -> None:
    """Refuse what PostgreSQL jsonb cannot keep exactly, so the hash chain stays valid.

    jsonb rejects NUL characters and prints numbers in plain notation, so a float
    such as 1e16 or -0.0 would come back as other text than was hashed.
    """
    if isinstance(value, str):
        if "\x00" in value:
            raise InvalidAppend(f"{where}: strings must not contain NUL characters")
    elif isinstance(value, float):
        text = repr(value)
        if not math.isfinite(value) or "e" in text or text == "-0.0":
            raise InvalidAppend(
                f"{where}: the float {text} cannot be stored exactly; use an int or a string"
            )
    elif isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str) and "\x00" in key:
                raise InvalidAppend(f"{where}: keys must not contain NUL characters")
            _check_json_values(item, where)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _check_json_values(item, where)


def event_body(stream_id: str, event: NewEvent) -> str:
    """The canonical JSON of an event without its version, and without the closing brace.

    The chain hashes ``canonical_json(event with version)``; because "version"
    sorts last among the keys, that text is ``body + ',"version":N}'``, which
    lets PostgreSQL finish it once it knows N. The body is also what PostgreSQL
    parses to store the event, so what is hashed is exactly what is stored.
    """
    if not isinstance(event, NewEvent):
        raise InvalidAppend(f"events must be NewEvent instances, not {type(event).__name__}")
    if not isinstance(event.type, str) or not event.type:
        raise InvalidAppend(f"event type must be a non-empty string, not {event.type!r}")
    if not isinstance(event.data, dict) or not isinstance(event.metadata, dict):
        raise InvalidAppend(f"event {event.type}: data and metadata must be dicts")
    if isinstance(event.schema_version, bool) or not isinstance(event.schema_version, int):
        raise InvalidAppend(f"event {event.type}: schema_version must be an int")
    if not isinstance(event.event_id, uuid.UUID):
        raise InvalidAppend(f"event {event.type}: event_id must be a uuid.UUID")
    _check_json_values(event.data, f"event {event.type} data")
    _check_json_values(event.metadata, f"event {event.type} metadata")
    content = {
        "data": event.data,
        "event_id": str(event.event_id),
        "metadata": event.metadata,
        "schema_version": event.schema_version,
        "stream_id": stream_id,
        "type": event.type,
    }
    try:
        text = canonical_json(content)
    except (TypeError, ValueError) as error:
        raise InvalidAppend(f"event {event.type} is not JSON-serializable: {error}") from None
    if len(text.encode("utf-8")) > MAX_EVENT_BYTES:
        raise InvalidAppend(f"event {event.type} is larger than 1 MiB of JSON")
    return text[:-1]


class CommandAppended(NamedTuple):
    """What ``append_command`` wrote: the stream's new version, how many
    absences it ended, and when its events were recorded (their
    ``recorded_at``, the statement's transaction time)."""

    version: int
    ended: int
    recorded_at: datetime


@dataclass(frozen=True)
class CommandRows:
    """What a game's command writes with its events, in their one statement
    (``PostgresEventStore.append_command``, migration 0117): the game's row
    (games), its seat changes in order (``{"op": "take" | "leave" |
    "replace", "seat", "player"}``), its life when the events changed it
    (``{"bots", "visibility", "rematch"}``), the acting player whose absence
    running at ``now`` ends, and the Idempotency-Key's record."""

    game_id: Any
    status: str
    host: Any
    to_act: Sequence[str]
    deadline: datetime | None
    outcome: str | None
    seats: list[dict] | None = None
    life: dict | None = None
    back_player: Any = None
    now: datetime | None = None
    key: dict | None = None


def prepare_append(stream_id: Any, events: Sequence[NewEvent], expected: Any):
    """Check everything about an append; return (stream_id, expected int or None, bodies)."""
    check_stream_id(stream_id)
    expected_int = expected_as_int(expected)
    if isinstance(events, (str, bytes, dict)) or not hasattr(events, "__iter__"):
        raise InvalidAppend("events must be a sequence of NewEvent")
    events = list(events)
    bodies = [event_body(stream_id, event) for event in events]
    ids = [event.event_id for event in events]
    if len(set(ids)) != len(ids):
        raise InvalidAppend("the same event_id appears twice in one append")
    return events, expected_int, bodies
