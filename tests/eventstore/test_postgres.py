"""What only the PostgreSQL store can show: transactions, triggers, tampering, NOTIFY."""

from __future__ import annotations

import threading
import time
import uuid

import psycopg
import pytest

from eventstore import ANY, NO_STREAM, NewEvent, PostgresEventStore, WrongExpectedVersion
from tests.eventstore.conftest import events, read_feed_until, wakes_up_when_appended


def test_append_inside_the_callers_transaction_commits_with_it(event_store, database_url,
                                                                stream_id):
    with psycopg.connect(database_url) as conn:
        assert event_store.append(stream_id, events("A"), NO_STREAM, conn=conn) == 1
        conn.execute("select 1")  # the caller's own writes would go here
        assert event_store.stream_version(stream_id) == 0  # not committed yet
        assert event_store.stream_version(stream_id, conn=conn) == 1
        assert len(event_store.read_stream(stream_id, conn=conn)) == 1
        conn.commit()
    assert event_store.stream_version(stream_id) == 1


def test_append_inside_a_rolled_back_transaction_leaves_nothing(event_store, database_url,
                                                                 stream_id):
    with psycopg.connect(database_url) as conn:
        event_store.append(stream_id, events("A", "B"), NO_STREAM, conn=conn)
        event_store.save_snapshot(stream_id, 2, 1, b"s", conn=conn)
        conn.rollback()
    assert event_store.read_stream(stream_id) == []
    assert event_store.load_snapshot(stream_id, 1) is None


def test_waiters_hear_of_an_append_in_a_callers_transaction_only_once_it_commits(
        event_store, stream_id):
    event_store.append(stream_id, events("A"), NO_STREAM)
    with event_store.pool.connection() as conn:  # autocommit, with an explicit transaction
        with conn.transaction():
            event_store.append(stream_id, events("B"), 1, conn=conn)
            assert event_store.wait_for_version(stream_id, 1, timeout=0.5) == 1
        assert event_store.wait_for_version(stream_id, 1, timeout=30) == 2


def test_a_caller_can_announce_its_append_itself_after_its_commit(event_store, database_url,
                                                                   stream_id):
    with psycopg.connect(database_url, autocommit=True) as listener:
        listener.execute("listen boardlog_events")
        with event_store.pool.connection() as conn:
            with conn.transaction():
                event_store.append(stream_id, events("A"), NO_STREAM, conn=conn,
                                   announce_later=True)
        heard = [n.payload for n in listener.notifies(timeout=0.3)]
        assert f"{stream_id}:1" not in heard
        event_store.announce(stream_id, 1)
        assert _next_payload_for(listener, stream_id) == f"{stream_id}:1"


def test_two_appends_racing_on_one_stream_let_exactly_one_win(event_store, database_url,
                                                               stream_id):
    event_store.append(stream_id, events("A"), NO_STREAM)
    with psycopg.connect(database_url) as first:
        event_store.append(stream_id, events("B"), 1, conn=first)
        outcome = []

        def second():
            try:
                outcome.append(event_store.append(stream_id, events("C"), 1))
            except WrongExpectedVersion as conflict:
                outcome.append(conflict.actual)

        racer = threading.Thread(target=second)
        racer.start()  # blocks on the stream row until `first` commits
        racer.join(timeout=0.3)
        first.commit()
        racer.join(timeout=30)
    assert outcome == [2]
    assert [e.type for e in event_store.read_stream(stream_id)] == ["A", "B"]


@pytest.mark.parametrize("statement", [
    "update events set type = 'X' where stream_id = %s",
    "delete from events where stream_id = %s",
    "truncate events",
])
def test_events_cannot_be_updated_deleted_or_truncated(event_store, database_url, stream_id,
                                                        statement):
    event_store.append(stream_id, events("A"), NO_STREAM)
    with psycopg.connect(database_url) as conn:
        with pytest.raises(psycopg.errors.RestrictViolation, match="immutable"):
            conn.execute(statement, (stream_id,) if "%s" in statement else None)
    assert [e.type for e in event_store.read_stream(stream_id)] == ["A"]


def _tamper(database_url, statement, params):
    """Change rows behind the store's back, as a superuser with triggers off."""
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("set session_replication_role = replica")
        conn.execute(statement, params)


