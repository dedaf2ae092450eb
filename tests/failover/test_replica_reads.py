"""Cold reads on a lagging replica: a primary and a streaming hot standby of
the test's own (initdb, pg_basebackup -R, the machine's PostgreSQL programs),
the standby's replay paused on purpose while commands go on on the primary.
Reads of versions the replica lacks are the primary's; once replay resumes,
the replica serves them (the X-Read-From header says which server answered);
no answer ever carries data older than the primary's."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace

import psycopg
import pytest

from api.http.app import create_app
from api.audit.history_check import main as check_history_main
from api.http.replica_reads import EXTENSION
from api.service.replica import check_at_start, refusal
from api.service.settings import SettingError
from eventstore import migrate
from eventstore.binaries import postgres_candidates, postgres_major, PostgresBinaries
from eventstore.embedded import THROWAWAY, EmbeddedPostgres, _as_user, _postgres_user, running_as_root
from tests.api.conftest import Player, started_game
from tests.support.stored_games import golden_files, read_export, store_game
from tests.support.waiting import wait_until

DATABASE = "boardlog"


def machine_postgres() -> PostgresBinaries | None:
    """The machine's PostgreSQL programs with pg_basebackup beside them."""
    for folder, source in postgres_candidates(packages=False):
        if os.access(folder / "pg_basebackup", os.X_OK):
            return PostgresBinaries(folder, postgres_major(folder / "postgres"), source)
    return None


class Pair:
    """A primary and its streaming hot standby, each on a socket of its own."""

    def __init__(self, folder: Path, binaries: PostgresBinaries):
        self.folder, self.binaries = folder, binaries
        self.primary = EmbeddedPostgres(folder / "primary" / "pgdata", settings=THROWAWAY, binaries=binaries)
        self.standby = EmbeddedPostgres(folder / "standby" / "pgdata", settings=THROWAWAY, binaries=binaries)

    def start(self) -> None:
        self.primary.start()
        with psycopg.connect(self.primary.url(), autocommit=True) as admin:
            admin.execute(f"create database {DATABASE}")
        migrate(self.primary.url(DATABASE))
        target = self.standby.pgdata
        user = _postgres_user(self.primary.pgdata) if running_as_root() else None
        target.parent.mkdir(parents=True)
        if user is not None:
            os.chown(target.parent, user.pw_uid, user.pw_gid)
        subprocess.run([str(self.binaries.bin / "pg_basebackup"), "-D", str(target), "-R", "-X", "stream", "-c", "fast",
                        "-d", f"host={self.primary.socket_dir} user=postgres"],
                       check=True, capture_output=True, **_as_user(user))
        for copied in target.glob(".s.PGSQL.*"):  # the primary's socket lock, copied from its data folder
            copied.unlink()
        self.standby.start()

    def stop(self) -> None:
        try:
            self.standby.stop()
        finally:
            self.primary.stop()

    @property
    def primary_url(self) -> str:
        return self.primary.url(DATABASE)

    @property
    def replica_url(self) -> str:
        return self.standby.url(DATABASE)

    def pause_replay(self) -> None:
        with psycopg.connect(self.replica_url, autocommit=True) as conn:
            conn.execute("select pg_wal_replay_pause()")
            wait_until(lambda: conn.execute("select pg_get_wal_replay_pause_state()").fetchone()[0] == "paused",
                       timeout=30, what="the standby's replay to pause")

    def resume_replay(self) -> None:
        with psycopg.connect(self.replica_url, autocommit=True) as conn:
            conn.execute("select pg_wal_replay_resume()")

    def wait_caught_up(self) -> None:
        """Until the standby has replayed everything the primary has written now
        (inserted: its commits are not flushed at once, synchronous_commit=off)."""
        with psycopg.connect(self.primary_url, autocommit=True) as primary:
            flushed = primary.execute("select pg_current_wal_insert_lsn()").fetchone()[0]
        with psycopg.connect(self.replica_url, autocommit=True) as replica:
            wait_until(lambda: replica.execute("select pg_wal_lsn_diff(%s::pg_lsn, pg_last_wal_replay_lsn()) <= 0",
                                               (flushed,)).fetchone()[0], timeout=60, what="the standby to catch up")


