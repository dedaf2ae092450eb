"""E-mail through SMTP (BOARDLOG_SMTP_URL): sending the messages
api/service/mail.py builds.

URL forms: ``smtp://[user:password@]host[:port]`` (plain, or STARTTLS with
``?starttls=1``) and ``smtps://...`` (TLS from the start).
"""

from __future__ import annotations

import smtplib
from email.message import EmailMessage
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
