"""The Flask application factory."""

from __future__ import annotations

import json
import logging
import os
import time

import psycopg
from flask import Flask, g, request
from apispec.ext.marshmallow import MarshmallowPlugin
from flask_smorest import Api
from werkzeug.exceptions import BadRequest, HTTPException, UnsupportedMediaType
from werkzeug.middleware.proxy_fix import ProxyFix

from domain import games as registry
from domain.engine import IllegalCommand, UnreadableHistory

from . import (errors, game_contract, game_schemas, http_conventions, problems, replica_reads, request_defaults,
               request_log, security_headers, text_constraints)
from .auth import SECURITY_SCHEME
from .bodylimit import ChunkedBodyLimit
from .contract import DocstringPlugin, NullableEnumPlugin, ProblemsPlugin
from .context import Boardlog
from .cors import CorsPolicy
from ..service.settings import env_number, env_postgres_url
from .limits import RateLimiter
from .operation_checks import check_before_arguments
from .commands_fast import FastCommands
from .legal_fast import FastLegalCommands
from .polls import ConditionalPolls
from .view_fast import FastViews
from .resources import docs_assets, web
from ..service.errors import InvalidRequest, ServiceError
from ..service.games import GameService

log = logging.getLogger("boardlog.requests")


class BoardlogApi(Api):
    """flask-smorest, with errors documented and sent as problem+json."""

    ERROR_SCHEMA = errors.ProblemSchema
    DEFAULT_ERROR_RESPONSE_NAME = "DEFAULT_ERROR"

    def _register_responses(self):
        content_type = self.DEFAULT_RESPONSE_CONTENT_TYPE
        self.DEFAULT_RESPONSE_CONTENT_TYPE = errors.PROBLEM
        try:
            super()._register_responses()
        finally:
            self.DEFAULT_RESPONSE_CONTENT_TYPE = content_type
        internal = problems.REGISTRY["internal-error"]
        components = self.spec.components
        registered = components.responses_lazy.get(self.DEFAULT_ERROR_RESPONSE_NAME) or \
            components.responses.get(self.DEFAULT_ERROR_RESPONSE_NAME)
        registered.update({"description": f"any other failure: `{internal.uri}` ({internal.description})",
                           "x-problem-types": [internal.uri]})

    def handle_http_exception(self, error):
        return errors.from_http_exception(error)


def schema_name(schema) -> str:
    """Component names; a game's view parts carry the game's name, so two
    games may both have a ``PlayerSchema``."""
    cls = schema if isinstance(schema, type) else type(schema)
    name = cls.__name__.removesuffix("Schema")
    parts = cls.__module__.split(".")
    if parts[:2] == ["api", "game_schemas"] and len(parts) == 3:
        prefix = game_schemas.camel(parts[2])
        if not name.startswith(prefix):
            name = prefix + name
    modifiers = getattr(schema, "only", None) or getattr(schema, "exclude", None)
    if not isinstance(schema, type) and modifiers:
        return None  # apispec inlines a schema narrowed by only/exclude
    return name


def settings(overrides: dict | None = None) -> dict:
    env = os.environ
    config = {
        "DATABASE_URL": env.get("DATABASE_URL"),
        "DATABASE_REPLICA_URL": env_postgres_url("DATABASE_REPLICA_URL"),  # cold reads (api/service/replica.py)
        "REDIS_URL": env.get("REDIS_URL"),
        "CORS_ORIGINS": env.get("BOARDLOG_CORS_ORIGINS", "*"),
        "RATE_LIMIT_PER_MINUTE": env_number("BOARDLOG_RATE_LIMIT", 1200),
        "MAX_CONTENT_LENGTH": env_number("BOARDLOG_MAX_BODY", 64 * 1024, minimum=1),
        "POOL_SIZE": env_number("BOARDLOG_POOL_SIZE", 10, minimum=1),
        "POOL_TIMEOUT": env_number("BOARDLOG_POOL_TIMEOUT", 3.0, minimum=0.1, kind=float),
        "TRUSTED_PROXIES": env_number("BOARDLOG_TRUSTED_PROXIES", 0),
        # Commands answered before Flask (api/http/commands_fast.py); 0: all through Flask.
        "FAST_COMMANDS": env.get("BOARDLOG_FAST_COMMANDS", "1").strip() != "0",
        # The legal commands' GET answered before Flask (api/http/legal_fast.py); 0: all through Flask.
        "FAST_LEGAL_COMMANDS": env.get("BOARDLOG_FAST_LEGAL_COMMANDS", "1").strip() != "0",
        # The view's 200 answered before Flask (api/http/view_fast.py); 0: all through Flask.
        "FAST_VIEWS": env.get("BOARDLOG_FAST_VIEWS", "1").strip() != "0",
    }
    config.update(overrides or {})
    return config