def test_verify_names_the_first_event_whose_content_was_tampered_with(event_store,
                                                                       database_url, stream_id):
    event_store.append(stream_id, events(*"ABCDE"), NO_STREAM)
    _tamper(database_url, "update events set data = jsonb_set(data, '{n}', '99')"
            " where stream_id = %s and version in (3, 4)", (stream_id,))
    result = event_store.verify(stream_id)
    assert (result.ok, result.broken_at, result.checked) == (False, 3, 2)
    assert "version 3" in result.reason


def test_verify_catches_events_cut_off_the_end_of_a_stream(event_store, database_url,
                                                           stream_id):
    event_store.append(stream_id, events(*"ABC"), NO_STREAM)
    _tamper(database_url, "delete from events where stream_id = %s and version = 3",
            (stream_id,))
    result = event_store.verify(stream_id)
    assert (result.ok, result.broken_at) == (False, 3)


def test_verify_catches_a_missing_event_in_the_middle(event_store, database_url, stream_id):
    event_store.append(stream_id, events(*"ABC"), NO_STREAM)
    _tamper(database_url, "delete from events where stream_id = %s and version = 2",
            (stream_id,))
    result = event_store.verify(stream_id)
    assert (result.ok, result.broken_at) == (False, 2)
    assert "missing" in result.reason


def test_an_append_notifies_the_channel_with_stream_and_version(event_store, database_url,
                                                                stream_id):
    with psycopg.connect(database_url, autocommit=True) as listener:
        listener.execute("listen boardlog_events")
        event_store.append(stream_id, events("A", "B"), NO_STREAM)
        payload = _next_payload_for(listener, stream_id)
    assert payload == f"{stream_id}:2"


def test_the_feed_holds_back_a_commit_while_an_earlier_transaction_is_open(
        event_store, database_url):
    slow, fast = f"test-slow-{uuid.uuid4()}", f"test-fast-{uuid.uuid4()}"
    before = _drain(event_store, 0)
    with psycopg.connect(database_url) as transaction_a:
        event_store.append(slow, events("A"), NO_STREAM, conn=transaction_a)  # open, lower xid
        event_store.append(fast, events("B"), NO_STREAM)  # commits now, later position
        page = event_store.read_all(after=before, limit=1000)
        assert [e for e in page if e.stream_id in (slow, fast)] == []
        transaction_a.commit()
    seen, _ = read_feed_until(event_store, [slow, fast], 2, after=before)
    assert [e.stream_id for e in seen] == [slow, fast]


def test_the_feed_never_skips_an_event_whose_position_is_below_one_already_read(
        event_store, database_url):
    """T takes its xid first, X inserts first (lower position), T commits, the reader
    passes T's position, and only then X commits: X's event must still come."""
    early_xid, late_xid = f"test-t-{uuid.uuid4()}", f"test-x-{uuid.uuid4()}"
    before = _drain(event_store, 0)
    with psycopg.connect(database_url) as t, psycopg.connect(database_url) as x:
        t.execute("select pg_current_xact_id()")
        x.execute("select pg_current_xact_id()")
        event_store.append(late_xid, events("X"), NO_STREAM, conn=x)
        event_store.append(early_xid, events("T"), NO_STREAM, conn=t)
        t.commit()
        first, checkpoint = read_feed_until(event_store, [early_xid], 1, after=before)
        assert [e.stream_id for e in first] == [early_xid]
        x_event = event_store.read_stream(late_xid, conn=x)[0]
        assert x_event.global_position < first[0].global_position
        x.commit()
    second, _ = read_feed_until(event_store, [late_xid], 1, after=checkpoint)
    assert [e.event_id for e in second] == [x_event.event_id]


def test_a_reader_sees_every_event_of_many_concurrent_writers_exactly_once(event_store):
    writers, per_writer = 8, 40
    streams = [f"test-many-{uuid.uuid4()}" for _ in range(writers)]
    start = _drain(event_store, 0)
    done = threading.Event()
    seen = []

    def write(stream):
        for index in range(per_writer):
            event_store.append(stream, [NewEvent("E", {"i": index})], ANY)

    def read():
        after = start
        wanted = set(streams)
        give_up = time.monotonic() + 60
        while time.monotonic() < give_up:
            finished = done.is_set()
            page = event_store.read_all(after=after, limit=50)
            seen.extend(e for e in page if e.stream_id in wanted)
            if page:
                after = page[-1].global_position
            elif finished and len(seen) >= writers * per_writer:
                return
            else:
                time.sleep(0.005)

    reader = threading.Thread(target=read)
    reader.start()
    threads = [threading.Thread(target=write, args=(stream,)) for stream in streams]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    done.set()
    reader.join(timeout=60)
    assert not reader.is_alive()
    ids = [e.event_id for e in seen]
    assert len(ids) == writers * per_writer and len(set(ids)) == len(ids)
    for stream in streams:
        assert [e.data["i"] for e in seen if e.stream_id == stream] == list(range(per_writer))


