"""A player's webhook endpoints, their delivery logs, redelivery."""

from __future__ import annotations

import marshmallow as ma
from flask.views import MethodView
from flask_smorest import Blueprint

from ..auth import BEARER, current_player
from ..context import service
from ..contract import declare
from ..http_conventions import next_page
from ..service import notifications as accounts
from ..service import webhook_signatures
from ..service import webhook_targets as targets
from ..service.errors import InvalidRequest
from ..service.settings import settings

blp = Blueprint("webhooks", __name__, url_prefix="/v1/players/me/webhooks",
                description="Webhooks: server-to-server notifications, signed as Standard Webhooks say")



# http(s) only, as targets.check_url_form says (its scheme in any case), and no NUL or lone surrogate.
URL_PATTERN = r"^[Hh][Tt][Tt][Pp][Ss]?://[^\u0000\ud800-\udfff]*$"


def _check_url(url: str) -> None:
    problem = targets.check_url_form(url) or targets.literal_refused(url, settings().allow_private_targets)
    if problem:
        raise InvalidRequest(problem, errors={"url": [problem]})


class WebhookInSchema(ma.Schema):
    url = ma.fields.String(required=True, validate=ma.validate.Length(min=1, max=targets.MAX_URL_LENGTH),
                           metadata={"example": "https://chat.example/hooks/boardlog", "format": "uri",
                                     "pattern": URL_PATTERN,
                                     "description": "an http:// or https:// URL (any other scheme is refused)"})
    kinds = ma.fields.List(ma.fields.String(validate=ma.validate.OneOf(accounts.WEBHOOK_KINDS)),
                           load_default=list(accounts.WEBHOOK_KINDS), validate=ma.validate.Length(min=1),
                           metadata={"description": "the notification kinds to send (default: all)"})


class WebhookSchema(ma.Schema):
    id = ma.fields.UUID(required=True)
    url = ma.fields.String(required=True)
    kinds = ma.fields.List(ma.fields.String(), required=True)
    enabled = ma.fields.Boolean(required=True)
    disabled_at = ma.fields.DateTime(allow_none=True, required=True)
    disabled_reason = ma.fields.String(allow_none=True, required=True,
                                       metadata={"description": "why boardlog stopped sending to it"})
    consecutive_failures = ma.fields.Integer(required=True)
    created_at = ma.fields.DateTime(required=True)


class NewWebhookSchema(WebhookSchema):
    secret = ma.fields.String(required=True, metadata={
        "description": "the signing secret (whsec_...), shown only this once: verify each delivery's "
                       "webhook-signature with it (Standard Webhooks)"})


class WebhookListSchema(ma.Schema):
    webhooks = ma.fields.List(ma.fields.Nested(WebhookSchema), required=True)


class AttemptSchema(ma.Schema):
    attempt = ma.fields.Integer(required=True)
    at = ma.fields.DateTime(required=True)
    status_code = ma.fields.Integer(allow_none=True, required=True)
    error = ma.fields.String(allow_none=True, required=True)
    duration_ms = ma.fields.Integer(required=True)


class DeliverySchema(ma.Schema):
    id = ma.fields.Integer(required=True)
    notification_id = ma.fields.String(required=True, metadata={"description": "the webhook-id header it is sent with"})
    kind = ma.fields.String(required=True)
    game_id = ma.fields.UUID(required=True)
    version = ma.fields.Integer(required=True)
    status = ma.fields.String(required=True, metadata={
        "description": "pending, delivered, dead (gave up: a dead letter), or suppressed (a mail not sent; reason says why)"})
    attempts = ma.fields.Integer(required=True)
    next_attempt_at = ma.fields.DateTime(allow_none=True, required=True)
    last_status = ma.fields.Integer(allow_none=True, required=True)
    last_error = ma.fields.String(allow_none=True, required=True)
    reason = ma.fields.String(allow_none=True, required=True)
    delivered_at = ma.fields.DateTime(allow_none=True, required=True)
    created_at = ma.fields.DateTime(required=True)
    log = ma.fields.List(ma.fields.Nested(AttemptSchema), required=True, metadata={"description": "every attempt"})


class DeliveryListSchema(ma.Schema):
    deliveries = ma.fields.List(ma.fields.Nested(DeliverySchema), required=True)


