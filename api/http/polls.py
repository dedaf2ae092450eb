"""Conditional polls answered before Flask.

Play-by-mail players poll their view with the ETag of their last answer,
and nearly every poll is answered 304. Flask's handling of a request (its
contexts, URL matching, flask-smorest's wrappers, the hooks before and after
each view) cost more than the rest of that answer: profiled under the
production command with 200 players polling 100 games, it was most of what
a 304 cost beyond a bare Flask app's (README, "Benchmarks"). So a GET of a
view whose If-None-Match is exactly one strong tag, with no query and no
body, is answered here from what the process knows without a query:

- the token, from the token cache (api/service/players.py);
- the game's version, from the LISTEN connection (eventstore/versions.py);
- that the game may be watched, from the session cache (api/http/access.py);
- the rate limit, from the process's own counts (api/http/limits.py).

Whatever is not known here, or an ETag that is not current, goes on to
Flask, which answers as it always has and caches what it read, so that the
next poll stays here. An answer given here is the one Flask gives: the same
status and fields (tests/api/test_conditional_polls.py compares them), the
same count against the rate limit, the same request log line.
"""

from __future__ import annotations

import re
import time
import uuid

from ..service.games import stream_of
from . import access, http_conventions, request_log, security_headers
from .before_flask import caller
from .cors import CorsPolicy
from .limits import RateLimiter
from .view_etags import single_tag_version

VIEW_RULE = "/v1/games/<game_id>/view"
VIEW_PATH = re.compile(r"/v1/games/([0-9a-fA-F-]{32,36})/view\Z")


class ConditionalPolls:
    def __init__(self, wsgi_app, flask_app, limiter: RateLimiter, cors: CorsPolicy):
        self.wsgi_app = wsgi_app
        self.flask_app = flask_app
        self.limiter = limiter
        self.cors = cors
        self.private = http_conventions.per_token(VIEW_RULE, "GET")

    def __call__(self, environ, start_response):
        if environ["REQUEST_METHOD"] == "GET" and "HTTP_IF_NONE_MATCH" in environ and not environ.get("QUERY_STRING"):
            path = VIEW_PATH.match(environ.get("PATH_INFO", ""))
            if path is not None:
                headers = self._not_modified(environ, path.group(1))
                if headers is not None:
                    start_response("304 NOT MODIFIED", headers)
                    return []
        return self.wsgi_app(environ, start_response)

    def _not_modified(self, environ, game_text: str) -> list[tuple[str, str]] | None:
        """The fields of a 304, or None when this request is Flask's to answer."""
        started = time.perf_counter()
        service = self.flask_app.extensions["boardlog"].service
        if service is None or environ.get("CONTENT_LENGTH") or environ.get("HTTP_TRANSFER_ENCODING"):
            return None
        asking = caller(service, environ)
        if asking is None:
            return None
        player, subject = asking
        tag = environ["HTTP_IF_NONE_MATCH"]
        version = single_tag_version(tag, player)
        if version is None:
            return None
        try:
            game_id = uuid.UUID(game_text)
        except ValueError:
            return None
        if service.store.known_version(stream_of(game_id)) != version or not access.known_public(service, game_id):
            return None
        admission = self.limiter.admit(subject)  # last: what goes on to Flask is counted there
        if admission.retry_after is not None:
            return None
        headers = [("ETag", tag)]
        if admission.fields is not None:
            headers += [("RateLimit-Policy", admission.fields[0]), ("RateLimit", admission.fields[1])]
        cors, named = self.cors.headers(environ.get("HTTP_ORIGIN"))
        if self.private:
            headers.append(("Cache-Control", "private"))
            headers.append(("Vary", "Authorization, Origin" if named else "Authorization"))
        elif named:
            headers.append(("Vary", "Origin"))
        headers += cors
        headers.append(("X-Request-Id", request_log.request_id(environ.get("HTTP_X_REQUEST_ID"))))
        headers += security_headers.JSON_ANSWER  # as Flask's answer has them
        request_log.line("GET", environ["PATH_INFO"], 304, started, player)
        return headers
