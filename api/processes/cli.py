"""The ``boardlog`` command.

    boardlog serve [--host 127.0.0.1] [--port 8000] [--data ./.boardlog]
    boardlog worker [--burst] [--sweep-every SECONDS] [--fork] [--no-notifier]
    boardlog notifier [--dead-letters] [--redeliver ID ...]
    boardlog migrate
    boardlog openapi [--output openapi/openapi.yaml] [--check]
    boardlog audit FILE [--receipts RECEIPTS.json] [--keys KEYS.json]
    boardlog keys rotate | list
    boardlog check-history [--jobs N] [--game NAME]

``serve`` with neither DATABASE_URL nor REDIS_URL set starts an embedded
PostgreSQL and Redis in the data folder; with both set it uses those servers.
"""

from __future__ import annotations

import argparse
import logging
import os
import subprocess
import sys
import threading
from pathlib import Path

log = logging.getLogger("boardlog.serve")


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    return args.run(args) or 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="boardlog", description="Turn-based board games with hidden information.")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")

    serve = commands.add_parser("serve", help="run the API and a worker (embedded servers when no URLs are set)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000; 0 picks a free one)")
    serve.add_argument("--data", default="./.boardlog",
                       help="folder of the embedded PostgreSQL and Redis (default ./.boardlog)")
    serve.set_defaults(run=serve_command)

    worker = commands.add_parser("worker", help="run a worker with the scheduler (DATABASE_URL, REDIS_URL)")
    worker.add_argument("--burst", action="store_true", help="quit once the queue is empty")
    worker.add_argument("--sweep-every", type=int, default=None,
                        help="seconds between sweeps (default 30, or BOARDLOG_SWEEP_SECONDS)")
    worker.add_argument("--fork", action="store_true", default=None,
                        help="fork a work horse per job instead of running jobs in the worker's own process "
                             "(isolated, and much slower: a fork and new database connections per job; "
                             "default: BOARDLOG_WORKER_FORK)")
    worker.add_argument("--in-process", action="store_true",
                        help="jobs in the worker's own process: the default now, kept so that older command "
                             "lines work")
    worker.add_argument("--no-notifier", action="store_true",
                        help="do not start the notifier (webhooks and e-mail) beside the worker")
    worker.set_defaults(run=worker_command)

    notifier = commands.add_parser("notifier", help="run only the notifier: webhooks and e-mail (DATABASE_URL)")
    notifier.add_argument("--dead-letters", action="store_true",
                          help="list the deliveries that gave up (id, target, player, notification, attempts, why)")
    notifier.add_argument("--redeliver", type=int, nargs="+", metavar="ID", help="queue these dead letters again")
    notifier.set_defaults(run=notifier_command)

    migrate = commands.add_parser("migrate", help="apply the database migrations to DATABASE_URL")
    migrate.set_defaults(run=migrate_command)

    openapi = commands.add_parser("openapi", help="write the OpenAPI document, or check it is current")
    openapi.add_argument("--output", default="openapi/openapi.yaml")
    openapi.add_argument("--check", action="store_true", help="fail if the committed document differs")
    openapi.set_defaults(run=lambda args: _lazy("api.processes.openapi_doc").main(args))

    audit = commands.add_parser("audit", help="re-verify an exported game offline")
    audit.add_argument("file", metavar="FILE")
    audit.add_argument("--receipts", metavar="RECEIPTS.json", default=None,
                       help="a JSON list of receipts a player kept: say whether the history agrees with each")
    audit.add_argument("--keys", metavar="KEYS.json", default=None,
                       help="the server's keys as GET /v1/keys serves them: the signing key must be one of them")
    audit.set_defaults(run=lambda args: _lazy("api.audit.offline_audit").main(args))

    keys = commands.add_parser("keys", help="the server's signing keys (DATABASE_URL)")
    keys.add_argument("action", choices=["rotate", "list"],
                      help="rotate: retire the current key and make a new one (retired keys still verify); "
                           "list: print every key as GET /v1/keys serves them")
    keys.set_defaults(run=keys_command)

    backfill = commands.add_parser(
        "backfill-reminders", help="give the games running before reminders existed their seats' deadlines, so "
                                   "that they are reminded before their next move (DATABASE_URL, REDIS_URL)")
    backfill.set_defaults(run=lambda args: _lazy("api.processes.reminder_backfill").main(args))

    history = commands.add_parser(
        "check-history",
        help="replay and audit every stored game with the installed code (DATABASE_URL); exit 1 on any divergence",
    )
    history.add_argument("--jobs", type=int, default=None, help="processes to check games in (default: one per CPU)")
    history.add_argument("--game", default=None, help="check only the games of this kind (e.g. coronation)")
    history.set_defaults(run=lambda args: _lazy("api.audit.history_check").main(args))
    return parser