class DeliveryArgs(ma.Schema):
    status = ma.fields.String(validate=ma.validate.OneOf(("pending", "delivered", "suppressed", "dead")),
                              metadata={"description": "only these; dead = the dead letters"})
    limit = ma.fields.Integer(load_default=50, validate=ma.validate.Range(1, 500))
    before = ma.fields.Integer(validate=ma.validate.Range(1, 2**62), metadata={"description": "page: ids below this"})


def next_page_of_deliveries(args: dict, rows: list[dict]) -> dict:
    """A full page links the next one: the ids below its last (newest first)."""
    return next_page(args, before=rows[-1]["id"]) if len(rows) == args["limit"] else {}


class RedeliverySchema(ma.Schema):
    id = ma.fields.Integer(required=True)
    status = ma.fields.String(required=True)


def _conn():
    return service().pool.connection()


@blp.route("")
class Webhooks(MethodView):
    @blp.doc(operationId="createWebhook", security=BEARER)
    @blp.arguments(WebhookInSchema)
    @blp.response(201, NewWebhookSchema)
    @declare(blp, "too-many-webhooks")
    def post(self, body):
        """Add a webhook endpoint; the answer shows its signing secret, once."""
        player = current_player()
        _check_url(body["url"])
        with _conn() as conn:
            return accounts.create_webhook(conn, player, body["url"], body["kinds"], webhook_signatures.new_secret())

    @blp.doc(operationId="listWebhooks", security=BEARER)
    @blp.response(200, WebhookListSchema)
    def get(self):
        """Your webhook endpoints, with why any was disabled."""
        player = current_player()
        with _conn() as conn:
            return {"webhooks": accounts.webhooks(conn, player)}


@blp.route("/<uuid:webhook_id>")
class Webhook(MethodView):
    @blp.doc(operationId="getWebhook", security=BEARER)
    @blp.response(200, WebhookSchema)
    @declare(blp, "webhook-not-found")
    def get(self, webhook_id):
        """One webhook endpoint."""
        player = current_player()
        with _conn() as conn:
            return accounts.webhook(conn, player, webhook_id)

    @blp.doc(operationId="deleteWebhook", security=BEARER)
    @blp.response(204)
    @declare(blp, "webhook-not-found")
    def delete(self, webhook_id):
        """Delete a webhook endpoint; what it still had to send is dropped."""
        player = current_player()
        with _conn() as conn:
            accounts.delete_webhook(conn, player, webhook_id)
        return None


@blp.route("/<uuid:webhook_id>/enable")
class EnableWebhook(MethodView):
    @blp.doc(operationId="enableWebhook", security=BEARER)
    @blp.response(200, WebhookSchema)
    @declare(blp, "webhook-not-found")
    def post(self, webhook_id):
        """Enable again a webhook that was disabled for failing."""
        player = current_player()
        with _conn() as conn:
            return accounts.enable_webhook(conn, player, webhook_id)


@blp.route("/<uuid:webhook_id>/deliveries")
class Deliveries(MethodView):
    @blp.doc(operationId="listWebhookDeliveries", security=BEARER)
    @blp.arguments(DeliveryArgs, location="query")
    @blp.response(200, DeliveryListSchema)
    @declare(blp, "webhook-not-found")
    def get(self, args, webhook_id):
        """The delivery log: newest first, each with every attempt and its status code."""
        player = current_player()
        with _conn() as conn:
            rows = accounts.deliveries(conn, player, webhook_id, args.get("status"), args["limit"],
                                       args.get("before"))
        return {"deliveries": rows}, 200, next_page_of_deliveries(args, rows)


@blp.route("/<uuid:webhook_id>/deliveries/<int:delivery_id>/redeliver")
class Redeliver(MethodView):
    @blp.doc(operationId="redeliverWebhookDelivery", security=BEARER)
    @blp.response(202, RedeliverySchema)
    @declare(blp, "webhook-not-found", "delivery-not-found", "delivery-pending", "webhook-disabled")
    def post(self, webhook_id, delivery_id):
        """Send a delivery again (a dead letter, or one delivered already), with the same webhook-id."""
        player = current_player()
        with _conn() as conn:
            return accounts.redeliver(conn, player, webhook_id, delivery_id)
