"""gunicorn settings for production: ``gunicorn -c python:api.processes.gunicorn_conf api.processes.wsgi:app``.

gevent workers (see api/processes/serving.py for why): each holds thousands of
waiting requests in greenlets. Every setting here can still be overridden on
the command line (``-w``, ``--worker-connections``, ``-b``...) or with
``GUNICORN_CMD_ARGS``. Do not add ``--preload``: psycopg must be imported
after gevent patched the process, which the worker does before loading the
app.

The master applies the migrations once before it forks (see
api/processes/migrations_at_start.py); workers never do, so that a worker boots, and
answers 503 on what needs the database, while PostgreSQL is down.

The master also maps the memory in which its workers share their counts of
waiters (api/http/waiter_board.py), so that BOARDLOG_MAX_WAITERS is the
server's total: it gives each worker a slot as it forks it and clears the
slot when the worker exits.

On SIGTERM a worker stops accepting; the hook below then ends every open
stream with a ``retry:`` hint at once (clients reconnect to another process
and resume with Last-Event-ID) instead of letting them hang until
``graceful_timeout``.
"""

from __future__ import annotations

import os

from api.http import waiter_board
from api.processes.migrations_at_start import run_in_master
from api.service.settings import env_number
from api.processes.serving import raise_fd_limit

worker_class = "gevent"
workers = env_number("WEB_CONCURRENCY", 2, minimum=1)
# Per worker: open connections, waiting ones included (streams and long-polls).
worker_connections = env_number("BOARDLOG_WORKER_CONNECTIONS", 10000, minimum=1)
# Long-polls come back on the same connection; keep it that long.
keepalive = 75
graceful_timeout = 15
timeout = 60
# The listen queue: a restarted process or a rolling deploy sees every
# client of another reconnect within seconds (1,000 connections a second and
# more), faster than a busy worker accepts. The kernel caps it at
# net.core.somaxconn (and half-open ones at net.ipv4.tcp_max_syn_backlog):
# raise both to at least this (README, "Production"); on_starting warns.
backlog = env_number("BOARDLOG_BACKLOG", 16384, minimum=1)
bind = os.environ.get("BOARDLOG_BIND", "0.0.0.0:8000")
# The longest request line gunicorn takes (its maximum; its default is 4,094):
# the app answers what it refuses with a problem document; past this,
# gunicorn answers itself, also with one (api/http/server_problems.py).
limit_request_line = 8190


def on_starting(server):
    """Each waiter is a socket: the workers inherit the raised limit."""
    limit = raise_fd_limit()
    count, connections = server.cfg.workers, server.cfg.worker_connections
    if limit < connections + 1024:
        server.log.warning("the open-file limit is %s, less than the %s connections of a worker need: "
                           "raise it (ulimit -n) or lower --worker-connections", limit, connections)
    server.log.info("%s gevent workers of up to %s connections each", count, connections)
    waiter_board.make(max(waiter_board.SLOTS, 2 * count))
    for setting in ("net/core/somaxconn", "net/ipv4/tcp_max_syn_backlog"):
        kernel = _kernel_setting(setting)
        if kernel is not None and kernel < server.cfg.backlog:
            server.log.warning("%s is %s, less than the listen backlog of %s: a herd of reconnecting "
                               "clients overflows the queue (sysctl -w %s=%s)", setting.replace("/", "."),
                               kernel, server.cfg.backlog, setting.replace("/", "."), server.cfg.backlog)
    run_in_master(server.log)


def _kernel_setting(name: str) -> int | None:
    try:
        with open(f"/proc/sys/{name}") as setting:
            return int(setting.read().split()[0])
    except (OSError, ValueError):
        return None


def pre_fork(server, worker):
    """In the master: the worker's slot on the waiter board (None: all taken, it counts alone)."""
    taken = {getattr(other, "waiter_slot", None) for other in server.WORKERS.values()}
    worker.waiter_slot = waiter_board.assign(taken)
    if worker.waiter_slot is None:
        server.log.warning("no free slot on the waiter board: this worker counts only its own waiters")


def post_fork(server, worker):
    waiter_board.adopt(worker.waiter_slot)


def child_exit(server, worker):
    """In the master: the waiters of a worker that exited are gone with it."""
    waiter_board.release(getattr(worker, "waiter_slot", None))


def post_worker_init(worker):
    import gevent

    from api.http.server_problems import install_in_gunicorn
    from api.processes.serving import limit_send_buffer, tune_garbage_collector

    install_in_gunicorn()
    for listener in worker.sockets:
        limit_send_buffer(listener)
    tune_garbage_collector()

    def drain_on_exit():
        while worker.alive:
            gevent.sleep(0.5)
        boardlog = worker.wsgi.extensions.get("boardlog") if hasattr(worker.wsgi, "extensions") else None
        if boardlog is not None and boardlog.streams is not None:
            boardlog.streams.drain()

    gevent.spawn(drain_on_exit)
