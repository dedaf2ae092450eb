"""A player's webhook endpoints, their delivery logs, redelivery."""

from __future__ import annotations

import marshmallow as ma
from flask.views import MethodView
from flask_smorest import Blueprint

from ..auth import BEARER, current_player
from ..context import service
from ..contract import declare
from ..http_conventions import next_page
from ..idempotency import idempotent
from ...service import notifications as accounts
from ...service import webhook_signatures
from ...service import webhook_targets as targets
from ...service.errors import InvalidRequest
from ...service.settings import settings

blp = Blueprint("webhooks", __name__, url_prefix="/v1/players/me/webhooks",
                description="Webhooks: server-to-server notifications, signed as Standard Webhooks say")



# http(s) only, as targets.check_url_form says (its scheme in any case), and no NUL or lone surrogate.
URL_PATTERN = r"^[Hh][Tt][Tt][Pp][Ss]?://[^\u0000\ud800-\udfff]*$"


def _check_url(url: str) -> None:
    problem = targets.check_url_form(url) or targets.literal_refused(url, settings().allow_private_targets)
    if problem:
        raise InvalidRequest(problem, errors={"url": [problem]})


class WebhookInSchema(ma.Schema):
    """A webhook endpoint to add."""

    url = ma.fields.String(required=True, validate=ma.validate.Length(min=1, max=targets.MAX_URL_LENGTH),
                           metadata={"example": "https://chat.example/hooks/boardlog", "format": "uri",
                                     "pattern": URL_PATTERN,
                                     "description": "an http:// or https:// URL (any other scheme is refused)"})
    kinds = ma.fields.List(ma.fields.String(validate=ma.validate.OneOf(accounts.WEBHOOK_KINDS)),
                           load_default=list(accounts.WEBHOOK_KINDS), validate=ma.validate.Length(min=1),
                           metadata={"description": "the notification kinds to send (default: all)"})


class WebhookSchema(ma.Schema):
    """One of your webhook endpoints."""

    id = ma.fields.UUID(required=True, metadata={"description": "the webhook's id, as in /v1/players/me/webhooks/{id}"})
    url = ma.fields.String(required=True, metadata={"description": "where boardlog POSTs the notifications"})
    kinds = ma.fields.List(ma.fields.String(), required=True, metadata={
        "description": "the notice kinds sent to it (turn, started, ...: as Notice.kind)"})
    enabled = ma.fields.Boolean(required=True, metadata={
        "description": "boardlog sends to it; false once it was disabled for failing (POST .../enable)"})
    disabled_at = ma.fields.DateTime(allow_none=True, required=True, metadata={
        "description": "when boardlog disabled it (UTC); null while enabled"})
    disabled_reason = ma.fields.String(allow_none=True, required=True,
                                       metadata={"description": "why boardlog stopped sending to it"})
    consecutive_failures = ma.fields.Integer(required=True, metadata={
        "description": "its failed attempts in a row, across its deliveries: a success or enabling it resets "
                       "the count, and at BOARDLOG_WEBHOOK_DISABLE_AFTER (20 by default) it is disabled"})
    created_at = ma.fields.DateTime(required=True, metadata={"description": "when you added it (UTC)"})


class NewWebhookSchema(WebhookSchema):
    """A webhook endpoint just added, with its signing secret (shown this once)."""

    secret = ma.fields.String(required=True, metadata={
        "description": "the signing secret (whsec_...), shown only this once: verify each delivery's "
                       "webhook-signature with it (Standard Webhooks)"})


class WebhookListSchema(ma.Schema):
    """Your webhook endpoints."""

    webhooks = ma.fields.List(ma.fields.Nested(WebhookSchema), required=True,
                              metadata={"description": "each endpoint, oldest first"})


class AttemptSchema(ma.Schema):
    """One attempt to send a delivery."""

    attempt = ma.fields.Integer(required=True, metadata={
        "description": "its number in its round of attempts, from 1 (a redelivery starts a new round)"})
    at = ma.fields.DateTime(required=True, metadata={"description": "when it was made (UTC)"})
    status_code = ma.fields.Integer(allow_none=True, required=True, metadata={
        "description": "the receiver's HTTP status (250 for a mail the mail server accepted); null when no answer "
                       "came (connection refused, TLS, timeout, a target refused)"})
    error = ma.fields.String(allow_none=True, required=True, metadata={
        "description": "why it failed, in a few words (HTTP 500, the connection's error, ...); null when it succeeded"})
    duration_ms = ma.fields.Integer(required=True, metadata={"description": "how long it took, in milliseconds"})