def create_app(config: dict | None = None, service: GameService | None = None, redis=None, offline: bool = False) -> Flask:
    """``offline``: no database at all, only to write the OpenAPI document."""
    app = Flask("boardlog")
    _configure(app, config)
    if service is None and not offline:
        service, redis = _connect(app.config)
    api = _openapi(app)
    app.extensions["boardlog"] = Boardlog(service=service, redis=redis, api=api, streams=_streams(app, service, redis))
    if service is not None:
        replica_reads.attach(app, service)
    _wrap_wsgi(app)
    game_contract.document_games(api.spec)
    _register_resources(app, api)
    _register_error_handlers(app)
    limiter = RateLimiter(redis, app.config["RATE_LIMIT_PER_MINUTE"])
    cors = CorsPolicy(app.config["CORS_ORIGINS"])
    _screen_requests(app, limiter)
    _finish_responses(app, cors)
    if app.config["FAST_LEGAL_COMMANDS"]:
        app.wsgi_app = app.extensions["boardlog_fast_legal_commands"] = FastLegalCommands(
            app.wsgi_app, app, limiter, cors)
    if app.config["FAST_VIEWS"]:
        app.wsgi_app = app.extensions["boardlog_fast_views"] = FastViews(app.wsgi_app, app, limiter, cors)
    app.wsgi_app = ConditionalPolls(app.wsgi_app, app, limiter, cors)
    if app.config["FAST_COMMANDS"]:
        app.wsgi_app = app.extensions["boardlog_fast_commands"] = FastCommands(
            app.wsgi_app, app, limiter, cors, screen=(_bounded_int, _not_json, _unstorable))
    if app.config["TRUSTED_PROXIES"]:  # off by default: X-Forwarded-For is whatever the client wrote
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=app.config["TRUSTED_PROXIES"])
    return app


def _configure(app: Flask, config: dict | None) -> None:
    """The settings (environment, then ``config``) and the OpenAPI document's frame."""
    app.config.update(settings(config))
    app.config.update(
        API_TITLE="boardlog",
        API_VERSION="1.0.0",
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX="/v1",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="docs",
        OPENAPI_SWAGGER_UI_URL=docs_assets.URL,
        API_SPEC_OPTIONS={
            "info": {
                "description": "Turn-based board games with hidden information. Every action is an event; "
                "each player sees only what that player may see. Errors are application/problem+json. "
                "No text sent (a body's strings, a query) may hold NUL (U+0000) or an unpaired surrogate "
                "(a \\ud800-\\udfff escape without its pair): the pattern of every free-text field says so.",
            },
            "components": {"securitySchemes": {"bearerAuth": SECURITY_SCHEME}},
            # Relative: the document is served by the server it describes, so
            # a client generated from it calls that server (paths hold /v1).
            "servers": [{"url": "/", "description": "the server that serves this document"}],
        },
    )


def _openapi(app: Flask) -> BoardlogApi:
    return BoardlogApi(app, spec_kwargs={
        "marshmallow_plugin": MarshmallowPlugin(schema_name_resolver=schema_name),
        "extra_plugins": [ProblemsPlugin(), NullableEnumPlugin(), DocstringPlugin(), text_constraints.TextPlugin(),
                          http_conventions.HeadersPlugin()],
    })


def _wrap_wsgi(app: Flask) -> None:
    app.wsgi_app = ChunkedBodyLimit(app.wsgi_app, app)


