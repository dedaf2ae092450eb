"""A player's Web Push subscriptions (one per device) and the server's
VAPID public key that a page subscribes with (api/service/push.py)."""

from __future__ import annotations

import marshmallow as ma
from flask.views import MethodView
from flask_smorest import Blueprint

from ..auth import BEARER, current_player
from ..context import service
from ..contract import declare
from ..idempotency import idempotent
from ...service import push
from ...service import webhook_targets as targets
from ...service.settings import settings

blp = Blueprint("push", __name__, url_prefix="/v1",
                description="Web Push: notifications on your devices, through their browsers' push services")

B64URL = r"^[A-Za-z0-9_-]+={0,2}$"


class PushKeysSchema(ma.Schema):
    """The keys a browser made for this subscription (PushSubscription.toJSON().keys)."""

    p256dh = ma.fields.String(required=True, validate=ma.validate.Length(min=1, max=200), metadata={
        "pattern": B64URL, "description": "the browser's P-256 public key: 65 bytes (uncompressed point), base64url"})
    auth = ma.fields.String(required=True, validate=ma.validate.Length(min=1, max=100), metadata={
        "pattern": B64URL, "description": "the browser's authentication secret: 16 bytes, base64url"})


class BrowserSubscriptionSchema(ma.Schema):
    """A browser's push subscription, as PushSubscription.toJSON() gives it."""

    endpoint = ma.fields.String(required=True, validate=ma.validate.Length(min=1, max=targets.MAX_URL_LENGTH),
                                metadata={"format": "uri", "example": "https://push.example/send/abc",
                                          "description": "the push service's URL for this device (https://)"})
    keys = ma.fields.Nested(PushKeysSchema, required=True, metadata={
        "description": "the keys the browser made for this subscription, to encrypt each push for it (RFC 8291)"})
    expirationTime = ma.fields.Integer(allow_none=True, load_default=None, metadata={
        "description": "as the browser gives it; not used (a subscription lasts until its push service says "
                       "it is gone, or you remove it)"})


class PushSubscriptionInSchema(BrowserSubscriptionSchema):
    """A browser's push subscription, as PushSubscription.toJSON() gives it, with a label of your own."""

    label = ma.fields.String(load_default="this device", validate=ma.validate.Length(min=1, max=push.MAX_LABEL),
                             metadata={"description": "a name for the device, shown in your list (\"phone\")"})
    messages = ma.fields.Boolean(load_default=False, metadata={
        "description": "also push new table-talk messages (\"your turn\", reminders and \"game over\" always are)"})


class PushSubscriptionSchema(ma.Schema):
    """One of your devices that receives notifications."""

    id = ma.fields.UUID(required=True, metadata={"description": "its id, as in DELETE .../push-subscriptions/{id}"})
    endpoint = ma.fields.String(required=True, metadata={"description": "the push service's URL for the device"})
    label = ma.fields.String(required=True, metadata={"description": "the device's name, as you gave it"})
    messages = ma.fields.Boolean(required=True, metadata={"description": "new table-talk messages are pushed too"})
    created_at = ma.fields.DateTime(required=True, metadata={"description": "when it was added (UTC)"})


class PushSubscriptionAddedSchema(PushSubscriptionSchema):
    """The device just added, with the key its service worker renews it with."""

    renewal_key = ma.fields.String(required=True, metadata={
        "description": "a secret for this device's service worker to keep: when the browser replaces the "
                       "subscription on its own (the pushsubscriptionchange event, with no page or token at "
                       "hand), POST the new one with this key to /v1/push/renewals. Given once; adding the "
                       "device again gives a new one"})


class PushRenewalSchema(BrowserSubscriptionSchema):
    """A subscription the browser replaced on its own, with the device's renewal key."""

    renewal_key = ma.fields.String(required=True, validate=ma.validate.Length(min=1, max=200), metadata={
        "description": "the renewal_key given when the device was added"})


class PushSubscriptionListSchema(ma.Schema):
    """Your devices that receive notifications."""

    subscriptions = ma.fields.List(ma.fields.Nested(PushSubscriptionSchema), required=True,
                                   metadata={"description": "oldest first"})


class ApplicationServerKeySchema(ma.Schema):
    """The server's VAPID public key (RFC 8292)."""

    public_key = ma.fields.String(required=True, metadata={
        "pattern": B64URL, "description": "the uncompressed P-256 point, base64url: pass it as "
                                          "applicationServerKey to PushManager.subscribe()"})


@blp.route("/players/me/push-subscriptions")
class PushSubscriptions(MethodView):
    @idempotent(secret=True)
    @blp.doc(operationId="createPushSubscription", security=BEARER)
    @blp.arguments(PushSubscriptionInSchema)
    @blp.response(201, PushSubscriptionAddedSchema)
    @declare(blp, "too-many-push-subscriptions")
    def post(self, body):
        """Add a device: its pushes go to the push service's endpoint, encrypted for its keys."""
        player = current_player()
        endpoint = body["endpoint"]
        p256dh, auth = push.check_subscription(endpoint, body["keys"]["p256dh"], body["keys"]["auth"],
                                               settings().allow_private_targets)
        with service().pool.connection() as conn:
            return push.subscribe(conn, player, endpoint, p256dh, auth, body["label"], body["messages"])

    @blp.doc(operationId="listPushSubscriptions", security=BEARER)
    @blp.response(200, PushSubscriptionListSchema)
    def get(self):
        """Your devices that receive notifications."""
        with service().pool.connection() as conn:
            return {"subscriptions": push.subscriptions(conn, current_player())}


@blp.route("/players/me/push-subscriptions/<uuid:subscription_id>")
class PushSubscription(MethodView):
    @blp.doc(operationId="deletePushSubscription", security=BEARER)
    @blp.response(204)
    @declare(blp, "push-subscription-not-found")
    def delete(self, subscription_id):
        """Remove a device: nothing more is pushed to it."""
        with service().pool.connection() as conn:
            push.unsubscribe(conn, current_player(), subscription_id)
        return None


@blp.route("/push/renewals")
class PushRenewals(MethodView):
    @blp.doc(operationId="renewPushSubscription")
    @blp.arguments(PushRenewalSchema)
    @blp.response(200, PushSubscriptionSchema)
    @declare(blp, "push-renewal-key-unknown")
    def post(self, body):
        """Move a device to the subscription its browser replaced on its own: its renewal key is the
        credential (a service worker has no player's token)."""
        p256dh, auth = push.check_subscription(body["endpoint"], body["keys"]["p256dh"], body["keys"]["auth"],
                                               settings().allow_private_targets)
        with service().pool.connection() as conn:
            return push.renew(conn, body["renewal_key"], body["endpoint"], p256dh, auth)


@blp.route("/push/application-server-key")
class ApplicationServerKey(MethodView):
    @blp.doc(operationId="getPushApplicationServerKey")
    @blp.response(200, ApplicationServerKeySchema)
    def get(self):
        """The server's VAPID public key, which a page subscribes with (public: it signs, it hides nothing)."""
        return {"public_key": push.vapid_for(service().pool).public_key()}
