"""E-mail through SMTP (BOARDLOG_SMTP_URL): the messages, and sending them.

URL forms: ``smtp://[user:password@]host[:port]`` (plain, or STARTTLS with
``?starttls=1``) and ``smtps://...`` (TLS from the start). Each "your turn"
mail has a plain-text and an HTML part and a one-click unsubscribe (RFC 8058:
``List-Unsubscribe`` with an https/http URL, and ``List-Unsubscribe-Post:
List-Unsubscribe=One-Click``).
"""

from __future__ import annotations

import html
import smtplib
from email.message import EmailMessage
from email.utils import make_msgid
from urllib.parse import parse_qs, unquote, urlsplit


def send(smtp_url: str, message: EmailMessage, timeout: float = 10.0) -> None:
    parts = urlsplit(smtp_url)
    if parts.scheme not in ("smtp", "smtps"):
        raise ValueError(f"BOARDLOG_SMTP_URL must be smtp:// or smtps://, not {parts.scheme}://")
    query = parse_qs(parts.query)
    host = parts.hostname or "localhost"
    if parts.scheme == "smtps":
        client = smtplib.SMTP_SSL(host, parts.port or 465, timeout=timeout)
    else:
        client = smtplib.SMTP(host, parts.port or 25, timeout=timeout)
    with client:
        if parts.scheme == "smtp" and query.get("starttls", ["0"])[0] in ("1", "true", "yes"):
            client.starttls()
        if parts.username:
            client.login(unquote(parts.username), unquote(parts.password or ""))
        client.send_message(message)


def _message(sender: str, to: str, subject: str, text: str, body_html: str) -> EmailMessage:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    message["Message-ID"] = make_msgid(domain="boardlog")
    message.set_content(text)
    message.add_alternative(f"<!doctype html><html><body>{body_html}</body></html>", subtype="html")
    return message


def confirmation(sender: str, to: str, link: str, hours: float) -> EmailMessage:
    text = (f"Someone (we hope you) asked boardlog to send game notifications to this address.\n\n"
            f"Confirm it within {hours:g} hours by opening:\n{link}\n\n"
            f"If it was not you, ignore this mail: nothing will be sent.\n")
    body = (f"<p>Someone (we hope you) asked boardlog to send game notifications to this address.</p>"
            f"<p><a href=\"{html.escape(link)}\">Confirm this address</a> within {hours:g} hours.</p>"
            f"<p>If it was not you, ignore this mail: nothing will be sent.</p>")
    return _message(sender, to, "Confirm your address for boardlog", text, body)


def _unsubscribable(message: EmailMessage, unsubscribe: str) -> EmailMessage:
    message["List-Unsubscribe"] = f"<{unsubscribe}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    return message


def your_turn(sender: str, to: str, payload: dict, game_link: str, unsubscribe: str) -> EmailMessage:
    game, version, seat = payload["game"], payload["version"], payload.get("seat")
    text = (f"It is your turn in {game} (game {payload['game_id']}, version {version}, your seat {seat}).\n\n"
            f"Play: {game_link}\n\nNo more of these mails: {unsubscribe}\n")
    body = (f"<p>It is your turn in <b>{html.escape(game)}</b> (your seat {html.escape(str(seat))}, "
            f"version {version}).</p><p><a href=\"{html.escape(game_link)}\">Open the game</a></p>"
            f"<p style=\"font-size:small\"><a href=\"{html.escape(unsubscribe)}\">Unsubscribe</a></p>")
    message = _message(sender, to, f"Your turn in {game}", text, body)
    return _unsubscribable(message, unsubscribe)


def digest(sender: str, to: str, games: list[dict], base: str, unsubscribe: str) -> EmailMessage:
    lines = [f"- {g['game']} (game {g['id']}, version {g['version']}): {base}/v1/games/{g['id']}/view" for g in games]
    text = f"{len(games)} game(s) wait on you:\n\n" + "\n".join(lines) + f"\n\nNo more of these mails: {unsubscribe}\n"
    items = "".join(f"<li>{html.escape(g['game'])} (version {g['version']})</li>" for g in games)
    body = f"<p>{len(games)} game(s) wait on you:</p><ul>{items}</ul><p><a href=\"{html.escape(unsubscribe)}\">Unsubscribe</a></p>"
    return _unsubscribable(_message(sender, to, f"{len(games)} game(s) wait on you", text, body), unsubscribe)
