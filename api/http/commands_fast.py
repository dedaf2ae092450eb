"""Commands answered before Flask.

A command is the request players send most after polls, and Flask's
handling of it (its contexts, URL matching, flask-smorest's wrappers, the
hooks before and after each view) is paid on every one. So a POST of a
command is judged, acted on and answered here when everything the view
would check first is known without a query:

- the token, from the token cache (api/service/players.py);
- the game, held by this process and public (api/http/access.py);
- the body: application/json with a Content-Length within the limit, JSON
  that Flask's screening accepts (api/http/app.py) and that the game's
  marshmallow schema for its ``type`` accepts, the same validation the view
  runs (api/http/game_schemas);
- Idempotency-Key and If-Match, as the view reads them;
- the rate limit, from the process's own counts (api/http/limits.py),
  counted last, once nothing is left to fall through for.

The command then goes the one command path, ``GameService.act``, with the
view's own ``respond`` and ``ActResultSchema``; a refusal it raises is
answered by the error handler Flask would pick. Whatever is not known here
(an unknown token, a game not held, a body the schema refuses, a query, a
chunked body) goes on to Flask untouched and gets Flask's answer. An answer
given here is Flask's byte for byte: the same status, body and fields, the
same count against the rate limit, the same request log line
(tests/api/test_fast_commands.py sends each request both ways).
BOARDLOG_FAST_COMMANDS=0 switches this off (every command through Flask).
"""

from __future__ import annotations

import gzip
import io
import json
import re
import time
import uuid

from werkzeug.exceptions import HTTPException
from werkzeug.http import parse_accept_header

from . import access, game_schemas, http_conventions, request_log, security_headers
from .contract import IDEMPOTENCY_KEY
from .cors import CorsPolicy
from .limits import RateLimiter, token_subject
from ..service.idempotency import replay_headers

_KEY = IDEMPOTENCY_KEY["schema"]
_KEY_PATTERN = re.compile(_KEY["pattern"])


def _documented_key(key: str) -> bool:
    """Whether ``key`` is an Idempotency-Key as the document describes one
    (the rule ``idempotency_key`` applies: tests/api/test_fast_commands.py)."""
    return _KEY["minLength"] <= len(key) <= _KEY["maxLength"] and _KEY_PATTERN.fullmatch(key) is not None


COMMANDS_RULE = "/v1/games/<game_id>/commands"
COMMANDS_PATH = re.compile(r"/v1/games/([0-9a-fA-F-]{32,36})/commands\Z")
BLUEPRINTS = ["play"]  # the view's blueprint: its error handlers come first, as in Flask


class FastCommands:
    """``screen``: api/http/app.py's JSON screening, ``(bounded_int,
    not_json, unstorable)``, handed in (app.py imports this module)."""

    def __init__(self, wsgi_app, flask_app, limiter: RateLimiter, cors: CorsPolicy, screen):
        from .resources.play import ActResultSchema

        self.wsgi_app = wsgi_app
        self.flask_app = flask_app
        self.limiter = limiter
        self.cors = cors
        self.bounded_int, self.not_json, self.unstorable = screen
        self.schema = ActResultSchema()
        self.private = http_conventions.per_token(COMMANDS_RULE, "POST")
        self.answered = 0  # commands answered here (tests check that this path is taken)

    def __call__(self, environ, start_response):
        if environ["REQUEST_METHOD"] == "POST":
            path = COMMANDS_PATH.match(environ.get("PATH_INFO", ""))
            if path is not None:
                response = self._answer(environ, path.group(1))
                if response is not None:
                    return response(environ, start_response)
        return self.wsgi_app(environ, start_response)

    def _answer(self, environ, game_text: str):
        """The answer, or None when this request is Flask's to answer."""
        started = time.perf_counter()
        try:
            judged = self._judge(environ, game_text)
        except Exception:  # anything unexpected in judging: Flask judges it
            return None
        if judged is None:
            return None
        service, gid, identity, body, key, if_match = judged
        fields = None
        if self.limiter.per_minute > 0:
            admission = self.limiter.admit(token_subject(identity.token_id))  # last: what goes on to Flask is counted there
            if admission.retry_after is not None:
                return None
            fields = admission.fields
        request_id = request_log.request_id(environ.get("HTTP_X_REQUEST_ID"))
        self.answered += 1
        from .resources.play import command_answer

        try:
            answer = service.act(gid, identity.player, body, if_match, key, command_answer(service, gid))
            response = self.flask_app.json.response(self.schema.dump(answer))
            replayed = replay_headers(answer)
            if replayed:
                response.headers.extend(replayed)
        except Exception as error:
            response = self._refusal(error)
        self._finish(response, environ, fields, request_id)
        request_log.line("POST", environ["PATH_INFO"], response.status_code, started, identity.player)
        return response

    def _judge(self, environ, game_text: str):
        """What the view would read, when all of it is known here; else None.
        The body, once read, is put back for Flask."""
        service = self.flask_app.extensions["boardlog"].service
        if service is None or environ.get("QUERY_STRING") or environ.get("HTTP_TRANSFER_ENCODING"):
            return None
        if environ.get("CONTENT_TYPE", "").partition(";")[0].strip().lower() != "application/json":
            return None
        length_text = environ.get("CONTENT_LENGTH", "")
        limit = self.flask_app.config.get("MAX_CONTENT_LENGTH")
        if not length_text.isdigit() or not 0 < int(length_text) <= (limit or 0):
            return None
        scheme, _, token = environ.get("HTTP_AUTHORIZATION", "").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            return None
        identity = service.players.identify_cached(token.strip())
        if identity is None:
            return None
        gid = uuid.UUID(game_text)
        if not access.known_public(service, gid):
            return None
        from .resources.play import if_match_version

        key = environ.get("HTTP_IDEMPOTENCY_KEY")
        if key is not None and not _documented_key(key):
            return None  # refused by Flask (api/http/idempotency.py)
        if_match = if_match_version(environ.get("HTTP_IF_MATCH"))  # refused: Flask refuses it
        length = int(length_text)
        data = environ["wsgi.input"].read(length)
        environ["wsgi.input"] = io.BytesIO(data)
        if len(data) != length:
            return None
        body = json.loads(data, parse_int=self.bounded_int, parse_constant=self.not_json)
        if self.unstorable(body) or game_schemas.validate_command(service.game_of(gid), body):
            return None
        return service, gid, identity, body, key, if_match

    def _refusal(self, error: Exception):
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

    def _finish(self, response, environ, fields, request_id: str) -> None:
        """What api/http/app.py's ``_after`` adds to the view's answer, in its order."""
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
        if json_answer and "content-encoding" not in present and self._accepts_gzip(environ):
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

    @staticmethod
    def _accepts_gzip(environ) -> bool:
        accept = environ.get("HTTP_ACCEPT_ENCODING", "")
        return "gzip" in accept and parse_accept_header(accept).quality("gzip") > 0
