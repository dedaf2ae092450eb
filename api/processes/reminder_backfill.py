"""``boardlog backfill-reminders``: the seat deadlines of the games that were
running before reminders existed (migration 0112), which otherwise get them
only at their next commit. Each such game's seats to act begin their turn,
for reminders, now: no reminder whose time has passed is sent late; the
next ones are scheduled (REDIS_URL) or left to the worker's sweeper."""

from __future__ import annotations

import logging
import os

from domain import session as sessions

log = logging.getLogger("boardlog.reminders")


def main(args) -> int:
    from eventstore import PostgresEventStore

    from api.service.games import GameService
    from api.service.scheduling import RQScheduler
    from api.service.redis_connection import redis_client

    database_url = os.environ.get("DATABASE_URL")
    if not database_url:
        raise SystemExit("DATABASE_URL is not set")
    redis_url = os.environ.get("REDIS_URL")
    store = PostgresEventStore.connect(database_url, min_size=1, max_size=2)
    try:
        service = GameService(store, RQScheduler(redis_client(redis_url)) if redis_url else None)
        done = backfill(service)
    finally:
        store.close()
    print(f"{done} running game(s) given their seats' deadlines for reminders")
    return 0


def backfill(service) -> int:
    """Project the seat deadlines of each running timed game that has none; how many games."""
    from api.service import reminders

    with service.pool.connection() as conn:
        missing = reminders.unprojected(conn)
    done = 0
    for game_id in missing:
        rules, session = service.load(game_id)
        with service.pool.connection() as conn, conn.transaction():
            # The game's row, held: a commit meanwhile waits, and then projects on its own.
            row = conn.execute("select version from games where id = %s for update", (game_id,)).fetchone()
            if row is None or row[0] != session.version or session.status != sessions.ACTIVE:
                continue
            reminders.project(conn, game_id, rules, session, sessions.to_act(rules, session), [], service.clock())
        service.reminders.schedule(game_id, service.scheduler)
        done += 1
    return done
