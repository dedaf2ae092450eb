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

import io
import json
import re
import time
import uuid

from . import access, game_schemas, request_log
from .before_flask import BeforeFlask, PlainJSON, cached_identity, json_text
from .contract import IDEMPOTENCY_KEY
from .cors import CorsPolicy
from .limits import RateLimiter
from ..service.idempotency import replay_headers

_KEY = IDEMPOTENCY_KEY["schema"]
_KEY_PATTERN = re.compile(_KEY["pattern"])


def _documented_key(key: str) -> bool:
    """Whether ``key`` is an Idempotency-Key as the document describes one
    (the rule ``idempotency_key`` applies: tests/api/test_fast_commands.py)."""
    return _KEY["minLength"] <= len(key) <= _KEY["maxLength"] and _KEY_PATTERN.fullmatch(key) is not None


COMMANDS_RULE = "/v1/games/<game_id>/commands"
COMMANDS_PATH = re.compile(r"/v1/games/([0-9a-fA-F-]{32,36})/commands\Z")

class FastCommands(BeforeFlask):
    """``screen``: api/http/app.py's JSON screening, ``(bounded_int,
    not_json, unstorable)``, handed in (app.py imports this module)."""

    def __init__(self, wsgi_app, flask_app, limiter: RateLimiter, cors: CorsPolicy, screen):
        from .resources.play import ActResultSchema

        super().__init__(wsgi_app, flask_app, limiter, cors, COMMANDS_RULE, "POST", COMMANDS_PATH)
        self.bounded_int, self.not_json, self.unstorable = screen
        self.schema = ActResultSchema()

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
        admitted, fields = self.admit(identity)
        if not admitted:
            return None
        request_id = request_log.request_id(environ.get("HTTP_X_REQUEST_ID"))
        self.answered += 1
        from .resources.play import command_answer

        try:
            answer = service.act(gid, identity.player, body, if_match, key, command_answer(service, gid))
            text = json_text(self.flask_app, self.schema.dump(answer))
            response = PlainJSON(text, after=replay_headers(answer).items())
        except Exception as error:
            response = self.refusal(error)
        return self.finish(response, environ, fields, request_id, started, identity.player)

    def _judge(self, environ, game_text: str):
        """What the view would read, when all of it is known here; else None.
        The body, once read, is put back for Flask."""
        service = self.service
        if service is None or environ.get("QUERY_STRING") or environ.get("HTTP_TRANSFER_ENCODING"):
            return None
        if environ.get("CONTENT_TYPE", "").partition(";")[0].strip().lower() != "application/json":
            return None
        length_text = environ.get("CONTENT_LENGTH", "")
        limit = self.flask_app.config.get("MAX_CONTENT_LENGTH")
        if not length_text.isdigit() or not 0 < int(length_text) <= (limit or 0):
            return None
        identity = cached_identity(service, environ)
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
