"""The mails boardlog sends: the messages only (sending is the notifier's,
workers/notify/smtp.py).

Each "your turn" mail has a plain-text and an HTML part and a one-click
unsubscribe (RFC 8058: ``List-Unsubscribe`` with an https/http URL, and
``List-Unsubscribe-Post: List-Unsubscribe=One-Click``). Its links to games
are made by the caller (api/service/signin.py: each signs its player in
once, with a code in the URL's fragment).
"""

from __future__ import annotations

import datetime as dt
import html
from email.message import EmailMessage
from email.utils import make_msgid

from domain.games import title_of


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
    game = title_of(payload["game"])
    text = (f"It is your turn in {game}.\n\n"
            f"Play: {game_link}\n\nNo more of these mails: {unsubscribe}\n")
    body = (f"<p>It is your turn in <b>{html.escape(game)}</b>.</p>"
            f"<p><a href=\"{html.escape(game_link)}\">Open the game</a></p>"
            f"<p style=\"font-size:small\"><a href=\"{html.escape(unsubscribe)}\">Unsubscribe</a></p>")
    message = _message(sender, to, f"Your turn in {game}", text, body)
    return _unsubscribable(message, unsubscribe)


def reminder(sender: str, to: str, payload: dict, game_link: str, unsubscribe: str) -> EmailMessage:
    """A reminder before a deadline: its sentence (which game, how long is
    left, what the deadline does) and the game's link."""
    data = payload["data"]
    text = f"{data['text']}\n\nPlay: {game_link}\n\nNo more of these mails: {unsubscribe}\n"
    body = (f"<p>{html.escape(data['text'])}</p><p><a href=\"{html.escape(game_link)}\">Open the game</a></p>"
            f"<p style=\"font-size:small\"><a href=\"{html.escape(unsubscribe)}\">Unsubscribe</a></p>")
    subject = f"Reminder: your turn in {title_of(data['game'])} ends in {data['text'].split(' left', 1)[0]}"
    return _unsubscribable(_message(sender, to, subject, text, body), unsubscribe)


def proposal(sender: str, to: str, payload: dict, game_link: str, unsubscribe: str) -> EmailMessage:
    """A proposal to end a game, to another of its players: its sentence (who,
    which ending, where to answer) and the game's link, which signs him in."""
    text = f"{payload['data']['text']}\n\nAnswer: {game_link}\n\nNo more of these mails: {unsubscribe}\n"
    body = (f"<p>{html.escape(payload['data']['text'])}</p><p><a href=\"{html.escape(game_link)}\">Accept or decline"
            f"</a></p><p style=\"font-size:small\"><a href=\"{html.escape(unsubscribe)}\">Unsubscribe</a></p>")
    subject = f"A proposal to end your game of {title_of(payload.get('game'))}"
    return _unsubscribable(_message(sender, to, subject, text, body), unsubscribe)


def digest(sender: str, to: str, games: list[dict], links: dict[str, str], unsubscribe: str,
           unread: list[dict] | None = None) -> EmailMessage:
    """The day's summary: the games that wait on the player, and how many
    messages wait unread in each of his games (``unread``: id, game, count),
    never the messages themselves: table talk reaches mail only so. A game
    whose seat's deadline falls before the next digest (a day on:
    ``deadline_soon``) says when, and the subject counts them.
    ``links``: each game's link by its id (one per game: a game both waiting
    and with unread messages is one link, and it signs in once)."""
    unread = unread or []
    parts, items = [], []

    def item(text: str, game_id) -> str:
        return f"<li><a href=\"{html.escape(links[str(game_id)])}\">{text}</a></li>"

    def soon(g: dict) -> str:
        if not g.get("deadline_soon"):
            return ""
        when = g["deadline"].astimezone(dt.timezone.utc)
        return f", deadline {when:%Y-%m-%d %H:%M} UTC, before your next digest"

    if games:
        lines = [f"- {title_of(g['game'])}{soon(g)}: {links[str(g['id'])]}" for g in games]
        parts.append(f"{len(games)} game(s) wait on you:\n\n" + "\n".join(lines))
        items.append(f"<p>{len(games)} game(s) wait on you:</p><ul>"
                     + "".join(item(f"{html.escape(title_of(g['game']))}{soon(g)}", g["id"])
                               for g in games) + "</ul>")
    if unread:
        count = sum(u["count"] for u in unread)
        lines = [f"- {u['count']} in {title_of(u['game'])}: {links[str(u['id'])]}" for u in unread]
        parts.append(f"{count} unread message(s):\n\n" + "\n".join(lines))
        items.append(f"<p>{count} unread message(s):</p><ul>"
                     + "".join(item(f"{u['count']} in {html.escape(title_of(u['game']))}", u["id"]) for u in unread) + "</ul>")
    urgent = sum(1 for g in games if g.get("deadline_soon"))
    subject = " and ".join(([f"{len(games)} game(s) wait on you"] if games else [])
                           + ([f"{urgent} deadline(s) before your next digest"] if urgent else [])
                           + ([f"{sum(u['count'] for u in unread)} unread message(s)"] if unread else []))
    text = "\n\n".join(parts) + f"\n\nNo more of these mails: {unsubscribe}\n"
    body = "".join(items) + f"<p><a href=\"{html.escape(unsubscribe)}\">Unsubscribe</a></p>"
    return _unsubscribable(_message(sender, to, subject[:1].upper() + subject[1:], text, body), unsubscribe)
