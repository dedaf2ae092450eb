"""The event store protocol, checked against the in-memory and the PostgreSQL store."""

from __future__ import annotations

import threading
import time
import uuid

import pytest

from eventstore import (
    ANY,
    NO_STREAM,
    EventIdConflict,
    InvalidAppend,
    NewEvent,
    WrongExpectedVersion,
)
from eventstore.chain import canonical_json, event_document, link_hash
from tests.eventstore.conftest import events, read_feed_until, wakes_up_when_appended


def test_appending_to_a_new_stream_returns_the_new_version(store, stream_id):
    assert store.append(stream_id, events("A", "B", "C"), NO_STREAM) == 3
    assert store.stream_version(stream_id) == 3


def test_read_stream_returns_the_events_in_order_with_their_content(store, stream_id):
    sent = [NewEvent("Moved", {"to": [1, 2], "who": "lind"}, {"actor": "p1"}, schema_version=2),
            NewEvent("Passed", {"note": "élan ✓"})]
    store.append(stream_id, sent, NO_STREAM)
    got = store.read_stream(stream_id)
    assert [event.version for event in got] == [1, 2]
    assert [(e.event_id, e.type, e.data, e.metadata, e.schema_version) for e in got] == [
        (e.event_id, e.type, e.data, e.metadata, e.schema_version) for e in sent]
    assert all(event.stream_id == stream_id for event in got)
    assert got[0].recorded_at.tzinfo is not None
    assert got[0].global_position < got[1].global_position


def test_read_stream_without_metadata_gives_everything_else_of_each_event(store, stream_id):
    sent = [NewEvent("Moved", {"to": [1, 2]}, {"actor": "p1", "salt": "ab" * 32}), NewEvent("Passed", {})]
    store.append(stream_id, sent, NO_STREAM)
    full, lean = store.read_stream(stream_id), store.read_stream(stream_id, 2, metadata=False)
    assert [e.metadata for e in lean] == [{}]
    assert [(e.version, e.event_id, e.type, e.data, e.schema_version, e.hash, e.global_position) for e in lean] == [
        (e.version, e.event_id, e.type, e.data, e.schema_version, e.hash, e.global_position) for e in full[1:]]


def test_read_stream_honours_from_and_to_versions(store, stream_id):
    store.append(stream_id, events(*"ABCDE"), NO_STREAM)
    assert [e.version for e in store.read_stream(stream_id, 2, 4)] == [2, 3, 4]
    assert [e.version for e in store.read_stream(stream_id, from_version=4)] == [4, 5]
    assert store.read_stream(stream_id, 6) == []
    assert store.read_stream(stream_id, 3, 2) == []


def test_read_tail_gives_the_events_after_a_version_to_the_end_without_their_metadata(store, stream_id):
    store.append(stream_id, [NewEvent(kind, {"n": n}, {"actor": "p1"}) for n, kind in enumerate("ABC")], NO_STREAM)
    assert [(e.version, e.type, e.data, e.metadata) for e in store.read_tail(stream_id, 1)] == [
        (2, "B", {"n": 1}, {}), (3, "C", {"n": 2}, {})]
    assert store.read_tail(stream_id, 3) == []
    assert [e.version for e in store.read_tail(stream_id, 0)] == [1, 2, 3]


def test_an_unknown_stream_reads_empty_at_version_zero(store, stream_id):
    assert store.read_stream(stream_id) == []
    assert store.stream_version(stream_id) == 0
    assert store.verify(stream_id).ok


def test_an_exact_expected_version_appends_after_it(store, stream_id):
    store.append(stream_id, events("A"), NO_STREAM)
    assert store.append(stream_id, events("B", "C"), 1) == 3


def test_zero_means_the_same_as_no_stream(store, stream_id):
    assert store.append(stream_id, events("A"), 0) == 1
    with pytest.raises(WrongExpectedVersion):
        store.append(stream_id, events("B"), 0)


def test_a_stale_expected_version_raises_a_conflict_with_the_actual_version(store, stream_id):
    store.append(stream_id, events("A", "B"), NO_STREAM)
    with pytest.raises(WrongExpectedVersion) as raised:
        store.append(stream_id, events("C"), 1)
    assert (raised.value.stream_id, raised.value.expected, raised.value.actual) == (
        stream_id, 1, 2)
    assert store.stream_version(stream_id) == 2