def _next_payload_for(listener, stream_id):
    while True:
        batch = list(listener.notifies(timeout=10, stop_after=1))
        assert batch, "no notification arrived"
        if batch[0].payload.startswith(stream_id + ":"):
            return batch[0].payload


def _drain(store, after):
    """The checkpoint at the end of the feed as it is now."""
    while True:
        page = store.read_all(after=after, limit=1000)
        if not page:
            return after
        after = page[-1].global_position


def _terminate_backends_running(database_url, *query_starts):
    with psycopg.connect(database_url, autocommit=True) as admin:
        return admin.execute(
            "select count(pg_terminate_backend(pid)) from pg_stat_activity"
            " where datname = current_database() and pid <> pg_backend_pid()"
            " and query ilike any(%s)", ([start + "%" for start in query_starts],)).fetchone()[0]


def test_waiting_survives_the_listen_connection_being_cut(database_url, stream_id):
    store = PostgresEventStore.connect(database_url, max_size=4)
    try:
        store.append(stream_id, events("A"), NO_STREAM)
        assert store.wait_for_version(stream_id, 0, timeout=30) == 1  # listening now
        # The LISTEN connection's last statement is its LISTEN or its sweep of the feed.
        assert _terminate_backends_running(database_url, "listen boardlog_events", "select stream_id, version, tx_id") >= 1
        assert wakes_up_when_appended(store, stream_id)
    finally:
        store.close()


def test_a_notification_is_not_lost_when_the_idle_notifier_connection_was_cut(database_url,
                                                                       stream_id):
    store = PostgresEventStore.connect(database_url, max_size=4)
    try:
        with psycopg.connect(database_url, autocommit=True) as listener:
            listener.execute("listen boardlog_events")
            store.append(stream_id, events("A"), NO_STREAM)
            assert _next_payload_for(listener, stream_id) == f"{stream_id}:1"
            assert _terminate_backends_running(database_url, "select pg_notify") >= 1
            store.append(stream_id, events("B"), 1)
            assert _next_payload_for(listener, stream_id) == f"{stream_id}:2"
    finally:
        store.close()


def test_a_poll_learns_of_a_commit_whose_notification_was_lost_within_a_sweep(database_url, stream_id):
    store = PostgresEventStore.connect(database_url, max_size=4)
    other = PostgresEventStore.connect(database_url, max_size=2)
    try:
        store.append(stream_id, events("A"), NO_STREAM)
        assert store.wait_for_version(stream_id, 0, timeout=30) == 1  # listening, and the version is known
        assert store.recent_version(stream_id) == 1
        store.recent.max_age = 3600  # so that only a sweep, not an expiry and a read, can tell it
        # Another process commits and dies before its NOTIFY: nothing is announced.
        other.append(stream_id, events("B"), 1, announce_later=True)
        deadline = time.monotonic() + 10
        while store.recent_version(stream_id) != 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert store.recent_version(stream_id) == 2
    finally:
        other.close()
        store.close()


def test_a_read_of_a_streams_tail_makes_its_version_known_before_its_notification(database_url, stream_id,
                                                                                     monkeypatch):
    store = PostgresEventStore.connect(database_url, max_size=4)
    other = PostgresEventStore.connect(database_url, max_size=2)
    try:
        store.append(stream_id, events("A"), NO_STREAM)
        assert store.wait_for_version(stream_id, 0, timeout=30) == 1  # listening, and the version is known
        # Nothing heard or swept from now on: only the read can tell this process of the commit.
        monkeypatch.setattr(store.recent, "heard", lambda stream, version: None)
        monkeypatch.setattr(store.recent, "swept", lambda moved, epoch: None)
        other.append(stream_id, events("B", "C"), 1)
        assert store.known_version(stream_id) == 1
        tail = store.read_tail(stream_id, 1)
        assert [(e.version, e.type, e.metadata) for e in tail] == [(2, "B", {}), (3, "C", {})]
        assert store.known_version(stream_id) == 3
        assert store.read_tail(stream_id, 3) == [] and store.known_version(stream_id) == 3
    finally:
        other.close()
        store.close()
