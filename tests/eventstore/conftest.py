"""The contract suite runs every test in it against both stores."""

from __future__ import annotations

import threading
import time
import uuid

import pytest

from eventstore import InMemoryEventStore, NewEvent


@pytest.fixture(params=["memory", "postgres"])
def store(request):
    if request.param == "memory":
        memory = InMemoryEventStore()
        yield memory
        memory.close()
    else:
        yield request.getfixturevalue("event_store")


@pytest.fixture
def stream_id():
    return f"test-{uuid.uuid4()}"


def events(*types: str, **data) -> list[NewEvent]:
    return [NewEvent(type_, dict(data, n=index)) for index, type_ in enumerate(types)]


def read_feed_until(store, stream_ids, count, after=0, timeout=30.0):
    """Read the global feed from ``after`` until ``count`` events of ``stream_ids`` came.

    Returns (events of those streams in feed order, the checkpoint reached).
    Other tests' events are skipped; the feed may lag while other transactions
    on the server are open, hence the polling.
    """
    wanted = set(stream_ids)
    seen = []
    deadline = time.monotonic() + timeout
    while len(seen) < count and time.monotonic() < deadline:
        page = store.read_all(after=after, limit=500)
        if not page:
            time.sleep(0.02)
            continue
        seen.extend(event for event in page if event.stream_id in wanted)
        after = page[-1].global_position
    return seen, after


def wakes_up_when_appended(store, stream_id) -> bool:
    """Wait on a stream at version 1 in another thread, append version 2: the waiter
    must get 2 back."""
    results = []
    waiter = threading.Thread(
        target=lambda: results.append(store.wait_for_version(stream_id, 1, timeout=30)))
    waiter.start()
    store.append(stream_id, events("B"), 1)
    waiter.join(timeout=60)
    return results == [2]