def test_no_stream_on_an_existing_stream_raises_a_conflict(store, stream_id):
    store.append(stream_id, events("A"), NO_STREAM)
    with pytest.raises(WrongExpectedVersion) as raised:
        store.append(stream_id, events("B"), NO_STREAM)
    assert raised.value.actual == 1 and raised.value.expected is NO_STREAM


def test_an_expected_version_ahead_of_an_unknown_stream_raises_a_conflict(store, stream_id):
    with pytest.raises(WrongExpectedVersion) as raised:
        store.append(stream_id, events("A"), 3)
    assert raised.value.actual == 0
    assert store.read_stream(stream_id) == []


def test_any_appends_wherever_the_stream_is(store, stream_id):
    assert store.append(stream_id, events("A"), ANY) == 1
    assert store.append(stream_id, events("B", "C"), ANY) == 3


def test_a_conflicting_append_writes_none_of_its_events(store, stream_id):
    store.append(stream_id, events("A"), NO_STREAM)
    with pytest.raises(WrongExpectedVersion):
        store.append(stream_id, events("B", "C", "D"), NO_STREAM)
    assert [e.type for e in store.read_stream(stream_id)] == ["A"]


def test_one_bad_event_refuses_the_whole_append_before_any_write(store, stream_id):
    batch = events("A", "B") + [NewEvent("C", {"when": object()})]
    with pytest.raises(InvalidAppend):
        store.append(stream_id, batch, NO_STREAM)
    assert store.read_stream(stream_id) == []


def test_re_appending_the_same_events_at_the_same_place_succeeds_without_writing(
        store, stream_id):
    batch = events("A", "B")
    assert store.append(stream_id, batch, NO_STREAM) == 2
    assert store.append(stream_id, batch, NO_STREAM) == 2
    assert store.append(stream_id, batch, ANY) == 2
    assert len(store.read_stream(stream_id)) == 2
    later = events("C")
    assert store.append(stream_id, later, 2) == 3
    assert store.append(stream_id, later, 2) == 3
    assert store.stream_version(stream_id) == 3


def test_re_appending_the_same_events_with_a_wrong_expected_version_is_a_conflict(
        store, stream_id):
    batch = events("A")
    store.append(stream_id, batch, NO_STREAM)
    store.append(stream_id, events("B"), 1)
    with pytest.raises(WrongExpectedVersion) as raised:
        store.append(stream_id, batch, 1)
    assert raised.value.actual == 2


def test_the_same_event_id_with_other_content_fails_loudly(store, stream_id):
    first = NewEvent("A", {"x": 1})
    store.append(stream_id, [first], NO_STREAM)
    changed = NewEvent("A", {"x": 2}, event_id=first.event_id)
    with pytest.raises(EventIdConflict, match="other content"):
        store.append(stream_id, [changed], NO_STREAM)
    with pytest.raises(EventIdConflict):
        store.append(stream_id, [changed], ANY)
    assert store.read_stream(stream_id)[0].data == {"x": 1}


def test_the_same_event_id_in_another_stream_fails_loudly(store, stream_id):
    event = NewEvent("A", {"x": 1})
    store.append(stream_id, [event], NO_STREAM)
    with pytest.raises(EventIdConflict, match="another stream|in stream"):
        store.append(stream_id + "-other", [event], ANY)
    assert store.read_stream(stream_id + "-other") == []


def test_a_batch_mixing_stored_and_new_event_ids_fails_loudly(store, stream_id):
    stored = NewEvent("A", {})
    store.append(stream_id, [stored], NO_STREAM)
    with pytest.raises(EventIdConflict, match="partly"):
        store.append(stream_id, [stored, NewEvent("B", {})], ANY)
    assert store.stream_version(stream_id) == 1
    with pytest.raises(EventIdConflict):
        store.append(stream_id, [NewEvent("C", {}), stored], ANY)
    assert [e.type for e in store.read_stream(stream_id)] == ["A"]


@pytest.mark.parametrize("expected", [-1, -5, True, "1", 1.0, None, object()])
def test_a_negative_or_unknown_expected_version_is_a_clear_error(store, stream_id, expected):
    with pytest.raises(InvalidAppend, match="expected_version"):
        store.append(stream_id, events("A"), expected)
    assert store.read_stream(stream_id) == []


