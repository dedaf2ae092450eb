"""The HTTP server of ``boardlog serve``: gevent's WSGI server.

Why gevent. Most requests wait (long-polls, Server-Sent Events). A thread
per waiting request (werkzeug's development server, gunicorn's gthread)
runs out at a few dozen waiters and stalls everything else. gevent makes
each request a greenlet (a few kilobytes) on one OS thread; once the
standard library is monkey-patched, psycopg (>= 3.1.14 picks a cooperative
wait when it sees gevent's patched ``select``), psycopg_pool, redis-py and
the event store's LISTEN thread all yield instead of blocking. Flask and the
code stay synchronous: no async rewrite, and the same ``api.processes.wsgi:app`` runs
under ``gunicorn -k gevent`` in production (see api/processes/gunicorn_conf.py).
A waiting request therefore holds a greenlet and a socket, and no thread
and no database connection: it waits on the event store's one LISTEN
connection per process.

``patch()`` must run before psycopg, redis or the app are imported.
"""

from __future__ import annotations

import logging
import resource

log = logging.getLogger("boardlog.serve")
DRAIN_SECONDS = 5.0


def patch() -> None:
    from gevent import monkey

    if not monkey.is_module_patched("socket"):
        monkey.patch_all()


def raise_fd_limit(wanted: int = 65536) -> int:
    """Each waiter is a socket: lift the soft limit on open files as far as
    the hard limit allows (1,024 by default would cap waiters near 1,000)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError) as error:
            log.warning("cannot raise the open-file limit to %s: %s", target, error)
    return soft


def limit_send_buffer(listener) -> None:
    """BOARDLOG_SOCKET_SNDBUF (bytes): the kernel send buffer of each
    connection (accepted sockets inherit the listener's). Unset, the kernel
    sizes it; a small one bounds the memory a stalled client can pin, and
    makes a client that stopped reading show sooner (it is then closed after
    BOARDLOG_STREAM_WRITE_TIMEOUT)."""
    import socket

    from ..service.settings import env_number

    size = env_number("BOARDLOG_SOCKET_SNDBUF", 0, minimum=1)
    if size:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, size)


def tune_garbage_collector() -> None:
    """Thousands of waiting greenlets are thousands of live objects that the
    cyclic collector would walk again and again, pausing every request (the
    p99 of commands). What the app loaded is frozen out of its walks, and the
    youngest generation is collected less often."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)


class _ErrorLog:
    def write(self, text: str) -> None:
        if text.strip():
            log.warning("%s", text.rstrip())

    def flush(self) -> None:
        pass


class ApiServer:
    """The app on a gevent WSGI server, serving in the background of the
    calling (patched) process."""

    def __init__(self, app, host: str, port: int, backlog: int = 2048):
        from gevent.pywsgi import WSGIServer

        self.app = app
        from ..http.server_problems import problem_handler

        self.server = WSGIServer((host, port), app, log=None, error_log=_ErrorLog(), backlog=backlog,
                                 handler_class=problem_handler())
        self.server.init_socket()
        limit_send_buffer(self.server.socket)

    def start(self) -> None:
        self.server.start()

    @property
    def server_port(self) -> int:
        return self.server.server_port

    def shutdown(self, timeout: float = DRAIN_SECONDS) -> None:
        """Stop accepting; end open streams with a ``retry:`` hint so their
        clients reconnect elsewhere; give requests ``timeout`` s to finish."""
        import gevent

        self.server.close()  # no new connections
        streams = self.app.extensions["boardlog"].streams
        if streams is not None:
            streams.drain()
            for _ in range(int(timeout * 10)):
                if not streams.count():
                    break
                gevent.sleep(0.1)
        self.server.stop(timeout=1)


def serve(app, host: str, port: int) -> ApiServer:
    server = ApiServer(app, host, port)
    tune_garbage_collector()
    server.start()
    return server
