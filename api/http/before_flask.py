"""What the layers that answer a request before Flask share: the commands'
(api/http/commands_fast.py), the legal commands' (api/http/legal_fast.py) and the
views' (api/http/view_fast.py).

Each is a WSGI layer in front of the app that answers a request of one
route when everything its view would read is known without Flask, and
hands anything else to the app untouched. What they share is what makes
their answer Flask's: the caller from the token cache only, the rate limit
counted as ``_before`` counts it, the fields ``_after`` adds in its order
(api/http/app.py), the same request log line, and a count of the requests
answered here (tests tell by it which path answered).
"""

from __future__ import annotations

import gzip
import re

from werkzeug.exceptions import HTTPException
from werkzeug.http import parse_accept_header

from . import http_conventions, request_log, security_headers
from .cors import CorsPolicy
from .limits import RateLimiter, address_subject, token_subject

BLUEPRINTS = ["play"]  # the views' blueprint: its error handlers come first, as in Flask


class PlainJSON:
    """A 200 answer of JSON text, sent as werkzeug's Response sends it (its
    fields in the same order: those given, Content-Type, Content-Length, then
    ``after``) without its header machinery: finished and sent, a 700-byte
    view cost 70 us that way and costs 8 this way (``BeforeFlask.finish``
    adds the rest as Flask's ``_after`` would)."""

    status_code = 200
    mimetype = "application/json"

    def __init__(self, text: str, given=(), after=()):
        self.body = text.encode()
        self.fields = [*given, ("Content-Type", self.mimetype), ("Content-Length", str(len(self.body))), *after]

    def __call__(self, environ, start_response):
        start_response("200 OK", self.fields)
        return [self.body]


def json_text(flask_app, value) -> str:
    """What ``flask_app.json.response(value)`` would send, as text."""
    provider = flask_app.json
    if (provider.compact is None and flask_app.debug) or provider.compact is False:
        return f"{provider.dumps(value, indent=2)}\n"
    return f"{provider.dumps(value, separators=(',', ':'))}\n"