@contextmanager
def primary_and_standby():
    binaries = machine_postgres()
    if binaries is None:
        pytest.skip("no PostgreSQL with pg_basebackup under /usr/lib/postgresql/*/bin or on PATH: "
                    "the replica tests need the machine's PostgreSQL server programs")
    folder = Path(tempfile.mkdtemp(prefix="boardlog-replica-"))
    folder.chmod(0o755)  # as root, PostgreSQL runs as a user of its own, which must reach it
    pair = Pair(folder, binaries)
    try:
        pair.start()
        yield pair
    finally:
        try:
            pair.stop()
        finally:
            shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def pair():
    with primary_and_standby() as servers:
        yield servers




@pytest.fixture(scope="module")
def apps(pair):
    """The API with the replica, and the same API on the primary alone (the truth to compare with)."""
    common = {"DATABASE_URL": pair.primary_url, "REDIS_URL": None, "RATE_LIMIT_PER_MINUTE": 0}
    replicated = create_app({**common, "DATABASE_REPLICA_URL": pair.replica_url})
    plain = create_app(common)
    yield SimpleNamespace(replicated=replicated, plain=plain, service=plain.extensions["boardlog"].service)
    replicated.extensions[EXTENSION].close()
    for app in (replicated, plain):
        app.extensions["boardlog"].service.store.close()


GOLDEN = read_export(golden_files("cronberg")[0])


def finished_game(apps) -> str:
    return str(store_game(apps.service, GOLDEN, copy=True))


def play_moves(players, game_id, moves: int) -> int:
    """``moves`` whole moves, each the first legal command of whoever is to act; the version after them."""
    for _ in range(moves):
        view = players[0].view(game_id).json
        if view["status"] != "active":
            break
        mover = next(p for p in players if p.view(game_id).json["seat"] in view["to_act"])
        response = mover.act(game_id, mover.legal(game_id)[0])
        assert response.status_code == 200, response.json
    return players[0].view(game_id).json["version"]


def read_from(apps, path: str, player=None) -> str:
    """Which server answered a cold read, and that its answer is the primary's, byte for byte."""
    headers = player.auth if player else {}
    answer = apps.replicated.test_client().get(path, headers=headers)
    truth = apps.plain.test_client().get(path, headers=headers)
    assert answer.status_code == truth.status_code == 200, answer.get_data(as_text=True)[:300]
    assert answer.get_data() == truth.get_data(), f"{path} differs from the primary's answer"
    assert "X-Read-From" not in truth.headers, "without a replica nothing changes"
    return answer.headers["X-Read-From"]


def test_cold_reads_go_to_the_primary_while_the_replica_lacks_the_version_and_to_the_replica_once_it_has_it(pair, apps):
    client = apps.replicated.test_client()
    tag = uuid.uuid4().hex[:6]
    players = [Player(client, f"replica-{tag}-{n}") for n in (1, 2)]
    game_id = started_game(players)
    replayed = play_moves(players, game_id, 2)
    finished = finished_game(apps)
    pair.wait_caught_up()
    pair.pause_replay()
    try:
        newest = play_moves(players, game_id, 2)  # commands stay on the primary
        finished_while_paused = finished_game(apps)
        assert newest > replayed

        assert read_from(apps, f"/v1/games/{game_id}/view?at={replayed}", players[0]) == "replica"
        assert read_from(apps, f"/v1/games/{finished}/audit") == "replica"
        assert read_from(apps, f"/v1/games/{finished}/export") == "replica"

        assert read_from(apps, f"/v1/games/{game_id}/view?at={newest}", players[0]) == "primary"
        assert read_from(apps, f"/v1/games/{game_id}/audit") == "primary"
        assert read_from(apps, f"/v1/games/{finished_while_paused}/audit") == "primary"
        assert read_from(apps, f"/v1/games/{finished_while_paused}/export") == "primary"

        # Polls stay on the primary: the ETag of a version the replica has is
        # never answered 304 once the primary has passed it.
        old = client.get(f"/v1/games/{game_id}/view?at={replayed}", headers=players[0].auth)
        view = f"/v1/games/{game_id}/view"
        poll = client.get(view, headers={**players[0].auth, "If-None-Match": old.headers["ETag"]})
        assert poll.status_code == 200 and poll.json["version"] == newest
        assert "X-Read-From" not in poll.headers
        current = client.get(view, headers={**players[0].auth, "If-None-Match": poll.headers["ETag"]})
        assert current.status_code == 304
    finally:
        pair.resume_replay()
    pair.wait_caught_up()
    assert read_from(apps, f"/v1/games/{game_id}/view?at={newest}", players[0]) == "replica"
    assert read_from(apps, f"/v1/games/{game_id}/audit") == "replica"
    assert read_from(apps, f"/v1/games/{finished_while_paused}/audit") == "replica"
    assert read_from(apps, f"/v1/games/{finished_while_paused}/export") == "replica"