class DeliverySchema(ma.Schema):
    """One notification to send to one target (a webhook endpoint or your address), and how its sending went."""

    id = ma.fields.Integer(required=True, metadata={
        "description": "the delivery's id: .../deliveries/{id}/redeliver sends it again, ?before= pages by it"})
    notification_id = ma.fields.String(required=True, metadata={"description": "the webhook-id header it is sent with"})
    kind = ma.fields.String(required=True, metadata={
        "description": "the notice's kind (turn, started, ...: as Notice.kind)"})
    game_id = ma.fields.UUID(required=True, metadata={"description": "the game it is about"})
    version = ma.fields.Integer(required=True, metadata={"description": "the game's version it is about"})
    status = ma.fields.String(required=True, metadata={
        "description": "pending, delivered, dead (gave up: a dead letter), or suppressed (a mail not sent; reason says why)"})
    attempts = ma.fields.Integer(required=True, metadata={
        "description": "attempts made in this round (a redelivery starts again from 0); it is dead after the last "
                       "(8 by default: one more than the waits of BOARDLOG_NOTIFY_BACKOFF)"})
    next_attempt_at = ma.fields.DateTime(allow_none=True, required=True, metadata={
        "description": "when it is tried next (UTC); null unless pending"})
    last_status = ma.fields.Integer(allow_none=True, required=True, metadata={
        "description": "the status code of the latest attempt that had one (as Attempt.status_code); null before"})
    last_error = ma.fields.String(allow_none=True, required=True, metadata={
        "description": "why the latest attempt failed, or why it was given up (the endpoint was deleted or "
                       "disabled); null after a success"})
    reason = ma.fields.String(allow_none=True, required=True, metadata={
        "description": "why it was not sent: a mail suppressed (no confirmed address, the throttle, you were "
                       "active) or a delivery dropped with its endpoint; null otherwise"})
    delivered_at = ma.fields.DateTime(allow_none=True, required=True, metadata={
        "description": "when the receiver accepted it (UTC); null unless delivered"})
    created_at = ma.fields.DateTime(required=True, metadata={"description": "when it was queued (UTC)"})
    log = ma.fields.List(ma.fields.Nested(AttemptSchema), required=True, metadata={"description": "every attempt"})


class DeliveryListSchema(ma.Schema):
    """A page of a delivery log; a Link header names the next page."""

    deliveries = ma.fields.List(ma.fields.Nested(DeliverySchema), required=True,
                                metadata={"description": "this page, newest first, each with every attempt"})


class DeliveryArgs(ma.Schema):
    status = ma.fields.String(validate=ma.validate.OneOf(("pending", "delivered", "suppressed", "dead")),
                              metadata={"description": "only these; dead = the dead letters"})
    limit = ma.fields.Integer(load_default=50, validate=ma.validate.Range(1, 500))
    before = ma.fields.Integer(validate=ma.validate.Range(1, 2**62), metadata={"description": "page: ids below this"})


def next_page_of_deliveries(args: dict, rows: list[dict]) -> dict:
    """A full page links the next one: the ids below its last (newest first)."""
    return next_page(args, before=rows[-1]["id"]) if len(rows) == args["limit"] else {}


class RedeliverySchema(ma.Schema):
    """A delivery queued again, with a fresh round of attempts."""

    id = ma.fields.Integer(required=True, metadata={"description": "the delivery's id"})
    status = ma.fields.String(required=True, metadata={"description": "pending: it waits to be sent again"})


def _conn():
    return service().pool.connection()


@blp.route("")
class Webhooks(MethodView):
    @idempotent
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
    @idempotent
    @blp.doc(operationId="redeliverWebhookDelivery", security=BEARER)
    @blp.response(202, RedeliverySchema)
    @declare(blp, "webhook-not-found", "delivery-not-found", "delivery-pending", "webhook-disabled")
    def post(self, webhook_id, delivery_id):
        """Send a delivery again (a dead letter, or one delivered already), with the same webhook-id."""
        player = current_player()
        with _conn() as conn:
            return accounts.redeliver(conn, player, webhook_id, delivery_id)