def test_an_event_over_one_mebibyte_of_json_is_refused_before_any_write(store, stream_id):
    big = NewEvent("Big", {"blob": "x" * (1024 * 1024)})
    with pytest.raises(InvalidAppend, match="1 MiB"):
        store.append(stream_id, events("A") + [big], NO_STREAM)
    assert store.stream_version(stream_id) == 0


@pytest.mark.parametrize("data", [{"x": {1, 2}}, {"x": b"bytes"}, {"x": float("nan")},
                                  {"x": 1e300}, {"x": "nul\x00"}])
def test_an_event_that_is_not_storable_json_is_refused_before_any_write(store, stream_id, data):
    with pytest.raises(InvalidAppend):
        store.append(stream_id, [NewEvent("A", data)], NO_STREAM)
    assert store.stream_version(stream_id) == 0


@pytest.mark.parametrize("bad_stream_id", ["", None, 7, "x" * 201])
def test_a_bad_stream_id_is_refused(store, bad_stream_id):
    with pytest.raises(InvalidAppend, match="stream_id"):
        store.append(bad_stream_id, events("A"), ANY)


def test_an_empty_append_checks_the_version_and_writes_nothing(store, stream_id):
    assert store.append(stream_id, [], NO_STREAM) == 0
    store.append(stream_id, events("A"), NO_STREAM)
    assert store.append(stream_id, [], 1) == 1
    with pytest.raises(WrongExpectedVersion):
        store.append(stream_id, [], 0)


def test_stream_ids_with_quotes_and_colons_are_just_text(store):
    odd = f"game-'; drop table events; --:{uuid.uuid4()}"
    assert store.append(odd, events("A"), NO_STREAM) == 1
    assert store.read_stream(odd)[0].stream_id == odd


def test_each_event_hash_links_to_the_previous_one(store, stream_id):
    store.append(stream_id, events("A", "B"), NO_STREAM)
    store.append(stream_id, events("C"), 2)
    previous = None
    for event in store.read_stream(stream_id):
        assert event.hash == link_hash(previous, canonical_json(event_document(event)))
        previous = event.hash
    result = store.verify(stream_id)
    assert (result.ok, result.checked, result.broken_at, result.reason) == (True, 3, None, None)


def test_the_same_events_hash_the_same_in_any_store(store):
    stream_id = "test-fixed-hash-" + uuid.uuid4().hex
    event_id = uuid.UUID("00000000-0000-4000-8000-000000000001")
    store.append(stream_id, [NewEvent("A", {"k": [1, "ü"]}, event_id=event_id)], NO_STREAM)
    document = canonical_json({"data": {"k": [1, "ü"]}, "event_id": str(event_id),
                               "metadata": {}, "schema_version": 1, "stream_id": stream_id,
                               "type": "A", "version": 1})
    assert store.read_stream(stream_id)[0].hash == link_hash(None, document)


def test_returned_data_can_be_changed_without_changing_the_stored_events(store, stream_id):
    data = {"cards": [1, 2]}
    store.append(stream_id, [NewEvent("Dealt", data)], NO_STREAM)
    data["cards"].append(3)
    store.read_stream(stream_id)[0].data["cards"].append(4)
    assert store.read_stream(stream_id)[0].data == {"cards": [1, 2]}


def test_a_snapshot_is_loaded_for_its_own_schema_version_only(store, stream_id):
    store.append(stream_id, events("A", "B"), NO_STREAM)
    store.save_snapshot(stream_id, 2, schema_version=3, state=b"state-v3")
    snapshot = store.load_snapshot(stream_id, 3)
    assert (snapshot.version, snapshot.schema_version, snapshot.state) == (2, 3, b"state-v3")
    assert store.load_snapshot(stream_id, 4) is None
    assert store.load_snapshot(stream_id + "-none", 3) is None


def test_a_snapshot_keeps_the_newest_version(store, stream_id):
    store.append(stream_id, events(*"ABCD"), NO_STREAM)
    store.save_snapshot(stream_id, 3, 1, b"three")
    store.save_snapshot(stream_id, 2, 1, b"two")
    assert store.load_snapshot(stream_id, 1).state == b"three"
    store.save_snapshot(stream_id, 4, 1, b"four")
    assert store.load_snapshot(stream_id, 1).state == b"four"