def _register_resources(app: Flask, api: BoardlogApi) -> None:
    """Every endpoint, in the order the OpenAPI document lists them, then the
    rewrites of the whole document."""
    from .resources import (absences, agreements, audit, catalogue, games, health, keys, lifecycle, notifications,
                            pause, play, players, problems, push, reminders, signin, streams, takebacks, talk, tokens,
                            webhooks)

    for blueprint in (players.blp, catalogue.blp, games.blp, play.blp, audit.blp, tokens.blp, lifecycle.blp, problems.blp,
                      streams.blp, keys.blp):
        api.register_blueprint(blueprint)
    streams.document(api)
    audit.document(api)
    for blueprint in (webhooks.blp, notifications.blp, notifications.links, signin.blp, absences.blp, pause.blp,
                      takebacks.blp, talk.blp, reminders.blp, agreements.blp, push.blp):
        api.register_blueprint(blueprint)
    app.register_blueprint(health.blp)
    app.register_blueprint(docs_assets.blp)
    app.register_blueprint(web.blp)  # the web client at /
    request_defaults.rewrite(api.spec)
    text_constraints.rewrite(api.spec)


def _register_error_handlers(app: Flask) -> None:
    """Every failure answers application/problem+json (the last handler: a 500, a bug)."""
    app.register_error_handler(HTTPException, errors.from_http_exception)
    app.register_error_handler(ServiceError, errors.from_service_error)
    app.register_error_handler(IllegalCommand, errors.from_illegal_command)
    app.register_error_handler(UnreadableHistory, errors.from_unreadable_history)
    app.register_error_handler(psycopg.OperationalError, errors.from_database_unavailable)
    # A connection on a server that became a standby (a switchover): the primary is elsewhere now.
    app.register_error_handler(psycopg.errors.ReadOnlySqlTransaction, errors.from_database_unavailable)
    app.register_error_handler(Exception, errors.from_unexpected)


def _screen_requests(app: Flask, limiter: RateLimiter) -> None:
    """Before any view: the rate limit, the token before the arguments, and a
    body and query PostgreSQL can store."""
    from .resources.notifications import FORM_ENDPOINTS

    @app.before_request
    def _before():
        g.started = time.perf_counter()
        g.request_id = request_log.request_id(request.headers.get("X-Request-Id"))
        if request.method == "OPTIONS":
            return None
        limited = limiter.check(request)
        if limited is not None:
            return limited
        check_before_arguments()  # the token (401) before any of the arguments, then a required body
        chunked = "chunked" in request.headers.get("Transfer-Encoding", "").lower()
        if request.method in ("POST", "PUT", "PATCH") and (request.content_length or chunked):
            if not request.is_json and request.endpoint not in FORM_ENDPOINTS:
                raise UnsupportedMediaType("send the body as application/json")
            if request.is_json and _unstorable(_json_body()):
                raise InvalidRequest("text may not contain NUL (\\u0000) characters or unpaired surrogates")
        if _unstorable(list(request.args.items(multi=True))):
            raise InvalidRequest("the query may not contain NUL (%00) characters or unpaired surrogates")
        return None


def _finish_responses(app: Flask, cors: CorsPolicy) -> None:
    """After every view: HTTP conventions, CORS, the request id and the request log line."""

    @app.after_request
    def _after(response):
        http_conventions.apply(response)
        security_headers.apply(response)
        _cors(cors, response)
        response.headers["X-Request-Id"] = g.get("request_id", "")
        request_log.line(request.method, request.full_path.rstrip("?"), response.status_code,
                         g.get("started"), g.get("player"))
        return response


MAX_JSON_DEPTH = 32


MAX_NUMBER_DIGITS = 100


