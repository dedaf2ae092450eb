"""The Flask application factory."""

from __future__ import annotations

import logging
import os
import time
import uuid

import psycopg
from flask import Flask, g, request
from apispec.ext.marshmallow import MarshmallowPlugin
from flask_smorest import Api
from werkzeug.exceptions import BadRequest, HTTPException, UnsupportedMediaType

from domain import games as registry
from domain.engine import IllegalCommand

from . import errors, game_schemas
from .auth import SECURITY_SCHEME
from .context import Boardlog
from .limits import RateLimiter
from .service.errors import InvalidRequest, ServiceError
from .service.games import GameService

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
        "REDIS_URL": env.get("REDIS_URL"),
        "CORS_ORIGINS": env.get("BOARDLOG_CORS_ORIGINS", "*"),
        "RATE_LIMIT_PER_MINUTE": int(env.get("BOARDLOG_RATE_LIMIT", "1200")),
        "MAX_CONTENT_LENGTH": int(env.get("BOARDLOG_MAX_BODY", str(64 * 1024))),
        "POOL_SIZE": int(env.get("BOARDLOG_POOL_SIZE", "10")),
    }
    config.update(overrides or {})
    return config


def create_app(config: dict | None = None, service: GameService | None = None, redis=None, offline: bool = False) -> Flask:
    """``offline``: no database at all, only to write the OpenAPI document."""
    app = Flask("boardlog")
    app.config.update(settings(config))
    app.config.update(
        API_TITLE="boardlog",
        API_VERSION="1.0.0",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/v1",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="docs",
        OPENAPI_SWAGGER_UI_URL="https://cdn.jsdelivr.net/npm/swagger-ui-dist/",
        API_SPEC_OPTIONS={
            "info": {
                "description": "Turn-based board games with hidden information. Every action is an event; "
                "each player sees only what that player may see. Errors are application/problem+json.",
            },
            "components": {"securitySchemes": {"bearerAuth": SECURITY_SCHEME}},
        },
    )
    if service is None and not offline:
        service, redis = _connect(app.config)
    api = BoardlogApi(app, spec_kwargs={"marshmallow_plugin": MarshmallowPlugin(schema_name_resolver=schema_name)})
    app.extensions["boardlog"] = Boardlog(service=service, redis=redis, api=api)
    _document_games(api)

    from .resources import audit, catalogue, games, health, notifications, play, players, webhooks

    for blueprint in (players.blp, catalogue.blp, games.blp, play.blp, audit.blp):
        api.register_blueprint(blueprint)
    for blueprint in (webhooks.blp, notifications.blp, notifications.links):
        api.register_blueprint(blueprint)
    app.register_blueprint(health.blp)

    limiter = RateLimiter(redis, app.config["RATE_LIMIT_PER_MINUTE"])
    app.register_error_handler(HTTPException, errors.from_http_exception)
    app.register_error_handler(ServiceError, errors.from_service_error)
    app.register_error_handler(IllegalCommand, errors.from_illegal_command)
    app.register_error_handler(psycopg.OperationalError, errors.from_database_unavailable)
    app.register_error_handler(Exception, errors.from_unexpected)

    @app.before_request
    def _before():
        g.started = time.perf_counter()
        g.request_id = request.headers.get("X-Request-Id") or uuid.uuid4().hex
        if request.method == "OPTIONS":
            return None
        limited = limiter.check(request)
        if limited is not None:
            return limited
        chunked = "chunked" in request.headers.get("Transfer-Encoding", "").lower()
        if request.method in ("POST", "PUT", "PATCH") and (request.content_length or chunked):
            if not request.is_json and request.endpoint not in notifications.FORM_ENDPOINTS:
                raise UnsupportedMediaType("send the body as application/json")
            if request.is_json and _unstorable(_json_body()):
                raise InvalidRequest("text may not contain NUL (\\u0000) characters or unpaired surrogates")
        if _unstorable(list(request.args.items(multi=True))):
            raise InvalidRequest("the query may not contain NUL (%00) characters or unpaired surrogates")
        return None

    @app.after_request
    def _after(response):
        _cors(app, response)
        response.headers["X-Request-Id"] = g.get("request_id", "")
        if log.isEnabledFor(logging.INFO):
            elapsed = (time.perf_counter() - g.get("started", time.perf_counter())) * 1000
            log.info("%s %s %s %.1fms player=%s", request.method, request.full_path.rstrip("?"),
                     response.status_code, elapsed, g.get("player"))
        return response

    return app


MAX_JSON_DEPTH = 32


def _json_body():
    """The request's JSON; decoding one nested too deeply for the stack is a 400."""
    try:
        return request.get_json(silent=True)
    except RecursionError:
        raise _too_deep() from None


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


def _cors(app, response) -> None:
    allowed = [origin.strip() for origin in app.config["CORS_ORIGINS"].split(",") if origin.strip()]
    origin = request.headers.get("Origin")
    if not origin or not allowed:
        return
    if "*" in allowed:
        response.headers["Access-Control-Allow-Origin"] = "*"
    elif origin in allowed:
        response.headers["Access-Control-Allow-Origin"] = origin
        response.headers["Vary"] = "Origin"
    else:
        return
    response.headers["Access-Control-Allow-Headers"] = "Authorization, Content-Type, If-Match, If-None-Match, Idempotency-Key"
    response.headers["Access-Control-Allow-Methods"] = "GET, POST, PATCH, DELETE, OPTIONS"
    response.headers["Access-Control-Expose-Headers"] = "ETag, Location, Retry-After, X-Request-Id"
    response.headers["Access-Control-Max-Age"] = "600"


def _document_games(api: Api) -> None:
    """Every game's commands and view as named schemas; the command body is
    any one of them, told apart by ``type``."""
    refs = []
    for name in sorted(registry.REGISTRY):
        for schema in game_schemas.command_schemas(name).values():
            api.spec.components.schema(schema.__name__, schema=schema)
            refs.append({"$ref": f"#/components/schemas/{schema.__name__}"})
        view = game_schemas.view_schema(name)
        api.spec.components.schema(view.__name__, schema=view)
    api.spec.components.schema("Command", {"anyOf": refs} if refs else {"type": "object"})


def _connect(config):
    from eventstore import PostgresEventStore, migrate

    if not config["DATABASE_URL"]:
        raise RuntimeError("DATABASE_URL is not set (boardlog serve sets it up for you)")
    migrate(config["DATABASE_URL"])
    store = PostgresEventStore.connect(config["DATABASE_URL"], max_size=config["POOL_SIZE"])
    redis = None
    scheduler = None
    if config["REDIS_URL"]:
        from redis import Redis

        from workers.scheduling import RQScheduler

        redis = Redis.from_url(config["REDIS_URL"])
        scheduler = RQScheduler(redis)
    return GameService(store, scheduler), redis