def _lazy(module: str):
    import importlib

    return importlib.import_module(module)


def _require(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        raise SystemExit(f"{name} is not set")
    return value


UNREACHABLE = 75  # EX_TEMPFAIL: ``boardlog migrate`` found no PostgreSQL; try again later


def migrate_command(args) -> int:
    """Exit status 0 with ``applied ...`` on standard output; UNREACHABLE
    when PostgreSQL cannot be reached (gunicorn's master retries then, see
    api/processes/migrations_at_start.py); anything else is a failed migration."""
    import psycopg

    from eventstore import migrate
    from eventstore.postgres import CONNECT_TIMEOUT
    from eventstore.primary import connect_primary

    url = _require("DATABASE_URL")
    try:  # NoPrimary (a URL of standbys only) stops it with its sentence: a failed migration, not a retry
        conn = connect_primary(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT)
    except psycopg.OperationalError as error:
        print(f"PostgreSQL is unreachable, nothing migrated: {error}".strip(), file=sys.stderr)
        return UNREACHABLE
    with conn:
        applied = migrate(conn)
    print(f"applied {len(applied)} migration(s)" + (f": {', '.join(applied)}" if applied else "; up to date"),
          flush=True)
    return 0


def keys_command(args) -> int:
    import json

    import psycopg_pool

    from api.service.receipts import Signer, SigningKeyError
    from eventstore import migrate

    database_url = _require("DATABASE_URL")
    migrate(database_url)
    with psycopg_pool.ConnectionPool(database_url, min_size=1, max_size=1, kwargs={"autocommit": True},
                                     open=True) as pool:
        signer = Signer(pool)
        try:
            if args.action == "rotate":
                signer.current()  # a first key, if there was none, so that the rotation retires something
                key = signer.rotate()
                print(f"the current signing key is now {key.key_id}; the others are retired and still verify "
                      f"(servers sign with it within {signer.refresh_seconds:.0f} s)")
                return 0
            print(json.dumps({"keys": [key.to_json() for key in signer.keys()]}, default=lambda v: v.isoformat(), indent=2))
        except SigningKeyError as error:
            print(f"cannot {args.action} the keys: {error}", file=sys.stderr)
            return 2
    return 0


def worker_command(args) -> int:
    from workers.runner import run

    return run(burst=args.burst, sweep_every=args.sweep_every, fork=args.fork,
               notifier=not args.no_notifier and not args.burst)


def notifier_command(args) -> int:
    from workers.notify import runner

    if args.dead_letters or args.redeliver:
        return runner.dead_letters(args.redeliver)
    return runner.run()


def serve_command(args) -> int:
    """The API, a worker (with its notifier) and, without DATABASE_URL and
    REDIS_URL, an embedded PostgreSQL and Redis: started in order, watched,
    stopped in the reverse order."""
    from api.processes import serving

    serving.patch()  # before psycopg and redis are imported: waiting requests then hold no thread
    serving.raise_fd_limit()
    from api.service.logs import configure_logging
    from api.processes.supervisor import stop_on_signals  # noqa: I001

    configure_logging()
    database_url, redis_url = os.environ.get("DATABASE_URL"), os.environ.get("REDIS_URL")
    if bool(database_url) != bool(redis_url):
        raise SystemExit("set both DATABASE_URL and REDIS_URL, or neither (for the embedded servers)")
    stop = threading.Event()
    stop_on_signals(stop)
    embedded = _EmbeddedServers(Path(args.data)) if not database_url else None
    if embedded is not None:
        database_url, redis_url = embedded.start()
    try:
        _serve(args, database_url, redis_url, embedded.worker_pid_file if embedded else None, stop)
    finally:
        if embedded is not None:
            embedded.stop()
    _say("boardlog stopped")
    return 0


class _EmbeddedServers:
    """PostgreSQL and Redis in the data folder, which this serve holds locked
    from before they start until after they stopped."""

    def __init__(self, data: Path):
        from api.processes.supervisor import claim_data_folder
        from eventstore.embedded import EmbeddedServers

        self.lock = claim_data_folder(data)  # refuses while another serve runs on it
        self.worker_pid_file = self.lock.path.parent / "run" / "worker.pid"
        self.servers = EmbeddedServers(data)

    def start(self) -> tuple[str, str]:
        try:
            return self.servers.start()
        except BaseException:
            self.lock.release()
            raise

    def stop(self) -> None:
        try:
            self.servers.stop()
        finally:
            self.lock.release()


def _serve(args, database_url: str, redis_url: str, worker_pid_file: Path | None, stop: threading.Event) -> None:
    """Migrate, start the worker and the API, say so, and keep the worker
    running until ``stop``; then stop the worker and the API."""
    from api.processes.supervisor import SupervisedWorker
    from eventstore import migrate

    server = app = None
    worker = SupervisedWorker(database_url, redis_url, worker_pid_file)
    try:
        migrate(database_url)
        worker.start()
        server, app = _start_api(args.host, args.port, database_url, redis_url)
        _wait_for_worker(worker.process, app, stop)
        root = f"http://{_shown_host(args.host)}:{server.server_port}"
        if not stop.is_set():
            # The web client first: a newcomer opens it; the API and its docs are for those who code against it.
            print(f"boardlog is running: web client {root}/  API {root}/v1  docs {root}/v1/docs", flush=True)
        worker.keep_running(stop)
        log.info("stopping")
    finally:
        # The API first (started last): its streams hear "reconnect" and its
        # long-polls an answer at once, not after the worker's warm shutdown,
        # which may finish a job for up to WORKER_STOP's first step.
        try:
            if server is not None:
                server.shutdown()
            if app is not None:
                _close_app(app)
        finally:
            worker.stop()


def _say(line: str) -> None:
    """A line on stdout, which may be a terminal that closed (SIGHUP)."""
    try:
        print(line, flush=True)
    except OSError:
        pass


def _shown_host(host: str) -> str:
    return "127.0.0.1" if host in ("0.0.0.0", "") else host


def _wait_for_worker(worker: subprocess.Popen, app, stop: threading.Event, timeout: float = 60) -> None:
    """Until the worker has registered with Redis, so that "running" means
    the API and the worker both."""
    from rq import Worker

    redis = app.extensions["boardlog"].redis
    waited = 0.0
    while not stop.is_set() and worker.poll() is None and waited < timeout:
        if any(w.pid == worker.pid for w in Worker.all(connection=redis)):
            return
        stop.wait(0.1)
        waited += 0.1
    if worker.poll() is None and not stop.is_set():
        log.warning("the worker has not registered after %ss; going on", timeout)


def _start_api(host: str, port: int, database_url: str, redis_url: str):
    from api.http.app import create_app
    from api.processes.serving import serve

    app = create_app({"DATABASE_URL": database_url, "REDIS_URL": redis_url})
    try:
        server = serve(app, host, port)
    except OSError as error:
        _close_app(app)
        raise SystemExit(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    return server, app


def _close_app(app) -> None:
    boardlog = app.extensions.get("boardlog")
    if boardlog is None:
        return
    try:
        boardlog.service.store.close()
    except Exception:
        log.exception("closing the database pool")
    if boardlog.redis is not None:
        boardlog.redis.connection_pool.disconnect()


if __name__ == "__main__":
    if os.environ.get("BOARDLOG_SERVE_PID"):  # a worker started by serve: it stops when serve dies
        from api.processes.supervisor import stop_with_parent

        stop_with_parent(int(os.environ.pop("BOARDLOG_SERVE_PID")))
    sys.exit(main())
