"""The job functions RQ runs, by name: ``workers.jobs.fire_deadline`` and
``workers.jobs.score_game``.

Each goes through the one command path, ``GameService``, built once per
process from DATABASE_URL and REDIS_URL (a forked work horse builds its own:
a connection pool must not cross a fork). Each logs one line. An error from a
game's rules is logged with the game it came from and raised, so RQ retries
it and finally keeps it in the failed job registry; the service decides
before it writes, so the game is left as it was.
"""

from __future__ import annotations

import logging
import os
import threading
import time
import uuid

import psycopg

from api.service.settings import env_number
from api.service.errors import NotFound
from api.service.games import GameService

log = logging.getLogger("boardlog.workers")

_lock = threading.Lock()
_built: dict[tuple, GameService] = {}


def service() -> GameService:
    """This process's service for the configured servers."""
    database_url = os.environ.get("DATABASE_URL")
    redis_url = os.environ.get("REDIS_URL")
    if not database_url:
        raise RuntimeError("DATABASE_URL is not set: a worker needs the PostgreSQL that holds the games")
    key = (os.getpid(), database_url, redis_url)
    with _lock:
        built = _built.get(key)
        if built is None:
            for stale in [k for k in _built if k[0] != os.getpid()]:
                del _built[stale]  # inherited through a fork: never touch a parent's pool
            built = _built[key] = _build(database_url, redis_url)
        return built


def forget_services() -> None:
    """Close this process's services (tests, and a clean exit)."""
    with _lock:
        built = list(_built.values())
        _built.clear()
    for each in built:
        each.store.close()


def _build(database_url: str, redis_url: str | None) -> GameService:
    from rq import get_current_job

    from eventstore import PostgresEventStore

    from api.service.redis_connection import redis_client
    from api.service.scheduling import RQScheduler

    if redis_url:
        redis = redis_client(redis_url)
    else:
        job = get_current_job()
        if job is None:
            raise RuntimeError("REDIS_URL is not set and no job is running to borrow a connection from")
        redis = job.connection
    store = PostgresEventStore.connect(database_url, min_size=1, max_size=4,
                                       timeout=env_number("BOARDLOG_POOL_TIMEOUT", 3.0, minimum=0.1, kind=float))
    return GameService(store, RQScheduler(redis))


def mark_absences(game_id: str, version: int) -> bool:
    """Mark seats away or back as their players' absences say, if the game is still at ``version``."""
    return _run("absence", game_id, version, lambda s: s.absences.mark_absences(uuid.UUID(game_id), int(version)),
                done="marked seats away or back", nothing="changed nothing: the game moved, or no seat is away or back")


def fire_deadline(game_id: str, version: int) -> bool:
    """Time out the seats to act if the game is still at ``version``."""
    return _run("deadline", game_id, version, lambda s: s.fire_deadline(uuid.UUID(game_id), int(version)),
                done="fired", nothing="changed nothing: the game moved or ended since")


def send_reminders(game_id: str) -> bool:
    """Send the game's reminders due now (each once), then schedule its next."""

    return _run("reminder", game_id, None, lambda s: bool(s.reminders.send(uuid.UUID(game_id), s.scheduler)),
                done="sent reminders", nothing="sent nothing: none was due")


def score_game(game_id: str) -> bool:
    """Append GameScored to a game awaiting its score."""
    return _run("scoring", game_id, None, lambda s: s.score(uuid.UUID(game_id)),
                done="scored", nothing="changed nothing: already scored")


def _run(kind: str, game_id: str, version, action, done: str, nothing: str) -> bool:
    started = time.perf_counter()
    at = "" if version is None else f" version={version}"
    try:
        changed = action(service())
    except NotFound:
        log.warning("%s game=%s%s: no such game; nothing to do", kind, game_id, at)
        return False
    except psycopg.OperationalError as error:
        # PostgreSQL away (or its pool exhausted): not the game's fault, and no
        # use retrying on RQ's schedule (5 s, 60 s, 600 s, then failed for
        # good). The job ends having done nothing; the first sweep once
        # PostgreSQL answers (every worker sweeps every BOARDLOG_SWEEP_SECONDS)
        # sees the game still waiting and makes the job again.
        log.warning("%s game=%s%s: PostgreSQL unreachable (%s: %s); the game is left unchanged and the "
                    "next sweep makes this job again", kind, game_id, at, type(error).__name__, error)
        return False
    except Exception as error:
        # One line here; RQ logs the traceback and keeps the job (retried, then failed).
        log.error("%s game=%s%s failed, the game is left unchanged: %s: %s", kind, game_id, at,
                  type(error).__name__, error)
        raise
    elapsed = (time.perf_counter() - started) * 1000
    log.info("%s game=%s%s %s %.1fms", kind, game_id, at, done if changed else nothing, elapsed)
    return changed
