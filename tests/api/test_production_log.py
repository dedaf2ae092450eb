"""The production command's log is clean from start to stop: no worker's
start, request or exit writes a ``--- Logging error ---`` traceback (gunicorn's
own lines name the process; the app's logging must leave them the means)."""

from __future__ import annotations

import requests

from tests.api.test_waiting_server import Gunicorn


def test_a_production_server_started_used_and_stopped_logs_no_logging_error(database_url, redis_url, tmp_path):
    log = tmp_path / "log"
    server = Gunicorn(database_url, redis_url, log, workers=2)
    try:
        assert requests.get(f"{server.base}/healthz", timeout=10).status_code == 200
        assert requests.post(f"{server.base}/v1/players", json={"name": "Ada"}, timeout=10).status_code == 201
    finally:
        server.stop()
    text = log.read_text()
    assert "Booting worker" in text and "Shutting down" in text, text[-2000:]
    assert "Logging error" not in text and "Traceback" not in text, text[-4000:]
