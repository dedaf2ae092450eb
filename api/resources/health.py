"""Liveness and readiness, outside the versioned API."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify

blp = Blueprint("health", __name__)


@blp.get("/healthz")
def healthz():
    """The process is alive."""
    return jsonify(status="ok")


@blp.get("/readyz")
def readyz():
    """PostgreSQL and Redis answer."""
    boardlog = current_app.extensions["boardlog"]
    checks = {}
    try:
        with boardlog.service.pool.connection(timeout=2) as conn:
            conn.execute("select 1")
        checks["postgres"] = "ok"
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
    ready = all(value in ("ok", "not configured") for value in checks.values())
    # Without PostgreSQL there is no lag to read: not a second wait for a connection.
    lag = _notification_lag(boardlog) if checks["postgres"] == "ok" else None
    return jsonify(status="ready" if ready else "not ready", checks=checks,
                   notifications=lag), 200 if ready else 503


def _notification_lag(boardlog) -> dict | None:
    """How far the notifier's checkpoint is behind the feed (informative: a
    lagging notifier does not make the API unready)."""
    from workers.notify.subscription import lag

    try:
        with boardlog.service.pool.connection(timeout=2) as conn:
            return lag(conn)
    except Exception:
        return None