def _json_body():
    """The request's JSON, or None when it does not parse (each endpoint
    says what it expected). Refused with a 400 before anyone reads it: nesting
    too deep for the stack, integers longer than MAX_NUMBER_DIGITS (past
    4,300 digits Python cannot even print one), and NaN or Infinity, which
    are not JSON (RFC 8259) and which nothing downstream can hash or store."""
    try:
        return json.loads(request.get_data(cache=True), parse_int=_bounded_int, parse_constant=_not_json)
    except RecursionError:
        raise _too_deep() from None
    except ValueError:  # JSONDecodeError and undecodable bytes: not JSON
        return None


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise BadRequest(f"a number in the body has more than {MAX_NUMBER_DIGITS} digits")
    return int(text)


def _not_json(name: str):
    raise BadRequest(f"{name} is not a JSON number: send a finite number, or a string")


def _too_deep() -> BadRequest:
    return BadRequest(f"the JSON nests too deeply: at most {MAX_JSON_DEPTH} levels of objects and arrays")


def _unstorable(value) -> bool:
    """Whether a decoded body or query holds text PostgreSQL cannot store (a
    NUL, or a lone UTF-16 surrogate that JSON's \\u escapes allow). One walk,
    without recursion, that also refuses nesting deeper than MAX_JSON_DEPTH
    (a 400), so that nothing walking the body later runs out of stack."""
    stack = [(value, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            if "\x00" in value:
                return True
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(value, (dict, list, tuple)):
            if depth > MAX_JSON_DEPTH:
                raise _too_deep()
            items = [item for pair in value.items() for item in pair] if isinstance(value, dict) else value
            stack.extend((item, depth + 1) for item in items)
    return False


def _cors(policy: CorsPolicy, response) -> None:
    fields, named = policy.headers(request.headers.get("Origin"))
    if named:
        http_conventions.vary(response, "Origin")
    for name, value in fields:
        response.headers[name] = value


def _streams(app, service, redis):
    from .streaming import Streams, settings_from_env

    if service is None:
        return None
    streams = Streams(service, redis=redis, **{**settings_from_env(), **app.config.get("STREAMS", {})})
    service.players.known.observe(streams.tokens_revoked)  # a revocation heard from any process ends its streams here
    return streams


REDIS_TIMEOUT = 2.0  # seconds; the API's own Redis calls take well under a millisecond


def _connect(config):
    """The store and Redis, without waiting for either: a process boots while
    PostgreSQL is down (the pool connects in the background; requests that
    need it answer 503 meanwhile). It does not migrate: that is done once, by
    gunicorn's master before it forks (api/processes/gunicorn_conf.py), by ``boardlog
    serve`` or by ``boardlog migrate``, not by every booting web process."""
    from eventstore import PostgresEventStore

    if not config["DATABASE_URL"]:
        raise RuntimeError("DATABASE_URL is not set (boardlog serve sets it up for you)")
    if config["REDIS_URL"]:
        from api.service.redis_connection import check_redis

        unavailable = check_redis(config["REDIS_URL"])  # Sentinels watching no such master: stops here
        if unavailable:
            log.warning("%s; requests are answered meanwhile as while Redis is down", unavailable)
    store = PostgresEventStore.connect(config["DATABASE_URL"], max_size=config["POOL_SIZE"], timeout=config["POOL_TIMEOUT"])
    redis = None
    scheduler = None
    if config["REDIS_URL"]:
        from api.service.redis_connection import redis_client
        from api.service.scheduling import RQScheduler

        # A Redis that hangs instead of refusing must fail like one that is down
        # (rate limits and stream caps let requests through, the sweeper re-makes
        # jobs), not hold requests: explicit, since the redis-py versions we allow
        # differ in their default (none at all in older ones).
        redis = redis_client(config["REDIS_URL"], socket_connect_timeout=REDIS_TIMEOUT, socket_timeout=REDIS_TIMEOUT)
        scheduler = RQScheduler(redis)
    service = GameService(store, scheduler)
    try:
        service.signer.current()  # the signing key is made (or the operator's read) at start, not on a first answer
    except psycopg.Error as error:
        # A process boots without PostgreSQL, or before gunicorn's master has
        # migrated it ("PostgreSQL restarts and outages"): the key is then made
        # or read by the first answer that needs it. A bad key file still stops the start.
        log.warning("the signing key will be loaded once PostgreSQL answers (%s)", type(error).__name__)
    return service, redis
