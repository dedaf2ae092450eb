"""A player's view answered before Flask.

A seat learns of the other seats' moves by reading its view: in the
bench against boardgame.io (docs/benchmarks.md, "Against boardgame.io")
the GET of the view, 200 since the other seat moved, was 40% of the
server's CPU a whole move, and in process half of that GET was Flask's
and flask-smorest's handling around the view. A poll whose game has not
moved is answered 304 before Flask already (api/http/polls.py); this
layer answers the 200 of a plain GET of the view when what the view
reads first is known without Flask:

- the token, from the token cache (api/service/players.py); no token is
  a spectator, counted against the rate limit by his address as Flask
  counts him;
- no query string (``wait`` and ``at`` are Flask's) and no body;
- an If-None-Match, if any, that names this viewer's tags only (``*`` is
  Flask's), and a game that has moved since: a 304 is Flask's or the
  polls' layer's.

The answer is then the view's own: the game loaded as the view loads it
(one query for the events since the process's copy, so that a read
follows every commit before it, whichever process made it), who may see
it checked by api/http/access.py, and the envelope serialized once per
version and seat for every reader of the process (SharedWork.view_json).
Anything unexpected in making the answer, and a request over the rate
limit, goes to Flask untouched, but for the database being unreachable or
its pool full: that is answered here as Flask answers it (503), not handed
on to wait for the database a second time. The rate limit is counted
last, once the answer is made. An answer given here is Flask's byte for byte: the same
status, body and fields, the same count against the rate limit, the same
request log line (tests/api/test_fast_views.py sends each request both
ways). BOARDLOG_FAST_VIEWS=0 switches this off (every GET through Flask).
"""

from __future__ import annotations

import re
import time
import uuid

import psycopg
from werkzeug.http import parse_etags

from . import access, request_log
from .before_flask import BeforeFlask, PlainJSON, caller
from .cors import CorsPolicy
from .limits import RateLimiter
from .view_etags import known_version, view_etag

VIEW_RULE = "/v1/games/<game_id>/view"
VIEW_PATH = re.compile(r"/v1/games/([0-9a-fA-F-]{32,36})/view\Z")


class FastViews(BeforeFlask):
    def __init__(self, wsgi_app, flask_app, limiter: RateLimiter, cors: CorsPolicy):
        super().__init__(wsgi_app, flask_app, limiter, cors, VIEW_RULE, "GET", VIEW_PATH)

    def _answer(self, environ, game_text: str):
        """The answer, or None when this request is Flask's to answer."""
        started = time.perf_counter()
        service = self.plain_service(environ)
        asking = service and caller(service, environ)
        if not asking:
            return None
        player, subject = asking
        from ..service.views import viewer_seat

        response = None
        try:
            gid = uuid.UUID(game_text)
            known = None
            if "HTTP_IF_NONE_MATCH" in environ:
                tags = parse_etags(environ["HTTP_IF_NONE_MATCH"])
                if tags.star_tag:
                    return None
                known = known_version(tags.as_set(), player)
            rules, session = service.load(gid)
            if known is not None and session.version == known:
                return None  # a 304: the polls' layer's, or Flask's
            if not access.known_public(service, gid):
                access.check(session, gid, player)
            shared = self.flask_app.extensions["boardlog"].streams.shared
            text = shared.view_json(gid, rules, session, viewer_seat(session, player))
        except psycopg.OperationalError as error:  # the database down or its pool full (PoolTimeout)
            # Answered here as Flask would (its 503): handed on, the request would wait for the database twice.
            response = error
        except Exception:  # a refusal (unknown game, a private game's stranger), a failure: Flask answers it
            return None
        admitted, fields = self.admit_subject(subject)
        if not admitted:
            return None
        self.answered += 1
        if isinstance(response, Exception):
            response = self.refusal(response)
        else:
            response = PlainJSON(text + "\n", given=[("ETag", view_etag(session.version, player))])
        request_id = request_log.request_id(environ.get("HTTP_X_REQUEST_ID"))
        return self.finish(response, environ, fields, request_id, started, player)
