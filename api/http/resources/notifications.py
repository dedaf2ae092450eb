"""A player's notification preferences and e-mail address; the links the
mails carry (confirm an address, one-click unsubscribe)."""

from __future__ import annotations

import html

import marshmallow as ma
from flask import Response
from flask.views import MethodView
from flask_smorest import Blueprint

from ..auth import BEARER, current_player
from ..context import service
from ..contract import declare
from ..errors import problem
from ..idempotency import idempotent
from ...service import notifications as accounts
from ...service.settings import settings
from . import mail_pages
from .webhooks import DeliveryArgs, DeliveryListSchema, RedeliverySchema, next_page_of_deliveries

blp = Blueprint("notifications", __name__, url_prefix="/v1/players/me/notifications",
                description="Notification preferences: e-mail when it is your turn")
links = Blueprint("notification-links", __name__, url_prefix="/v1/notifications",
                  description="The links notification mails carry: confirm an address, unsubscribe")



def _mail_unavailable(error):
    return problem(503, error.message, kind=error.kind, headers={"Retry-After": "60"})


blp.register_error_handler(accounts.MailUnavailable, _mail_unavailable)


EMAIL_TURNS_TEXT = ("'your turn' mails: off; idle (only if you were not active in that game in the last "
                    "minutes; the default); always")
DIGEST_TEXT = "instead of a mail per turn, one mail a day listing the games waiting on you"


class PreferencesSchema(ma.Schema):
    """Your e-mail address and when boardlog mails you."""

    email = ma.fields.String(allow_none=True, required=True, metadata={
        "description": "the address boardlog mails; null when you gave none"})
    email_confirmed = ma.fields.Boolean(required=True, metadata={
        "description": "mail goes to the address only once you opened the confirmation link sent to it"})
    email_turns = ma.fields.String(required=True, metadata={"description": EMAIL_TURNS_TEXT})
    digest = ma.fields.Boolean(required=True, metadata={"description": DIGEST_TEXT})


class PreferencesPatchSchema(ma.Schema):
    """The preferences to change; those left out stay as they are."""

    email = ma.fields.String(allow_none=True, validate=ma.validate.Length(max=accounts.MAX_EMAIL_LENGTH), metadata={
        "description": "set (a confirmation link is mailed to it; setting it again resends one), or null to remove"})
    email_turns = ma.fields.String(validate=ma.validate.OneOf(accounts.EMAIL_TURNS),
                                   metadata={"description": EMAIL_TURNS_TEXT})
    digest = ma.fields.Boolean(metadata={"description": DIGEST_TEXT})

    @ma.validates("email")
    def _email(self, value, **_):
        if value is not None:
            try:
                accounts.check_email(value)
            except accounts.InvalidRequest as error:
                raise ma.ValidationError(error.message) from None


class TokenSchema(ma.Schema):
    token = ma.fields.String(required=True, validate=ma.validate.Length(min=1, max=200))


class ConfirmedSchema(PreferencesSchema):
    """Your preferences once the link confirmed your address: mail goes to it from now."""


class UnsubscribedSchema(ma.Schema):
    """What one-click unsubscribe left: no more game mails to the address."""

    email = ma.fields.String(required=True, metadata={"description": "the address the link was mailed to"})
    email_turns = ma.fields.String(required=True, metadata={"description": "off, now: no 'your turn' mails"})
    digest = ma.fields.Boolean(required=True, metadata={"description": "false, now: no daily digest"})


@blp.route("")
class Preferences(MethodView):
    @blp.doc(operationId="getNotificationPreferences", security=BEARER)
    @blp.response(200, PreferencesSchema)
    def get(self):
        """Your e-mail address and when boardlog mails you."""
        player = current_player()
        with service().pool.connection() as conn:
            return accounts.preferences(conn, player)

    @blp.doc(operationId="updateNotificationPreferences", security=BEARER)
    @blp.arguments(PreferencesPatchSchema)
    @blp.response(200, PreferencesSchema)
    @declare(blp, "mail-unavailable")
    def patch(self, changes):
        """Change your address (a confirmation link is mailed to it, soon after the answer) or your preferences."""
        player = current_player()
        with service().pool.connection() as conn:
            prefs = accounts.update_preferences(conn, player, changes, settings())
        return prefs