def test_under_commands_no_cold_read_answers_with_less_than_the_primary_had(pair, apps):
    """Replay running, commands going on in a thread: every audit and past view
    holds at least what the primary had when the read began, whichever server answered."""
    client = apps.replicated.test_client()
    tag = uuid.uuid4().hex[:6]
    players = [Player(apps.plain.test_client(), f"lag-{tag}-{n}") for n in (1, 2)]
    game_id = started_game(players)
    stream, store = f"game-{game_id}", apps.service.store
    stop, failures = threading.Event(), []

    def commands():
        try:
            while not stop.is_set() and players[0].view(game_id).json["status"] == "active":
                play_moves(players, game_id, 1)
        except Exception as error:  # noqa: BLE001 - reported below, not lost in the thread
            failures.append(error)

    mover = threading.Thread(target=commands, daemon=True)
    mover.start()
    sources = {"replica": 0, "primary": 0}
    try:
        deadline = time.monotonic() + 6
        while time.monotonic() < deadline and not failures:
            known = store.stream_version(stream)
            audit = client.get(f"/v1/games/{game_id}/audit")
            assert audit.status_code == 200
            assert audit.json["chain"]["ok"] and audit.json["chain"]["checked"] >= known
            sources[audit.headers["X-Read-From"]] += 1
            while True:  # the newest version the game rested at (a move is one transaction)
                at = store.stream_version(stream)
                past = client.get(f"/v1/games/{game_id}/view?at={at}", headers=players[0].auth)
                if past.status_code == 200:
                    break
                assert past.status_code == 422, past.json  # moved in between; ask again
            assert past.json["version"] == at
            sources[past.headers["X-Read-From"]] += 1
    finally:
        stop.set()
        mover.join(timeout=60)
    assert not failures, failures
    assert sum(sources.values()) >= 4, sources
    print(f"cold reads under commands, by the server that answered: {sources}")


def test_check_history_reads_the_replica_only_once_it_has_replayed_what_the_primary_had(
        pair, apps, monkeypatch, capsys):
    finished_game(apps)
    monkeypatch.setenv("DATABASE_URL", pair.primary_url)
    monkeypatch.setenv("DATABASE_REPLICA_URL", pair.replica_url)
    pair.wait_caught_up()
    pair.pause_replay()
    try:
        finished_game(apps)
        assert check_history_main(SimpleNamespace(jobs=1, game=None)) == 0
        assert "check-history reads the primary" in capsys.readouterr().err
    finally:
        pair.resume_replay()
    pair.wait_caught_up()
    assert check_history_main(SimpleNamespace(jobs=2, game=None)) == 0  # the exported snapshot, on the standby
    out = capsys.readouterr()
    assert "check-history reads the replica" in out.err and "0 diverge" in out.out


# Bad input: a sentence at start-up, not a traceback

def test_a_replica_url_that_is_the_database_url_is_refused_without_asking_a_server(pair):
    with pytest.raises(SettingError, match="the primary's own database"):
        check_at_start(pair.primary_url, pair.primary_url)


