"""boardlog's event store: PostgreSQL (psycopg 3) and an in-memory twin, one protocol.

See DESIGN.md "Event store". The hash chain is in ``eventstore.chain``; the
schema is in ``eventstore/migrations`` and applied by ``eventstore.migrations.migrate``.
"""

from eventstore.memory import InMemoryEventStore
from eventstore.migrations import migrate
from eventstore.postgres import PostgresEventStore
from eventstore.types import (
    ANY,
    NO_STREAM,
    EventIdConflict,
    InvalidAppend,
    NewEvent,
    RecordedEvent,
    Snapshot,
    Verification,
    WrongExpectedVersion,
)

__all__ = [
    "ANY",
    "NO_STREAM",
    "EventIdConflict",
    "InMemoryEventStore",
    "InvalidAppend",
    "NewEvent",
    "PostgresEventStore",
    "RecordedEvent",
    "Snapshot",
    "Verification",
    "WrongExpectedVersion",
    "migrate",
]