def test_the_global_feed_has_every_appended_event_once_in_append_order(store):
    streams = [f"test-feed-{uuid.uuid4()}" for _ in range(3)]
    for round_ in range(3):
        for stream in streams:
            store.append(stream, events(f"E{round_}"), ANY)
    seen, _ = read_feed_until(store, streams, 9)
    assert len(seen) == 9
    assert len({event.event_id for event in seen}) == 9
    for stream in streams:
        assert [e.type for e in seen if e.stream_id == stream] == ["E0", "E1", "E2"]


def test_the_global_feed_resumes_from_a_checkpoint_without_repeating(store):
    stream = f"test-feed-{uuid.uuid4()}"
    store.append(stream, events("A", "B"), NO_STREAM)
    first, checkpoint = read_feed_until(store, [stream], 2)
    store.append(stream, events("C"), 2)
    second, _ = read_feed_until(store, [stream], 1, after=checkpoint)
    assert [e.type for e in first] == ["A", "B"]
    assert [e.type for e in second] == ["C"]


def test_the_global_feed_pages_by_limit(store):
    stream = f"test-feed-{uuid.uuid4()}"
    store.append(stream, events(*"ABCDE"), NO_STREAM)
    _, checkpoint = read_feed_until(store, [stream], 5)
    everything = []
    after = 0
    while True:
        page = store.read_all(after=after, limit=2)
        if not page:
            break
        assert len(page) <= 2
        everything.extend(page)
        after = page[-1].global_position
    assert [e.type for e in everything if e.stream_id == stream] == list("ABCDE")


def _read_some_until(store, streams, count, after, limit=1000, timeout=30.0):
    """Like read_feed_until, for read_all_of: the feed lags while other
    transactions on the (shared) server are open."""
    deadline = time.monotonic() + timeout
    seen = []
    while len(seen) < count and time.monotonic() < deadline:
        page = store.read_all_of(streams, after=after, limit=limit)
        if not page:
            time.sleep(0.02)
            continue
        seen.extend(page)
        after = page[-1].global_position
        if len(page) == limit:
            break
    return seen


def test_the_feed_of_some_streams_gives_theirs_only_from_a_position_on(store):
    mine, other = f"test-mine-{uuid.uuid4()}", f"test-other-{uuid.uuid4()}"
    store.append(mine, events("A"), NO_STREAM)
    read_feed_until(store, [mine], 1)
    start = store.last_position()
    store.append(other, events("X"), NO_STREAM)
    store.append(mine, events("B", "C"), 1)
    page = _read_some_until(store, [mine, f"test-none-{uuid.uuid4()}"], 1, start, limit=1)
    assert [e.type for e in page] == ["B"]
    rest = _read_some_until(store, [mine], 1, page[-1].global_position)
    assert [e.type for e in rest] == ["C"]
    assert store.last_position() >= rest[-1].global_position


def test_wait_for_version_returns_as_soon_as_another_thread_appends(store, stream_id):
    store.append(stream_id, events("A"), NO_STREAM)
    assert wakes_up_when_appended(store, stream_id)


def test_wait_for_version_returns_at_once_when_the_stream_is_already_past(store, stream_id):
    store.append(stream_id, events("A", "B"), NO_STREAM)
    assert store.wait_for_version(stream_id, 1, timeout=30) == 2


def test_wait_for_version_returns_the_current_version_after_the_timeout(store, stream_id):
    store.append(stream_id, events("A"), NO_STREAM)
    assert store.wait_for_version(stream_id, 1, timeout=0.2) == 1
    assert store.wait_for_version(stream_id + "-none", 0, timeout=0.1) == 0


def test_many_threads_can_wait_on_many_streams_at_once(store):
    streams = [f"test-wait-{uuid.uuid4()}" for _ in range(5)]
    results: dict[tuple[str, int], int] = {}
    lock = threading.Lock()

    def wait(stream, index):
        version = store.wait_for_version(stream, 0, timeout=30)
        with lock:
            results[(stream, index)] = version

    threads = [threading.Thread(target=wait, args=(stream, index))
               for stream in streams for index in range(8)]
    for thread in threads:
        thread.start()
    for stream in streams:
        store.append(stream, events("A"), NO_STREAM)
    for thread in threads:
        thread.join(timeout=30)
    assert len(results) == 40 and set(results.values()) == {1}