def _confirm(token: str):
    """The confirmed preferences; for a browser (the mail's link opened), a page saying so or why not."""
    return mail_pages.answer("confirmation", lambda conn: accounts.confirm(conn, token), mail_pages.confirmed)


@blp.route("/mail")
class MailDeliveries(MethodView):
    @blp.doc(operationId="listMailDeliveries", security=BEARER)
    @blp.arguments(DeliveryArgs, location="query")
    @blp.response(200, DeliveryListSchema)
    def get(self, args):
        """Your "your turn" mails, newest first: sent, skipped (with why: throttled, you were active...),
        pending, or dead (gave up); each with every attempt."""
        player = current_player()
        with service().pool.connection() as conn:
            rows = accounts.mail_deliveries(conn, player, args.get("status"), args["limit"], args.get("before"))
        return {"deliveries": rows}, 200, next_page_of_deliveries(args, rows)


@blp.route("/mail/<int:delivery_id>/redeliver")
class RedeliverMail(MethodView):
    @idempotent
    @blp.doc(operationId="redeliverMail", security=BEARER)
    @blp.response(202, RedeliverySchema)
    @declare(blp, "delivery-not-found", "delivery-pending")
    def post(self, delivery_id):
        """Send a mail again (a dead letter, say): the throttle and your preferences apply again."""
        player = current_player()
        with service().pool.connection() as conn:
            return accounts.redeliver_mail(conn, player, delivery_id)


@links.route("/confirm")
class Confirm(MethodView):
    @links.doc(operationId="confirmEmail")
    @links.arguments(TokenSchema, location="query", as_kwargs=True)
    @links.response(200, ConfirmedSchema)
    @declare(links, "link-unknown", "link-used", "link-expired", "link-for-old-address")
    def get(self, token):
        """Confirm an address: the link of the confirmation mail (works once, expires). A browser (one that
        prefers text/html) is answered with a page that says what happened and what to do next."""
        return _confirm(token)

    @links.doc(operationId="confirmEmailByPost")
    @links.arguments(TokenSchema, location="query", as_kwargs=True)
    @links.response(200, ConfirmedSchema)
    @declare(links, "link-unknown", "link-used", "link-expired", "link-for-old-address")
    def post(self, token):
        """The same as GET, for clients that prefer POST for changes."""
        return _confirm(token)


@links.route("/unsubscribe")
class Unsubscribe(MethodView):
    @links.doc(operationId="showUnsubscribe", responses={200: {"description": "a page with the button",
                                                              "content": {"text/html": {}}}})
    @links.arguments(TokenSchema, location="query", as_kwargs=True)
    def get(self, token):
        """The page the mail's unsubscribe link opens: one button, which POSTs. Changes nothing itself
        (mail scanners open links)."""
        page = ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
                "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>Unsubscribe · boardlog"
                "</title><link rel=\"icon\" href=\"/web/favicon.svg\" type=\"image/svg+xml\">"
                "<link rel=\"stylesheet\" href=\"/web/style.css\"></head><body><main id=\"main\">"
                "<h1>Unsubscribe</h1><form method=\"post\" action=\"?token=" + html.escape(token, quote=True)
                + "\"><input type=\"hidden\" name=\"List-Unsubscribe\" value=\"One-Click\">"
                "<p>Stop boardlog's game mails to this address?</p><button type=\"submit\">Unsubscribe</button>"
                "</form></main></body></html>")
        return Response(page, mimetype="text/html")

    @links.doc(operationId="unsubscribeFromMail")
    @links.arguments(TokenSchema, location="query", as_kwargs=True)
    @links.response(200, UnsubscribedSchema)
    @declare(links, "link-unknown", "link-used", "link-expired")
    def post(self, token):
        """One-click unsubscribe (RFC 8058): the mail client POSTs ``List-Unsubscribe=One-Click`` as a form.
        The page's button (a browser, preferring text/html) is answered with a page."""
        return mail_pages.answer("unsubscribe", lambda conn: accounts.unsubscribe(conn, token),
                                 mail_pages.unsubscribed)


# RFC 8058's one-click POST is a form, not JSON: the app lets it through (api/http/app.py).
FORM_ENDPOINTS = {"notification-links.Unsubscribe"}
