"""Migrations when gunicorn starts: once, in the master, before it forks.

Web processes do not migrate when they boot: a replacement worker started
while PostgreSQL is down would fail to boot, and gunicorn takes a worker
that fails to boot as fatal (the master stops every worker and exits). A
worker boots without the database and answers 503 on what needs it.

The master must not import psycopg (it picks its wait function at import,
and the workers it forks must pick gevent's), so it runs ``boardlog
migrate`` as a child process. PostgreSQL down at start is no reason not to
start: the master logs it and tries again every RETRY_SECONDS in the
background until it succeeds. A migration that fails (not an unreachable
database) stops the start: the code and the schema would not match.

BOARDLOG_MIGRATE=0 skips all of it, for deployments that run ``boardlog
migrate`` themselves before starting the API.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading

RETRY_SECONDS = 5.0
MIGRATE = (sys.executable, "-m", "api.processes.cli", "migrate")
UNREACHABLE = 75  # api.processes.cli.UNREACHABLE (not imported: api.processes.cli is heavier than this master needs)


class MigrationFailed(SystemExit):
    """A migration itself failed; the message has its output."""


def _migrate_once() -> tuple[str, str]:
    """("done" | "unreachable" | "failed", what it printed).

    Success is read from the output, not only from the exit status: once
    gunicorn's master handles SIGCHLD it reaps every child, and a child reaped
    under subprocess's feet reports a status of 0 whatever it was."""
    result = subprocess.run(MIGRATE, stdin=subprocess.DEVNULL, capture_output=True, text=True)
    output = (result.stdout + result.stderr).strip()
    if result.stdout.startswith("applied "):
        return "done", output
    if result.returncode == UNREACHABLE or "PostgreSQL is unreachable" in result.stderr:
        return "unreachable", output
    return "failed", output


def run_in_master(log, stop: threading.Event | None = None) -> threading.Thread | None:
    """Migrate now; if PostgreSQL is unreachable, go on retrying in a thread
    (returned) while gunicorn starts its workers."""
    if os.environ.get("BOARDLOG_MIGRATE", "1").strip().lower() in ("0", "false", "no", "off"):
        log.info("BOARDLOG_MIGRATE=0: not migrating (run boardlog migrate before starting the API)")
        return None
    outcome, output = _migrate_once()
    if outcome == "done":
        log.info("migrations: %s", output)
        return None
    if outcome == "failed":
        raise MigrationFailed(f"boardlog migrate failed; not starting:\n{output}")
    log.warning("%s; starting anyway (requests that need the database answer 503) and migrating again every "
                "%.0fs until it answers", output, RETRY_SECONDS)
    stop = stop or threading.Event()
    thread = threading.Thread(target=_retry, args=(log, stop), name="boardlog-migrate", daemon=True)
    thread.start()
    return thread


def _retry(log, stop: threading.Event) -> None:
    while not stop.wait(RETRY_SECONDS):
        outcome, output = _migrate_once()
        if outcome == "done":
            log.info("PostgreSQL answers; migrations: %s", output)
            return
        if outcome == "failed":
            log.error("boardlog migrate failed (the API goes on with the schema it has; fix it and run "
                      "boardlog migrate):\n%s", output)
            return
