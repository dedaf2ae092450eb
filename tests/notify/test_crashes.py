"""Crashes lose nothing: notifiers in processes of their own, SIGKILLed
mid-batch, two at once, PostgreSQL restarted under them (a private server),
Redis flushed under the worker that runs one."""

from __future__ import annotations

import collections
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest

from workers.notify.derive import derive

from .conftest import every_record, started_game, wait_until
from tests.support.seeds import TEST_SEEDS

ROOT = Path(__file__).resolve().parents[2]


class NotifierProcess:
    def __init__(self, url: str, log: Path, **env):
        self.log = open(log, "ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "api.processes.cli", "notifier"], cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT,
            env={**os.environ, "DATABASE_URL": url, "BOARDLOG_WEBHOOK_ALLOW_PRIVATE": "1",
                 "BOARDLOG_NOTIFY_BACKOFF": "0.2", "BOARDLOG_NOTIFY_CLAIM_SECONDS": "2", **env})

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.kill()
        self.log.close()
        return self.process.returncode


@pytest.fixture
def processes(tmp_path):
    started = []

    def start(url, **env):
        process = NotifierProcess(url, tmp_path / f"notifier-{len(started)}.log", **env)
        started.append(process)
        return process

    yield start
    for process in started:
        process.stop()


def expected(store, url) -> set[str]:
    """Every notification the whole feed gives, derived here in one go."""
    with psycopg.connect(url) as conn:
        names = dict(conn.execute("select id::text, game from games").fetchall())
    return {n.id for n in derive(every_record(store), names)}


def stored(url, sql="select id from notifications") -> set[str]:
    with psycopg.connect(url) as conn:
        return {row[0] for row in conn.execute(sql).fetchall()}


def webhook_for_everyone(url, players, receiver) -> None:
    import uuid

    with psycopg.connect(url) as conn:
        for player in players:
            conn.execute("insert into webhooks (id, player_id, url, kinds, secret) values (%s, %s, %s, %s, %s)",
                         (uuid.uuid4(), player, receiver.url, ["turn", "started", "joined"], "whsec_" + "A" * 32))


def test_a_notifier_sigkilled_mid_batch_loses_nothing_and_the_next_one_finishes(
        fresh_url, store, game_service, receiver, processes):
    players = [game_service.players.register(f"k{i}")[0] for i in range(4)]
    webhook_for_everyone(fresh_url, players, receiver)
    for n in range(25):
        started_game(game_service, players[n % 2:n % 2 + 3])
    want = expected(store, fresh_url)
    first = processes(fresh_url, BOARDLOG_NOTIFY_BATCH="7")
    wait_until(lambda: stored(fresh_url), what="the first batch", every=0.01)
    first.kill()
    assert stored(fresh_url) < want, "killed mid-way (else this test proves nothing)"
    processes(fresh_url, BOARDLOG_NOTIFY_BATCH="7")
    wait_until(lambda: stored(fresh_url) == want, what="every notification")
    wanted = stored(fresh_url, "select notification_id from deliveries")
    wait_until(lambda: {r["headers"]["webhook-id"] for r in list(receiver.received)} >= wanted,
               what="every delivery at the receiver")
    # One the killed notifier sent but did not record is sent again once its claim expires.
    assert wanted and wait_until(
        lambda: stored(fresh_url, "select notification_id from deliveries where status <> 'delivered'") == set(),
        what="every delivery recorded as delivered")


def test_two_notifiers_share_the_work_and_send_nothing_twice(fresh_url, store, game_service, receiver, processes):
    players = [game_service.players.register(f"k{i}")[0] for i in range(3)]
    webhook_for_everyone(fresh_url, players, receiver)
    # Claims as long as in production (not the 2 s the crash tests use to resend
    # soon), so that a delivery slowed by a loaded machine is not taken as abandoned.
    one, two = (processes(fresh_url, BOARDLOG_NOTIFY_CLAIM_SECONDS="120") for _ in range(2))
    for n in range(15):
        started_game(game_service, players[: 2 + n % 2])
    want = expected(store, fresh_url)
    wait_until(lambda: stored(fresh_url) == want, what="every notification")
    wanted = stored(fresh_url, "select notification_id from deliveries")
    wait_until(lambda: {r["headers"]["webhook-id"] for r in list(receiver.received)} >= wanted, what="deliveries")
    counts = collections.Counter(r["headers"]["webhook-id"] for r in receiver.received)
    assert max(counts.values()) == 1, "no delivery twice while nothing crashed"
    assert one.process.poll() is None and two.process.poll() is None


