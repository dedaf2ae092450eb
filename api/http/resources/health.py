"""Liveness and readiness, outside the versioned API.

Liveness (``/healthz``) is the process answering at all: it needs neither
the database nor Redis, so an orchestrator never restarts a process that is
only overloaded. Readiness (``/readyz``) is whether a load balancer should
send this process more work: PostgreSQL and Redis answer, and the process is
not saturated: its database pool has requests queueing for a connection,
it or its server (the workers of its gunicorn master together) holds 90 % of
BOARDLOG_MAX_WAITERS or more, its resident memory is above
BOARDLOG_MAX_MEMORY_MB, or it is shutting down (api/http/admission.py). A
saturated process answers 503 here and keeps serving what it holds. A
primary whose commits wait for synchronous standbys that are not connected
(eventstore/synchronous.py) is not ready either: every write would hang."""

from __future__ import annotations

import logging

from flask import Blueprint, current_app, jsonify

from eventstore.synchronous import missing_standbys

blp = Blueprint("health", __name__)
log = logging.getLogger("boardlog.health")
_said: list[str | None] = [None]


@blp.get("/healthz")
def healthz():
    """The process is alive."""
    return jsonify(status="ok")


@blp.get("/readyz")
def readyz():
    """PostgreSQL and Redis answer, and the process has room for more."""
    boardlog = current_app.extensions["boardlog"]
    saturation = boardlog.streams.saturation() if boardlog.streams is not None else None
    checks = {}
    if saturation is not None and saturation["pool_saturated"]:
        # Asking the pool would only queue behind the others for its timeout.
        checks["postgres"] = "saturated: requests queue for a connection"
    else:
        try:
            with boardlog.service.pool.connection(timeout=2) as conn:
                waiting = missing_standbys(conn)
            checks["postgres"] = waiting or "ok"
            _say_when_it_changes(waiting)
        except Exception as error:  # report, don't raise: this is the health check
            checks["postgres"] = f"unreachable: {type(error).__name__}"
    if boardlog.redis is not None:
        try:
            boardlog.redis.ping()
            checks["redis"] = "ok"
        except Exception as error:
            checks["redis"] = f"unreachable: {type(error).__name__}"
    else:
        checks["redis"] = "not configured"
    busy = saturation is not None and any(saturation[reason] for reason in (
        "pool_saturated", "waiters_near_limit", "memory_over_limit", "draining"))
    ready = all(value in ("ok", "not configured") for value in checks.values()) and not busy
    # Without PostgreSQL there is no lag to read: not a second wait for a connection.
    notifications = None if checks["postgres"] != "ok" else _notification_lag(boardlog)
    return jsonify(status="ready" if ready else "not ready", checks=checks, saturation=saturation,
                   notifications=notifications), 200 if ready else 503


def _say_when_it_changes(waiting: str | None) -> None:
    """Commits waiting on absent standbys, in the log as soon as a readiness
    check sees it (load balancers ask every few seconds), and once more
    when it ends: not at every check."""
    if waiting != _said[0]:
        if waiting:
            log.warning("not ready: PostgreSQL %s", waiting)
        else:
            log.info("PostgreSQL commits no longer wait for a missing synchronous standby")
        _said[0] = waiting


def _notification_lag(boardlog) -> dict | None:
    """How far the notifier's checkpoint is behind the feed, and how long ago
    the notifier last showed a sign of life (``heartbeat_seconds``; it beats
    every few seconds even on a quiet feed, so ``notifier`` is "silent" when
    it is dead, before any event arrives to show a lag). Informative: a
    lagging or silent notifier does not make the API unready."""
    from eventstore.postgres import subscription_lag

    from ...service.notifications import SILENT_AFTER_SECONDS, SUBSCRIPTION

    try:
        with boardlog.service.pool.connection(timeout=2) as conn:
            lag = subscription_lag(conn, SUBSCRIPTION)
    except Exception:
        return None
    beat = lag["heartbeat_seconds"]
    lag["notifier"] = "never ran" if beat is None else "silent" if beat > SILENT_AFTER_SECONDS else "alive"
    return lag
