"""`boardlog check-history`: replay every stored game with the installed code,
the check a deploy runs first.

For each game stream, running or finished, in one consistent snapshot of
the database:

- its rules: the version GameCreated records must be installed, with the
  same data files, and every stored event shape must upcast;
- its hash chain;
- its decisions: each command re-decided from the stored secret seed (the
  server has it, so running games are checked too) must give the stored
  events, as the audit does;
- where it rests: the replayed game must have the status, version, seats to
  act and outcome the read models recorded when it was played.

Any difference is a divergence, printed one per line; the exit status is 1 if
there is any (2 if the database cannot be read). Games are checked in
parallel processes (``--jobs``), each scanning its share of the streams in
the same exported snapshot.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Iterator

import psycopg
import psycopg.sql

from domain import games as registry
from domain import session as sessions
from domain.audit import rerun
from domain.engine import UnreadableHistory
from eventstore.chain import verify_chain
from eventstore.postgres import _COLUMNS, _record

from ..service.replica import check_at_start
from ..service.settings import SettingError, env_postgres_url

GAME_STREAM = "game-"
CATCH_UP = 5.0  # seconds a replica is given to replay what the primary had written when the check began


@dataclass
class GameCheck:
    stream_id: str
    status: str | None = None
    events: int = 0
    divergences: list[str] = field(default_factory=list)


@dataclass
class Report:
    checked: list[GameCheck] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def divergent(self) -> list[GameCheck]:
        return [game for game in self.checked if game.divergences]

    @property
    def events(self) -> int:
        return sum(game.events for game in self.checked)


def check_game(stream_id: str, records: list, rested: dict | None, seed: bytes | None) -> GameCheck:
    """One game: ``records`` its stored events in order, ``rested`` the read
    model's row (status, version, to_act, outcome), ``seed`` its secret seed."""
    check = GameCheck(stream_id, events=len(records))
    try:
        _check(check, records, rested, seed)
    except UnreadableHistory as error:
        check.divergences.append(f"cannot be read: {error}")
    except Exception as error:  # a crash of the installed code on a stored game is exactly what we look for
        check.divergences.append(f"replay error: {type(error).__name__}: {error}")
    return check


def _check(check: GameCheck, records: list, rested: dict | None, seed: bytes | None) -> None:
    first = records[0]
    if first.type != "GameCreated":
        check.divergences.append(f"the stream starts with {first.type}, not GameCreated")
        return
    rules = registry.rules_for(sessions.created_from_stored(first.schema_version, first.data))
    if rules is None:
        check.divergences.append(f"no installed game is called {first.data.get('game')!r}")
        return
    chain = verify_chain(records)
    if not chain.ok:
        check.divergences.append(f"hash chain broken at version {chain.broken_at}: {chain.reason}")
    result = rerun(rules, [
        {"type": r.type, "schema_version": r.schema_version, "data": r.data, "metadata": r.metadata} for r in records
    ], secret_seed=seed)
    check.divergences.extend(f"audit: {problem}" for problem in result.problems)
    session = result.session
    if session is None:
        return
    check.status = session.status
    if rested is None:
        check.divergences.append("no read model row: the game was never projected")
        return
    now = {
        "status": session.status,
        "version": session.version,
        "to_act": sorted(sessions.to_act(rules, session)),
        "outcome": session.outcome,
    }
    then = {key: rested[key] for key in now}
    if now != then:
        moved = ", ".join(f"{key} {then[key]!r} -> {now[key]!r}" for key in now if now[key] != then[key])
        check.divergences.append(f"no longer rests where it did: {moved}")


def _streams(conn, part: int, parts: int) -> Iterator[tuple[str, list]]:
    """Every game stream of this part (streams are shared out by a hash of
    their id) with its events, from one ordered scan."""
    cursor = conn.cursor(name="check_history", binary=True)
    cursor.itersize = 2000
    cursor.execute(
        f"select {_COLUMNS} from events where stream_id like %s and mod(abs(hashtext(stream_id)::bigint), %s) = %s"
        " order by stream_id, version",
        (GAME_STREAM + "%", parts, part),
    )
    current, batch = None, []
    for row in cursor:
        record = _record(row)
        if record.stream_id != current:
            if batch:
                yield current, batch
            current, batch = record.stream_id, []
        batch.append(record)
    if batch:
        yield current, batch


def _read_models(conn) -> tuple[dict, dict]:
    rows = conn.execute(
        "select g.id, g.status, g.version, g.to_act, g.outcome, s.seed"
        " from games g left join game_secrets s on s.game_id = g.id"
    ).fetchall()
    rested = {
        f"{GAME_STREAM}{gid}": {"status": status, "version": version, "to_act": sorted(to_act or []), "outcome": outcome}
        for gid, status, version, to_act, outcome, _ in rows
    }
    seeds = {f"{GAME_STREAM}{gid}": bytes(seed) for gid, *_, seed in rows if seed is not None}
    return rested, seeds