def test_redis_flushed_under_a_worker_changes_nothing_for_the_notifier_it_runs(
        fresh_url, store, game_service, receiver, redis_url, tmp_path):
    from redis import Redis

    players = [game_service.players.register(f"k{i}")[0] for i in range(2)]
    webhook_for_everyone(fresh_url, players, receiver)
    log = open(tmp_path / "worker.log", "ab")
    worker = subprocess.Popen(
        [sys.executable, "-m", "api.processes.cli", "worker"], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
        env={**os.environ, "DATABASE_URL": fresh_url, "REDIS_URL": redis_url, "BOARDLOG_WEBHOOK_ALLOW_PRIVATE": "1"},
        start_new_session=True)
    try:
        started_game(game_service, players)
        wait_until(lambda: receiver.received, what="a delivery through the worker's notifier")
        Redis.from_url(redis_url).flushdb()
        game_id = started_game(game_service, list(reversed(players)))
        wait_until(lambda: any(str(game_id) in r["body"].decode() for r in list(receiver.received)),
                   what="a delivery after the flush")
    finally:
        worker.send_signal(signal.SIGTERM)
        worker.wait(60)
        log.close()
    assert worker.returncode == 0


def test_postgresql_restarted_under_a_notifier_loses_nothing(tmp_path, receiver, processes):
    """A private PostgreSQL (the embedded one), stopped and started again
    while a notifier follows it."""
    import tempfile

    from api.service.games import GameService
    from eventstore import PostgresEventStore, migrate
    from eventstore.embedded import EmbeddedPostgres

    folder = Path(tempfile.mkdtemp(prefix="boardlog-notify-pg-"))
    folder.chmod(0o755)
    server = EmbeddedPostgres(folder / "pgdata", settings={"fsync": "off"})
    try:
        url = server.start()
        migrate(url)
        store = PostgresEventStore.connect(url, min_size=1, max_size=2)
        service = GameService(store, seeds=TEST_SEEDS)
        players = [service.players.register(f"r{i}")[0] for i in range(2)]
        webhook_for_everyone(url, players, receiver)
        processes(url)
        started_game(service, players)
        wait_until(lambda: receiver.received, what="a delivery before the restart")
        store.close()
        server.stop()  # PostgreSQL stops: every connection of the notifier breaks
        time.sleep(1)
        url = server.start()
        store = PostgresEventStore.connect(url, min_size=1, max_size=2)
        service = GameService(store, seeds=TEST_SEEDS)
        game_id = started_game(service, list(reversed(players)))
        want = expected(store, url)
        wait_until(lambda: stored(url) == want, timeout=60, what="every notification after the restart")
        wait_until(lambda: any(str(game_id) in r["body"].decode() for r in list(receiver.received)), timeout=30,
                   what="a delivery after the restart")
        store.close()
    finally:
        server.stop()
        import shutil

        shutil.rmtree(folder, ignore_errors=True)


def test_a_notifier_started_alone_while_postgresql_is_down_waits_for_it_and_then_delivers(
        tmp_path, receiver, processes):
    """As the worker waits for Redis: nothing answers at the notifier's
    DATABASE_URL when it starts (a private PostgreSQL, not created yet);
    it retries instead of exiting, and once the server is up it migrates and
    delivers."""
    import shutil
    import tempfile

    from api.service.games import GameService
    from eventstore import PostgresEventStore
    from eventstore.embedded import EmbeddedPostgres

    folder = Path(tempfile.mkdtemp(prefix="boardlog-notify-pg-"))
    folder.chmod(0o755)
    pgdata = (folder / "pgdata").resolve()
    down_url = f"postgresql://postgres@/postgres?host={pgdata}"  # where the server will listen, once started
    server = EmbeddedPostgres(pgdata, settings={"fsync": "off"})
    try:
        notifier = processes(down_url)
        log = tmp_path / "notifier-0.log"
        wait_until(lambda: log.read_text(errors="replace").count("PostgreSQL unavailable") >= 3, timeout=30,
                   what="the notifier retrying while PostgreSQL is down")
        assert notifier.process.poll() is None, "the notifier waits for PostgreSQL rather than exiting"
        assert server.start() == down_url
        wait_until(lambda: "notifier (pid" in log.read_text(errors="replace"), timeout=60,
                   what="the notifier started once PostgreSQL answers (its migrations applied)")
        store = PostgresEventStore.connect(down_url, min_size=1, max_size=2)
        try:
            service = GameService(store, seeds=TEST_SEEDS)
            players = [service.players.register(f"d{i}")[0] for i in range(2)]
            webhook_for_everyone(down_url, players, receiver)
            game_id = started_game(service, players)
            wait_until(lambda: any(str(game_id) in r["body"].decode() for r in list(receiver.received)), timeout=30,
                       what="a delivery by the notifier that waited")
        finally:
            store.close()
        assert notifier.stop() == 0
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def test_a_notifier_waiting_for_postgresql_stops_at_once_when_asked(tmp_path, processes):
    notifier = processes(f"postgresql://postgres@/postgres?host={tmp_path / 'no-server-here'}")
    log = tmp_path / "notifier-0.log"
    wait_until(lambda: "PostgreSQL unavailable" in log.read_text(errors="replace"), timeout=30,
               what="the notifier waiting for PostgreSQL")
    began = time.monotonic()
    assert notifier.stop() == 0
    assert time.monotonic() - began < 5