def cached_identity(service, environ):
    """The caller of a ``Bearer`` Authorization when the token cache knows
    the token, else None (Flask then asks the database, or refuses it)."""
    scheme, _, token = environ.get("HTTP_AUTHORIZATION", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return service.players.identify_cached(token.strip())


def caller(service, environ) -> tuple[str | None, str] | None:
    """Who asks, for a route a token is optional on: his player id (None
    without a token) and his rate limit's subject (the token's, else the
    address's, as Flask counts him); None when a token is sent that the
    token cache does not know (Flask then asks the database, or refuses it)."""
    if not environ.get("HTTP_AUTHORIZATION"):
        return None, address_subject(environ.get("REMOTE_ADDR"))
    identity = cached_identity(service, environ)
    if identity is None:
        return None
    return identity.player, token_subject(identity.token_id)


def accepts_gzip(environ) -> bool:
    accept = environ.get("HTTP_ACCEPT_ENCODING", "")
    return "gzip" in accept and parse_accept_header(accept).quality("gzip") > 0


class BeforeFlask:
    """A layer for the route ``rule`` (a Flask rule) and ``method``, whose
    paths ``path`` matches, the game id its one group. A subclass's
    ``_answer(environ, game_text)`` gives the answer, or None for Flask's.
    ``answered``: the requests it answered itself."""

    def __init__(self, wsgi_app, flask_app, limiter: RateLimiter, cors: CorsPolicy, rule: str, method: str,
                 path: re.Pattern):
        self.wsgi_app = wsgi_app
        self.flask_app = flask_app
        self.limiter = limiter
        self.cors = cors
        self.method = method
        self.path = path
        self.private = http_conventions.per_token(rule, method)
        self.answered = 0

    def __call__(self, environ, start_response):
        if environ["REQUEST_METHOD"] == self.method:
            path = self.path.match(environ.get("PATH_INFO", ""))
            if path is not None:
                response = self._answer(environ, path.group(1))
                if response is not None:
                    return response(environ, start_response)
        return self.wsgi_app(environ, start_response)

    def _answer(self, environ, game_text: str):
        raise NotImplementedError

    @property
    def service(self):
        return self.flask_app.extensions["boardlog"].service

    def plain_service(self, environ):
        """The service, for a request without a query or a body (what a GET
        answered here is); None for any other, or before the service is up."""
        service = self.service
        if service is None or environ.get("QUERY_STRING") or environ.get("HTTP_TRANSFER_ENCODING"):
            return None
        if environ.get("CONTENT_LENGTH", "0") not in ("", "0"):
            return None
        return service

    def admit(self, identity) -> tuple[bool, tuple[str, str] | None]:
        """Whether the caller's request fits the rate limit, counted if it
        does (last: what goes on to Flask is counted there), and the
        RateLimit fields to answer with (None: limits are off)."""
        return self.admit_subject(token_subject(identity.token_id))

    def admit_subject(self, subject: str) -> tuple[bool, tuple[str, str] | None]:
        """``admit`` for a caller named by his rate limit's subject (a token's, or an address's)."""
        if self.limiter.per_minute <= 0:
            return True, None
        admission = self.limiter.admit(subject)
        return admission.retry_after is None, admission.fields

    def finish(self, response, environ, fields, request_id: str, started: float, player: str | None):
        """What api/http/app.py's ``_after`` adds to the view's answer, in its
        order, and the request's log line; the answer, counted as answered here."""
        if isinstance(response, PlainJSON):
            return self._finish_plain(response, environ, fields, request_id, started, player)
        headers = response.headers
        present = {name.lower() for name in headers.keys()}
        if fields is not None:
            headers.add("RateLimit-Policy", fields[0])
            headers.add("RateLimit", fields[1])
        varies = []
        if self.private:
            if "cache-control" not in present:
                headers.add("Cache-Control", "private")
            varies.append("Authorization")
        json_answer = response.mimetype in http_conventions.JSON_TYPES
        if json_answer:
            varies.append("Accept-Encoding")
        if varies:
            if "vary" in present:
                for field in varies:
                    http_conventions.vary(response, field)
            else:
                headers.add("Vary", ", ".join(varies))
        if json_answer and "content-encoding" not in present and accepts_gzip(environ):
            body = response.get_data()
            if len(body) >= http_conventions.GZIP_MIN_BYTES:
                response.set_data(gzip.compress(body, compresslevel=http_conventions.GZIP_LEVEL, mtime=0))
                headers["Content-Encoding"] = "gzip"
        for name, value in security_headers.JSON_ANSWER:
            if name not in headers:
                headers.add(name, value)
        cors, named = self.cors.headers(environ.get("HTTP_ORIGIN"))
        if named:
            http_conventions.vary(response, "Origin")
        for name, value in cors:
            headers[name] = value
        headers["X-Request-Id"] = request_id
        request_log.line(self.method, environ["PATH_INFO"], response.status_code, started, player)
        return response

    def _finish_plain(self, answer: PlainJSON, environ, fields, request_id: str, started: float,
                      player: str | None) -> PlainJSON:
        """``finish`` for a PlainJSON: the same fields in the same order. It
        has no Cache-Control, Vary, Content-Encoding or CORS field of its own."""
        out = answer.fields
        if fields is not None:
            out += [("RateLimit-Policy", fields[0]), ("RateLimit", fields[1])]
        vary = "Accept-Encoding"
        if self.private:
            out.append(("Cache-Control", "private"))
            vary = "Authorization, Accept-Encoding"
        cors, named = self.cors.headers(environ.get("HTTP_ORIGIN"))
        out.append(("Vary", f"{vary}, Origin" if named else vary))
        if accepts_gzip(environ) and len(answer.body) >= http_conventions.GZIP_MIN_BYTES:
            answer.body = gzip.compress(answer.body, compresslevel=http_conventions.GZIP_LEVEL, mtime=0)
            at = next(n for n, (name, _) in enumerate(out) if name == "Content-Length")
            out[at] = ("Content-Length", str(len(answer.body)))
            out.append(("Content-Encoding", "gzip"))
        out += security_headers.JSON_ANSWER
        out += cors
        out.append(("X-Request-Id", request_id))
        request_log.line(self.method, environ["PATH_INFO"], 200, started, player)
        return answer

    def refusal(self, error: Exception):
        """The answer Flask's error handler gives ``error`` (in an app
        context: the problem is written with the app's JSON settings)."""
        with self.flask_app.app_context():
            if isinstance(error, HTTPException):
                handler = self.flask_app._find_error_handler(error, BLUEPRINTS) if error.code is not None else None
                return self.flask_app.make_response(handler(error) if handler else error)
            handler = self.flask_app._find_error_handler(error, BLUEPRINTS)
            if handler is None:
                raise error
            return self.flask_app.make_response(handler(error))
