"""What the hash chain covers is a promise written in docs/referees.md ("What
the hash chain proves"): each covered column, changed behind the store's back,
breaks the chain at that version; the server's own bookkeeping, which that
page says is not covered and why, does not."""

from __future__ import annotations

import pytest

from eventstore import NO_STREAM
from tests.eventstore.conftest import events
from tests.eventstore.test_postgres import _tamper

COVERED = {
    "data": "data = jsonb_set(data, '{n}', '99')",
    "metadata": "metadata = jsonb_set(metadata, '{actor}', '\"someone else\"')",
    "type": "type = 'SomethingElse'",
    "event_id": "event_id = gen_random_uuid()",
    "schema_version": "schema_version = schema_version + 1",
}
NOT_COVERED = {
    "recorded_at": "recorded_at = recorded_at - interval '1 hour'",
}


@pytest.mark.parametrize("column", sorted(COVERED))
def test_changing_a_covered_column_breaks_the_chain_at_that_version(event_store, database_url, stream_id, column):
    event_store.append(stream_id, events(*"ABCD"), NO_STREAM)
    _tamper(database_url, f"update events set {COVERED[column]} where stream_id = %s and version = 2", (stream_id,))
    result = event_store.verify(stream_id)
    assert (result.ok, result.broken_at) == (False, 2), result


@pytest.mark.parametrize("column", sorted(NOT_COVERED))
def test_the_servers_clock_is_not_in_the_chain_as_the_readme_says(event_store, database_url, stream_id, column):
    event_store.append(stream_id, events(*"ABCD"), NO_STREAM)
    _tamper(database_url, f"update events set {NOT_COVERED[column]} where stream_id = %s and version = 2", (stream_id,))
    assert event_store.verify(stream_id).ok
