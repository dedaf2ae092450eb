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


def test_a_version_is_trusted_past_its_max_age_while_sweeps_of_the_feed_keep_coming():
    now = [0.0]
    recent = RecentVersions(max_age=1.0, clock=lambda: now[0], sweep_trust=2.0)
    recent.heard("game-a", 3)
    now[0] = 30.0
    assert recent.get("game-a") is None, "no sweep yet: trusted for max_age only"
    recent.swept({}, recent.epoch())
    assert recent.get("game-a") == 3
    now[0] = 32.5
    assert recent.get("game-a") is None, "the last sweep is too old to vouch for it"


def test_a_sweep_makes_good_a_notification_that_was_lost():
    now = [0.0]
    recent = RecentVersions(clock=lambda: now[0])
    recent.confirmed("game-a", 3, recent.epoch())
    recent.swept({"game-a": 5, "game-b": 2}, recent.epoch())
    assert recent.get("game-a") == 5
    assert recent.get("game-b") is None, "a stream nobody asked about is not kept"


def test_a_sweep_from_before_a_reconnection_vouches_for_nothing():
    recent = RecentVersions(clock=lambda: 0.0)
    epoch = recent.epoch()
    recent.forget_all()
    recent.heard("game-a", 1)
    recent.swept({"game-a": 9}, epoch)
    assert recent.get("game-a") == 1


def test_a_version_vouched_for_only_by_sweeps_is_unknown_until_one_comes_and_once_they_stop():
    now = [0.0]
    recent = RecentVersions(max_age=1.0, clock=lambda: now[0], sweep_trust=2.0)
    recent.heard("game-a", 3)
    assert recent.get("game-a") == 3 and recent.get_while_swept("game-a") is None, "just heard, but never swept"
    recent.swept({}, recent.epoch())
    assert recent.get_while_swept("game-a") == 3
    now[0] = 2.5
    assert recent.get_while_swept("game-a") is None, "the last sweep is too old to vouch for it"
