"""boardlog's event store: PostgreSQL (psycopg 3) and an in-memory twin, one protocol.

See DESIGN.md "Event store". In short:

- ``append(stream_id, events, expected_version, conn=None)``: expected is an int
  (the stream has exactly that many events; 0 == NO_STREAM) or ANY. All events
  land in one transaction or none do; re-sending the same event ids at the same
  place returns the same version and writes nothing. With ``conn`` (an open
  connection inside your transaction) nothing is committed for you.
- ``append_command(stream_id, events, expected_version, rows)``: a game's
  command in one statement (``boardlog_command``, migration 0117): the
  append, then, only if it succeeded, the game's row, its seats, the acting
  player's absence and the Idempotency-Key's record (``CommandRows``). On
  an autocommit connection that is one round trip and one transaction.
  Returns ``CommandAppended``: the new version, the absences ended, and
  when the events were recorded (so that they can be shown unread).
- ``read_all(after, limit)``: the global feed. Resume with ``after`` = the
  ``global_position`` of the last event you processed. Events come in
  (transaction id, position) order, only once no earlier transaction can still
  add to them, so nothing is skipped; positions are therefore not always
  increasing inside the feed. Don't compare positions, just pass the last one.
  A table talk message (a ``talk-`` stream) takes a negative position from a
  sequence of its own (migration 0110): the positions of every other event
  count none of them, so showing one to a player says nothing of what was said
  in channels he does not read.
- The hash chain (``eventstore.chain``) can be re-checked offline from exported
  events: ``verify_chain(events)``.
- NOTIFY channel ``boardlog_events``, payload ``stream_id:version``. Appends in
  your transaction notify on commit; ``announce_later=True`` + ``announce()``
  lets you notify after commit instead (keeps concurrent commits concurrent).
- Schema: ``eventstore/migrations/NNNN_name.sql``, applied by ``migrate``.
"""

from eventstore.memory import InMemoryEventStore
from eventstore.migrations import migrate
from eventstore.postgres import PostgresEventStore
from eventstore.types import (
    ANY,
    NO_STREAM,
    CommandAppended,
    CommandRows,
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
    "CommandAppended",
    "CommandRows",
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
