"""PostgreSQL failover: a primary and a synchronous streaming standby of the
test's own (tests/support/replication.py), DATABASE_URL naming both with
target_session_attrs=read-write; the primary stopped hard (pg_ctl stop -m
immediate), the standby promoted.

What bench/failover.py measures with more load and longer, checked here
on a small scale: the commit-ordered feed goes on from a checkpoint on the
promoted standby; under a deployment run as production runs it (gunicorn,
the worker and its notifier), no accepted move is lost, nothing answers a
5xx but 503, no stream version or notice is lost, the notifier neither
loses nor repeats a notification, no deadline fires twice. And a URL of
standbys only stops each process at start-up with a sentence."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest

from eventstore import NewEvent, PostgresEventStore, migrate
from eventstore.primary import NoPrimary, connect_primary
from tests.support.replication import missing_binaries, replicated_postgres

ROOT = Path(__file__).resolve().parent.parent.parent

pytestmark = pytest.mark.skipif(missing_binaries() is not None, reason=missing_binaries() or "")


def until(condition, seconds: float = 60.0, what: str = "the condition"):
    deadline = time.monotonic() + seconds
    while True:
        try:
            value = condition()
            if value:
                return value
        except psycopg.OperationalError:
            pass
        assert time.monotonic() < deadline, f"waited {seconds:.0f} s for {what}"
        time.sleep(0.05)


def appended(store: PostgresEventStore, stream: str, count: int) -> None:
    for n in range(count):
        store.append(stream, [NewEvent(type="Moved", data={"n": n})], store.stream_version(stream))


def transaction_ids(conn, after: int) -> list[int]:
    return [int(row[0]) for row in conn.execute(
        "select tx_id::text from events where global_position > %s order by tx_id", (after,))]


def test_the_feed_goes_on_from_its_checkpoint_on_a_promoted_standby():
    """Transaction ids (xid8) and positions (a sequence) both come from WAL
    the standby replayed: after the promotion both are past every value the
    old primary handed out, so a reader resuming from its checkpoint reads
    exactly what came after it, once."""
    with replicated_postgres() as pair:
        standby = pair.add_standby()
        migrate(pair.url)
        store = PostgresEventStore.connect(pair.url, max_size=2)
        try:
            appended(store, "game-before", 5)
            checkpoint = store.last_position()
            read_before = [e.event_id for e in store.read_all(after=0)]
            with psycopg.connect(pair.url, autocommit=True) as conn:
                last_tx = max(transaction_ids(conn, 0))
                last_position = conn.execute("select max(global_position) from events").fetchone()[0]
            pair.primary.stop("immediate")
            pair.promote(standby)
            until(lambda: appended(store, "game-after", 1) or True, what="the store to write on the new primary")
            appended(store, "game-after", 4)
            after = store.read_all(after=checkpoint)
            with psycopg.connect(pair.url, autocommit=True) as conn:
                assert conn.info.port == standby.port
                later_tx = transaction_ids(conn, last_position)
        finally:
            store.close()
    assert [(e.stream_id, e.version) for e in after] == [("game-after", v) for v in range(1, 6)]
    assert not set(read_before) & {e.event_id for e in after}
    assert min(later_tx) > last_tx
    assert min(e.global_position for e in after) > last_position


@pytest.fixture(scope="module")
def standbys_only():
    """A URL naming only a standby of a running primary (async: nothing waits on it)."""
    with replicated_postgres() as pair:
        standby = pair.add_standby(synchronous=False)
        migrate(pair.url)
        pair.wait_replayed(standby)
        yield f"postgresql://postgres@{standby.host},{standby.host}/postgres?target_session_attrs=read-write", standby


STANDBYS_ONLY = "names only standbys"


def started(command: list[str], url: str, seconds: float = 60) -> subprocess.CompletedProcess:
    env = {**os.environ, "DATABASE_URL": url, "REDIS_URL": "redis://127.0.0.1:1/0", "PYTHONPATH": str(ROOT)}
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=seconds,
                          stdin=subprocess.DEVNULL)


CLI = [sys.executable, "-m", "api.processes.cli"]
GUNICORN = [sys.executable, "-m", "gunicorn", "-c", "python:api.processes.gunicorn_conf", "-w", "1", "-b", "127.0.0.1:0",
            "api.processes.wsgi:app"]


@pytest.mark.parametrize("command", [CLI + ["migrate"], CLI + ["worker"], CLI + ["notifier"],
                                     CLI + ["serve", "--port", "0"], GUNICORN],
                         ids=["migrate", "worker", "notifier", "serve", "gunicorn"])
def test_a_url_of_standbys_only_stops_a_process_at_start_up_with_a_sentence(standbys_only, command):
    url, _ = standbys_only
    result = started(command, url)
    said = result.stdout + result.stderr
    assert result.returncode != 0
    assert STANDBYS_ONLY in said
    assert "Traceback" not in said


def test_one_standby_alone_is_refused_like_several(standbys_only):
    _, standby = standbys_only
    with pytest.raises(NoPrimary, match="names a standby"):
        connect_primary(standby.url())


def test_several_hosts_without_target_session_attrs_are_refused(standbys_only):
    _, standby = standbys_only
    result = started(CLI + ["migrate"], f"postgresql://postgres@{standby.host},127.0.0.1:1/postgres")
    assert result.returncode != 0
    assert "without target_session_attrs=read-write" in result.stderr
    assert "Traceback" not in result.stderr


def test_an_unreachable_url_is_still_waited_for_not_refused():
    result = started(CLI + ["migrate"], "postgresql://postgres@127.0.0.1:1,127.0.0.1:2/postgres"
                                        "?target_session_attrs=read-write&connect_timeout=2")
    assert result.returncode == 75  # api.processes.cli.UNREACHABLE: gunicorn's master tries again
    assert "PostgreSQL is unreachable" in result.stderr


def test_nothing_accepted_is_lost_when_the_primary_dies_under_load():
    """The deployment of bench/failover.py, on a small scale: three games
    (one played by clients that send a command again, with its
    Idempotency-Key, after a 503), their game and player streams and
    long-polls, two games whose turns end at their deadlines, and a writer
    creating games without pause; the primary dies and the standby is
    promoted in the middle."""
    from bench.failover import (FailoverStack, Writer, deadline_games, deadlines_fired, notifications_by_id,
                                notifier_caught_up, primary_dies)
    from bench.fault_streams import under_streams

    with replicated_postgres() as pair:
        pair.add_standby(synchronous=True)
        stack = FailoverStack(pair, env={"BOARDLOG_SWEEP_SECONDS": "1"}).start()
        try:
            timed = deadline_games(stack, 2)
            writer = Writer(stack.base).start()
            timings: dict = {}
            _, measured, bad = under_streams(stack, "failover", primary_dies(pair, timings), 3, before=4, after=8)
            writer.stop()
            assert notifier_caught_up(stack.url), "the notifier did not reach the end of the feed"
            _, notifications_lost, notifications_repeated = notifications_by_id(stack.url)
            fired, fired_twice = deadlines_fired(stack.url, timed)
            first_write, refused = writer.after(timings["died"])
            writes_not_stored = writer.not_stored(stack.url)
        finally:
            stack.close()
    assert first_write is not None, "no write was accepted after the failover"
    assert not [code for code in refused if code >= 500 and code != 503], refused
    assert writes_not_stored == 0
    assert bad == {"lost": 0, "duplicated": 0, "5xx_not_503": 0, "accepted_not_stored": 0, "failed": 0}, measured
    assert (notifications_lost, notifications_repeated) == (0, 0)
    assert fired > 0 and fired_twice == 0
