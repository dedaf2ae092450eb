"""The answers the HTTP servers write themselves, before the app sees a
request (a request line or a header over their limits, a request that does
not parse): problem documents like every other error, not gunicorn's
text/html page or gevent's empty body.

gunicorn writes them with ``gunicorn.util.write_error``, which each worker
replaces (``install_in_gunicorn``, called from api/processes/gunicorn_conf.py);
``boardlog serve``'s gevent server uses ``ProblemWSGIHandler``.
"""

from __future__ import annotations

import http
import json

from . import problems


def response(status: int, detail: str) -> bytes:
    """A whole HTTP/1.1 answer that closes the connection."""
    kind = problems.for_status(status)
    try:
        reason = http.HTTPStatus(status).phrase
    except ValueError:
        reason = "Error"
    document = {"type": kind.uri if kind else "about:blank", "title": kind.title if kind else reason,
                "status": status, "detail": detail}
    body = json.dumps(document).encode()
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: application/problem+json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n")
    return head.encode("latin-1") + body


def _detail(status: int, message: str) -> str:
    if status == 414:
        return (f"the request line is longer than this server reads ({message}); no URL of boardlog's is that "
                "long: check the link, or send long data in a body")
    if status == 431:
        return f"the request's headers are too large ({message})"
    if status == 500:
        return "the server failed; this is a bug and has been logged"
    if status == 400:
        return f"the request is not valid HTTP: {message}" if message else "the request is not valid HTTP"
    return f"the server refused the request: {message}" if message else "the server refused the request"


def install_in_gunicorn() -> None:
    from gunicorn import util

    def write_error(sock, status_int, reason, mesg):
        util.write_nonblock(sock, response(int(status_int), _detail(int(status_int), mesg)))

    util.write_error = write_error


def problem_handler():
    """gevent's WSGI handler, with its error answers as problem documents."""
    from gevent.pywsgi import WSGIHandler

    class ProblemWSGIHandler(WSGIHandler):
        def handle_one_request(self):
            result = super().handle_one_request()
            if isinstance(result, tuple):
                status = int(str(result[0])[:3])
                if status == 414:
                    from gevent.pywsgi import MAX_REQUEST_LINE

                    message = f"more than {MAX_REQUEST_LINE} bytes"
                else:
                    message = ""
                return result[0], response(status, _detail(status, message))
            return result

    return ProblemWSGIHandler