def _check_part(database_url: str, snapshot: str | None, part: int, parts: int, game: str | None) -> list[GameCheck]:
    """One process's share of the games, read in the snapshot ``snapshot``
    (exported by the coordinating transaction), so that every process sees
    the database at the same instant, the read models with the events."""
    with psycopg.connect(database_url) as conn:
        conn.execute("set transaction isolation level repeatable read, read only")
        if snapshot is not None:
            conn.execute(psycopg.sql.SQL("set transaction snapshot {}").format(psycopg.sql.Literal(snapshot)))
        rested, seeds = _read_models(conn)
        checked = [
            check_game(stream, records, rested.get(stream), seeds.get(stream))
            for stream, records in _streams(conn, part, parts)
            if game is None or records[0].data.get("game") == game
        ]
        conn.rollback()
    return checked


def check_history(database_url: str, jobs: int = 1, game: str | None = None) -> Report:
    started = time.perf_counter()
    report = Report()
    if jobs <= 1:
        report.checked = _check_part(database_url, None, 0, 1, game)
    else:
        # Spawned, not forked: a child must not inherit the open connection.
        spawn = multiprocessing.get_context("spawn")
        with psycopg.connect(database_url) as conn, ProcessPoolExecutor(max_workers=jobs, mp_context=spawn) as pool:
            conn.execute("set transaction isolation level repeatable read, read only")
            snapshot = conn.execute("select pg_export_snapshot()").fetchone()[0]
            parts = [pool.submit(_check_part, database_url, snapshot, part, jobs, game) for part in range(jobs)]
            report.checked = [check for part in parts for check in part.result()]
            conn.rollback()  # the snapshot lives as long as this transaction
    report.seconds = time.perf_counter() - started
    return report


def _source(primary_url: str, replica_url: str | None) -> str:
    """Where the check reads: the replica (DATABASE_REPLICA_URL) once it has
    replayed all the WAL the primary had written when the check began (every
    commit acknowledged by then is in it, synchronous_commit on or off), so
    that it checks no less than the primary would; it is given CATCH_UP
    seconds for that, and the primary is read otherwise. Says which on stderr.
    A replica URL that is no standby of the primary is refused as at the API's
    start (api/service/replica.py)."""
    if not replica_url:
        return primary_url
    if not check_at_start(primary_url, replica_url):
        print("check-history reads the primary: the replica could not be checked", file=sys.stderr)
        return primary_url
    with psycopg.connect(primary_url) as conn:
        written = conn.execute("select pg_current_wal_insert_lsn()").fetchone()[0]
    deadline = time.monotonic() + CATCH_UP
    try:
        with psycopg.connect(replica_url, connect_timeout=5, autocommit=True) as conn:
            while True:
                behind = conn.execute("select pg_wal_lsn_diff(%s::pg_lsn, pg_last_wal_replay_lsn())",
                                      (written,)).fetchone()[0]
                if behind is not None and behind <= 0 or time.monotonic() > deadline:
                    break
                time.sleep(0.1)
    except psycopg.Error as error:
        print(f"check-history reads the primary: the replica failed ({str(error).strip()})", file=sys.stderr)
        return primary_url
    if behind is None or behind > 0:
        print(f"check-history reads the primary: after {CATCH_UP:.0f} s the replica still lacks {behind} bytes of "
              "the WAL the primary had written when the check began", file=sys.stderr)
        return primary_url
    print("check-history reads the replica: it has replayed everything the primary had written when the check began",
          file=sys.stderr)
    return replica_url


def main(args) -> int:
    url = os.environ.get("DATABASE_URL")
    if not url:
        print("DATABASE_URL is not set: check-history reads the games of that database", file=sys.stderr)
        return 2
    try:
        url = _source(url, env_postgres_url("DATABASE_REPLICA_URL"))
        report = check_history(url, jobs=args.jobs or os.cpu_count() or 1, game=args.game)
    except SettingError as error:
        print(error, file=sys.stderr)
        return 2
    except psycopg.Error as error:
        print(f"cannot read the games: {error}", file=sys.stderr)
        return 2
    for game in report.divergent:
        for divergence in game.divergences:
            print(f"{game.stream_id} ({game.status or 'unreadable'}): {divergence}")
    running = sum(1 for game in report.checked if game.status not in (sessions.FINISHED, sessions.CANCELLED))
    print(
        f"checked {len(report.checked)} games ({running} not finished), {report.events} events, "
        f"in {report.seconds:.1f} s: {len(report.divergent)} diverge"
    )
    return 1 if report.divergent else 0

