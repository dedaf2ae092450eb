"""Recently confirmed versions answer polls without a query, and are never
trusted longer than max_age or across a lost LISTEN connection."""

import time
import uuid

from eventstore import NewEvent
from eventstore.versions import RecentVersions


def test_a_version_is_trusted_only_for_max_age():
    now = [100.0]
    recent = RecentVersions(max_age=0.05, clock=lambda: now[0])
    recent.heard("s", 3)
    now[0] += 0.05
    assert recent.get("s") == 3
    now[0] += 0.01
    assert recent.get("s") is None


def test_a_late_notification_never_lowers_a_known_version():
    recent = RecentVersions()
    recent.heard("s", 5)
    recent.heard("s", 4)
    assert recent.get("s") == 5


def test_a_read_from_before_a_reconnection_is_not_trusted():
    recent = RecentVersions()
    epoch = recent.epoch()
    recent.forget_all()
    recent.confirmed("s", 7, epoch)
    assert recent.get("s") is None
    recent.confirmed("s", 7, recent.epoch())
    assert recent.get("s") == 7


def test_the_store_hears_an_append_made_through_another_store(event_store, database_url):
    from eventstore import PostgresEventStore

    other = PostgresEventStore.connect(database_url, max_size=2)
    stream = f"recent-{uuid.uuid4()}"
    try:
        assert event_store.recent_version(stream) == 0
        other.append(stream, [NewEvent("Moved", {"n": 1})], 0)
        deadline = time.monotonic() + 10
        while event_store.recent_version(stream) != 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert event_store.recent_version(stream) == 1
    finally:
        other.close()


def test_the_store_knows_its_own_appends_at_once(event_store):
    stream = f"recent-{uuid.uuid4()}"
    assert event_store.recent_version(stream) == 0
    event_store.append(stream, [NewEvent("Moved", {"n": 1})], 0)
    assert event_store.recent_version(stream) == 1