def test_a_replica_url_naming_the_primarys_database_another_way_is_refused(pair):
    other_spelling = pair.primary_url.replace(f"host={pair.primary.socket_dir}", f"host={pair.primary.socket_dir}/")
    assert other_spelling != pair.primary_url
    with pytest.raises(SettingError, match="the primary's own database"):
        check_at_start(pair.primary_url, other_spelling)


def test_a_replica_url_naming_another_database_of_the_primary_server_is_refused(pair):
    with pytest.raises(SettingError, match="the primary server itself"):
        check_at_start(pair.primary_url, pair.primary.url("postgres"))


def test_a_replica_url_naming_another_database_of_the_standby_is_refused(pair):
    with pytest.raises(SettingError, match="names the database postgres, and DATABASE_URL boardlog"):
        check_at_start(pair.primary_url, pair.standby.url("postgres"))


def test_a_replica_url_naming_another_cluster_is_refused(pair, database_url):
    with pytest.raises(SettingError, match="another cluster"):
        check_at_start(pair.primary_url, database_url)


def test_a_promoted_standby_of_the_same_cluster_is_refused_as_not_in_recovery():
    started = "2026-01-01 00:00:00+00"
    primary, promoted = (7, False, "boardlog", started), (7, False, "boardlog", "2026-01-02 00:00:00+00")
    assert "not in recovery" in refusal(primary, promoted)
    assert refusal(primary, (7, True, "boardlog", promoted[3])) is None


def test_a_replica_that_does_not_answer_at_start_up_is_a_warning_and_the_primary_serves(pair, apps, caplog):
    nowhere = "postgresql://postgres@/boardlog?host=/nonexistent/boardlog-replica"
    assert check_at_start(pair.primary_url, nowhere) is False
    assert "could not be checked at start-up" in caplog.text
    app = create_app({"DATABASE_URL": pair.primary_url, "REDIS_URL": None, "RATE_LIMIT_PER_MINUTE": 0,
                      "DATABASE_REPLICA_URL": nowhere})
    try:
        game_id = finished_game(apps)
        answer = app.test_client().get(f"/v1/games/{game_id}/audit")
        assert answer.status_code == 200 and answer.headers["X-Read-From"] == "primary"
    finally:
        app.extensions[EXTENSION].close()
        app.extensions["boardlog"].service.store.close()


def test_the_api_does_not_start_on_a_bad_replica_url_and_says_why_in_a_sentence(pair):
    env = {**os.environ, "DATABASE_URL": pair.primary_url, "DATABASE_REPLICA_URL": pair.primary.url("postgres"),
           "REDIS_URL": ""}
    started = subprocess.run([sys.executable, "-c", "from api.http.app import create_app; create_app()"],
                             env=env, capture_output=True, text=True, timeout=120)
    assert started.returncode == 1
    assert "names the primary server itself" in started.stderr and "Traceback" not in started.stderr, started.stderr


@pytest.mark.parametrize("text", ["mysql://standby/boardlog", "postgresql://standby:notaport/boardlog"])
def test_a_replica_url_that_is_not_a_postgresql_url_is_refused_in_a_sentence(monkeypatch, text):
    from api.http.app import settings

    monkeypatch.setenv("DATABASE_REPLICA_URL", text)
    with pytest.raises(SettingError, match="DATABASE_REPLICA_URL must be a PostgreSQL URL"):
        settings()


def test_a_standby_that_stops_leaves_cold_reads_to_the_primary_until_it_is_back(pair, apps):
    """Last in the module: the standby goes down and comes back."""
    game_id = finished_game(apps)
    pair.wait_caught_up()
    assert read_from(apps, f"/v1/games/{game_id}/audit") == "replica"
    pair.standby.stop()
    try:
        assert read_from(apps, f"/v1/games/{game_id}/audit") == "primary"
        started = time.monotonic()
        assert read_from(apps, f"/v1/games/{game_id}/export") == "primary"
        assert time.monotonic() - started < 0.9, "the standby that failed was asked again at once"
    finally:
        pair.standby.start()
    wait_until(lambda: read_from(apps, f"/v1/games/{game_id}/export") == "replica", timeout=60, every=0.5,
               what="cold reads to go back to the standby")
