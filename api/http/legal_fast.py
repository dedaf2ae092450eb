"""The legal commands answered before Flask.

A command cycle is a GET of the legal commands, then the POST of one. The
POST is answered before Flask (api/http/commands_fast.py); the GET through
Flask was, profiled, a quarter of the server's samples in a cycle, less
than half of it the view itself (docs/benchmarks.md, "Where a cycle's time
and CPU go"). So a GET of the legal commands is answered here when what the
view reads first is known without Flask:

- the token, from the token cache (api/service/players.py); the view needs
  one, so a request without it is Flask's (its 401);
- the game, held by this process (``GameService.cached``): the view's
  ``load_for_reading`` then mostly runs no query;
- no query string (the view takes none) and no body.

The answer is then the view's own, ``legal_commands_answer`` of
api/http/resources/play.py dumped by its ``LegalCommandsSchema``, with the
same access rules (a private game's non-player is refused by Flask, with
its 404) and the same second load for a seat the held game gives nothing.
The view sets no ETag and reads no If-None-Match, so neither does this
layer (a conditional GET gets the full answer, as from Flask). Anything
unexpected in making the answer, and a request over the rate limit, goes to
Flask untouched, but for the database being unreachable or its pool full:
that is answered here as Flask answers it (503), not handed on to wait for
the database a second time. The rate limit is counted last, once the answer
is made.
An answer given here is Flask's byte for byte: the same status, body and
fields, the same count against the rate limit, the same request log line
(tests/api/test_fast_legal_commands.py sends each request both ways).
BOARDLOG_FAST_LEGAL_COMMANDS=0 switches this off (every GET through Flask).
"""

from __future__ import annotations

import re
import time
import uuid

import psycopg

from . import request_log
from .before_flask import BeforeFlask, PlainJSON, cached_identity, json_text
from .cors import CorsPolicy
from .limits import RateLimiter

LEGAL_RULE = "/v1/games/<game_id>/legal-commands"
LEGAL_PATH = re.compile(r"/v1/games/([0-9a-fA-F-]{32,36})/legal-commands\Z")


class FastLegalCommands(BeforeFlask):
    def __init__(self, wsgi_app, flask_app, limiter: RateLimiter, cors: CorsPolicy):
        from .resources.play import LegalCommandsSchema

        super().__init__(wsgi_app, flask_app, limiter, cors, LEGAL_RULE, "GET", LEGAL_PATH)
        self.schema = LegalCommandsSchema()

    def _answer(self, environ, game_text: str):
        """The answer, or None when this request is Flask's to answer."""
        started = time.perf_counter()
        service = self.plain_service(environ)
        if service is None:
            return None
        from .resources.play import legal_commands_answer

        try:
            identity = cached_identity(service, environ)
            if identity is None:
                return None
            gid = uuid.UUID(game_text)
            if service.cached(gid) is None:
                return None
            answer = self.schema.dump(legal_commands_answer(service, gid, identity.player))
        except psycopg.OperationalError as error:  # the database down or its pool full (PoolTimeout)
            # Answered here as Flask would (its 503): handed on, the request would wait for the database twice.
            answer = error
        except Exception:  # a refusal (a private game's non-player), a failure: Flask answers it
            return None
        admitted, fields = self.admit(identity)
        if not admitted:
            return None
        self.answered += 1
        if isinstance(answer, Exception):
            response = self.refusal(answer)
        else:
            response = PlainJSON(json_text(self.flask_app, answer))
        request_id = request_log.request_id(environ.get("HTTP_X_REQUEST_ID"))
        return self.finish(response, environ, fields, request_id, started, identity.player)
