"""The pages a mail's links land on in a browser: confirming an address and
unsubscribing answer a person with a page that says what happened and what
to do next, not with JSON. A client that asks for JSON (or for anything,
as scripts and mail clients' one-click POSTs do) still gets the API's answer.

Each page is plain HTML with no script (the links are opened from mail,
often in a browser with no session), styled by the web client's sheets."""

from __future__ import annotations

import html

from flask import Response, request

from ..context import service
from ...service.errors import Conflict, NotFound, ServiceError
from ...service.settings import settings

PAGE_POLICY = ("default-src 'none'; img-src 'self'; style-src 'self'; base-uri 'none'; form-action 'self'; "
               "frame-ancestors 'none'")

# What a person can do about each refusal of a link.
NEXT_STEP = {
    "link-unknown": "Check that the whole link was opened (a mail program may cut a long one), or ask for a new one "
                    "in your settings.",
    "link-used": "Nothing more is needed: the link already did its work. Your settings show where things stand.",
    "link-expired": "Give your address again in your settings: a new link is mailed to it.",
    "link-for-old-address": "Open the link of the newest confirmation mail, or give your address again in your "
                            "settings.",
}


def wants_html() -> bool:
    """Whether the caller is a browser: it prefers text/html to JSON."""
    accepted = request.accept_mimetypes
    return accepted["text/html"] > accepted["application/json"]


def answer(what: str, act, shown):
    """``act(conn)``'s answer: as it is for an API client; for a browser, the
    page ``shown`` makes of it, or the page of its refusal."""
    if not wants_html():
        with service().pool.connection() as conn:
            return act(conn)
    try:
        with service().pool.connection() as conn:
            return shown(act(conn))
    except ServiceError as error:
        return refused(what, error)


def _status(error: ServiceError) -> int:
    return 404 if isinstance(error, NotFound) else 409 if isinstance(error, Conflict) else 400


def page(title: str, paragraphs: list[str], status: int = 200) -> Response:
    """A page of escaped sentences, with links to the lobby and the settings."""
    base = settings().public_url
    body = "".join(f"<p>{html.escape(text)}</p>" for text in paragraphs)
    document = (
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        f"<title>{html.escape(title)} · boardlog</title>"
        "<link rel=\"icon\" href=\"/web/favicon.svg\" type=\"image/svg+xml\">"
        "<link rel=\"stylesheet\" href=\"/web/style.css\"><link rel=\"stylesheet\" href=\"/web/pages.css\">"
        f"</head><body><main id=\"main\"><h1>{html.escape(title)}</h1>{body}"
        f"<p><a href=\"{html.escape(base)}/#/settings\">Your mail settings</a> · "
        f"<a href=\"{html.escape(base)}/#/\">The lobby</a></p></main></body></html>")
    answer = Response(document, status=status, mimetype="text/html")
    # Its icon and stylesheets from here, no script, forms posted only here, never framed.
    answer.headers["Content-Security-Policy"] = PAGE_POLICY
    return answer


def refused(what: str, error: ServiceError) -> Response:
    """The page of a link that did nothing: why, in the service's sentence, and what to do."""
    reason = error.message[:1].upper() + error.message[1:] + "."
    return page(f"This {what} link did nothing", [reason, NEXT_STEP.get(error.kind, "")], _status(error))


def confirmed(answer: dict) -> Response:
    turns = {"off": "You asked for no \"your turn\" mails; change that in your settings.",
             "idle": "You get a mail when a game waits on you and you have not played in it for a few minutes.",
             "always": "You get a mail each time a game waits on you."}
    said = [f"boardlog will mail {answer['email']}.", turns.get(answer["email_turns"], "")]
    if answer.get("digest"):
        said[1] = "You get one mail a day listing the games that wait on you."
    return page("Your address is confirmed", said)


def unsubscribed(answer: dict) -> Response:
    return page("You are unsubscribed", [
        f"boardlog sends no more game mails to {answer['email']}: no \"your turn\" mails, no daily digest.",
        "You can turn them on again in your settings."])