def test_the_operator_lists_dead_letters_of_every_channel_and_queues_them_again(fresh_url, game_service):
    import uuid

    player = game_service.players.register("dead")[0]
    env = {**os.environ, "DATABASE_URL": fresh_url}
    with psycopg.connect(fresh_url, autocommit=True) as conn:
        conn.execute("insert into notifications (id, position, player_id, game_id, kind, version, payload, event_at)"
                     " values ('n1-x-turn', 1, %s, %s, 'turn', 3, '{}', now())", (player, uuid.uuid4()))
        dead = conn.execute("insert into deliveries (notification_id, target, player_id, status, attempts, last_error)"
                            " values ('n1-x-turn', 'email', %s, 'dead', 8, 'SMTP: refused') returning id",
                            (player,)).fetchone()[0]
    listed = subprocess.run([sys.executable, "-m", "api.processes.cli", "notifier", "--dead-letters"], cwd=ROOT, env=env,
                            capture_output=True, text=True, check=True)
    assert listed.stdout.split("\t")[:2] == [str(dead), "email"] and "SMTP: refused" in listed.stdout
    queued = subprocess.run([sys.executable, "-m", "api.processes.cli", "notifier", "--redeliver", str(dead)], cwd=ROOT,
                            env=env, capture_output=True, text=True)
    assert queued.returncode == 0 and str(dead) in queued.stdout
    with psycopg.connect(fresh_url) as conn:
        assert conn.execute("select status, attempts from deliveries where id = %s", (dead,)).fetchone() == ("pending", 0)
    again = subprocess.run([sys.executable, "-m", "api.processes.cli", "notifier", "--redeliver", str(dead)], cwd=ROOT, env=env,
                           capture_output=True, text=True)
    assert again.returncode == 1, "no longer a dead letter"


def test_the_worker_starts_its_notifier_again_when_it_dies(fresh_url, redis_url, tmp_path):
    import psutil

    log = open(tmp_path / "worker.log", "ab")
    worker = subprocess.Popen(
        [sys.executable, "-m", "api.processes.cli", "worker", "--sweep-every", "1"], cwd=ROOT, stdout=log,
        stderr=subprocess.STDOUT, env={**os.environ, "DATABASE_URL": fresh_url, "REDIS_URL": redis_url},
        start_new_session=True)

    def notifiers():
        found = []
        for child in psutil.Process(worker.pid).children():
            try:
                if child.status() != psutil.STATUS_ZOMBIE and "notifier" in " ".join(child.cmdline()):
                    found.append(child)
            except psutil.Error:  # gone meanwhile
                pass
        return found

    try:
        (first,) = wait_until(notifiers, what="the worker's notifier")
        first.send_signal(signal.SIGKILL)
        (second,) = wait_until(lambda: [p for p in notifiers() if p.pid != first.pid], what="another notifier")
        assert second.is_running()
    finally:
        worker.send_signal(signal.SIGTERM)
        worker.wait(60)
        log.close()
    assert worker.returncode == 0
    _, alive = psutil.wait_procs([second], timeout=40)
    assert not alive, "the worker stopped its notifier on its way out"


def test_the_notifiers_deliveries_resume_within_seconds_of_postgresql_coming_back_after_a_long_outage():
    """PostgreSQL stops under a deliverer whose pool is full: each lost
    connection is replaced by attempts that back off; once PostgreSQL is
    back, the next round of deliveries connects within seconds. With
    psycopg_pool's default retry (300 s) the attempts came 1, 2, 4, 8, 16 s
    apart, and after 16 s down the deliveries waited another 12 s or more;
    after a longer outage, minutes."""
    from eventstore import migrate
    from tests.support.private_postgres import private_postgres
    from workers.notify.delivery import Deliverer

    with private_postgres() as postgres:
        migrate(postgres.url)
        deliverer = Deliverer(postgres.url, concurrency=1)
        try:
            with deliverer.db.connection(), deliverer.db.connection():
                pass  # the pool holds its two connections
            postgres.stop()
            deliverer.db.check()  # both found lost: their replacements try, and back off
            time.sleep(16)
            postgres.start()
            back = time.monotonic()
            assert deliverer.step() == 0  # nothing is due: what counts is that it could ask
            waited = time.monotonic() - back
            assert waited < 5, f"the first round connected {waited:.1f} s after PostgreSQL was back"
        finally:
            deliverer.close()
