"""Stream tickets: a browser's EventSource cannot send an Authorization
header, so a client trades its bearer token for a ticket that is random,
stored as a sha256, valid for ``TICKET_SECONDS`` and redeemed once (the
redeeming DELETE is atomic, so two processes cannot both accept one).
A URL carrying a ticket is worthless a minute later or once used."""

from __future__ import annotations

import datetime as dt
import secrets

from .errors import Unauthorized
from .players import hash_token

TICKET_SECONDS = 60
PREFIX = "st_"


def issue(pool, player: str) -> tuple[str, dt.datetime]:
    ticket = PREFIX + secrets.token_urlsafe(32)
    with pool.connection() as conn:
        expires_at = conn.execute(
            "insert into stream_tickets (ticket_sha256, player_id, expires_at)"
            " values (%s, %s, now() + make_interval(secs => %s)) returning expires_at",
            (hash_token(ticket), player, TICKET_SECONDS),
        ).fetchone()[0]
        # Tickets never redeemed would pile up: forget those long expired.
        conn.execute("delete from stream_tickets where expires_at < now() - interval '1 hour'")
    return ticket, expires_at


def redeem(pool, ticket: str) -> str:
    """The ticket's player; the ticket is spent. Unauthorized if it is
    unknown (forged), already used or expired."""
    if not ticket.startswith(PREFIX) or len(ticket) > 100:
        raise Unauthorized("this is not a stream ticket; get one with POST /v1/stream-tickets", kind="ticket-invalid")
    with pool.connection() as conn:
        row = conn.execute(
            "delete from stream_tickets where ticket_sha256 = %s returning player_id, expires_at > now()",
            (hash_token(ticket),),
        ).fetchone()
    if row is None:
        raise Unauthorized("unknown or already used stream ticket: a ticket opens one stream; "
                           "get a new one with POST /v1/stream-tickets", kind="ticket-invalid")
    if not row[1]:
        raise Unauthorized(f"this stream ticket has expired (tickets last {TICKET_SECONDS} s); "
                           "get a new one with POST /v1/stream-tickets", kind="ticket-invalid")
    return str(row[0])
