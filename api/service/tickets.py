"""Stream tickets: a browser's EventSource cannot send an Authorization
header, so a client trades its bearer token for a ticket that is random,
stored as a sha256, valid for ``TICKET_SECONDS`` and spent once (the
spending DELETE is atomic, so two processes cannot both accept one).
A URL carrying a ticket is worthless a minute later or once used.

A ticket remembers the token it was issued for: once that token is
revoked (alone or with all the player's), the ticket opens nothing, and a
stream it opened ends (api/streaming.py). A request is checked first
(``holder``) and the ticket spent (``spend``) only when its stream starts:
a request refused before that (an unknown game, a resume point beyond the
game, the player's stream cap) leaves the ticket usable."""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass

from .errors import Unauthorized
from .players import hash_token

TICKET_SECONDS = 60
PREFIX = "st_"
_GET_STARTED = "get a new one with POST /v1/stream-tickets"


@dataclass(frozen=True)
class Holder:
    """Who a ticket opens a stream for, and with which token (None: a ticket
    issued before tickets named their token)."""

    player: str
    token_id: str | None


def issue(pool, player: str, token_id: str | None) -> tuple[str, dt.datetime]:
    ticket = PREFIX + secrets.token_urlsafe(32)
    with pool.connection() as conn:
        expires_at = conn.execute(
            "insert into stream_tickets (ticket_sha256, player_id, token_id, expires_at)"
            " values (%s, %s, %s, now() + make_interval(secs => %s)) returning expires_at",
            (hash_token(ticket), player, token_id, TICKET_SECONDS),
        ).fetchone()[0]
        # Tickets never redeemed would pile up: forget those long expired.
        conn.execute("delete from stream_tickets where expires_at < now() - interval '1 hour'")
    return ticket, expires_at


_STATE = """
    select t.player_id, t.token_id, t.expires_at > now(), t.token_id is null or k.revoked_at is null
    from stream_tickets t left join player_tokens k on k.id = t.token_id
    where t.ticket_sha256 = %s
"""


def holder(pool, ticket: str) -> Holder:
    """The ticket's player and token, the ticket left unspent; Unauthorized
    if it is unknown (forged), already used, expired or its token revoked."""
    _check_form(ticket)
    with pool.connection() as conn:
        row = conn.execute(_STATE, (hash_token(ticket),)).fetchone()
    return _usable(row)


def spend(pool, ticket: str) -> Holder:
    """The same, and the ticket is spent: call it when the stream starts."""
    _check_form(ticket)
    digest = hash_token(ticket)
    with pool.connection() as conn:
        row = conn.execute(
            "delete from stream_tickets t where ticket_sha256 = %s and expires_at > now()"
            " and (token_id is null or exists (select 1 from player_tokens k"
            "                                  where k.id = t.token_id and k.revoked_at is null))"
            " returning player_id, token_id",
            (digest,),
        ).fetchone()
        if row is None:  # say why: state of what is left, if anything
            _usable(conn.execute(_STATE, (digest,)).fetchone())
            raise Unauthorized(f"this stream ticket was used meanwhile; {_GET_STARTED}", kind="ticket-invalid")
    return Holder(str(row[0]), None if row[1] is None else str(row[1]))


def _check_form(ticket: str) -> None:
    if not ticket.startswith(PREFIX) or len(ticket) > 100:
        raise Unauthorized(f"this is not a stream ticket; {_GET_STARTED}", kind="ticket-invalid")


def _usable(row) -> Holder:
    if row is None:
        raise Unauthorized(f"unknown or already used stream ticket: a ticket opens one stream; {_GET_STARTED}",
                           kind="ticket-invalid")
    player, token_id, live, token_live = row
    if not token_live:
        raise Unauthorized(f"the token this stream ticket was issued for has been revoked; sign in again and "
                           f"{_GET_STARTED}", kind="ticket-invalid")
    if not live:
        raise Unauthorized(f"this stream ticket has expired (tickets last {TICKET_SECONDS} s); {_GET_STARTED}",
                           kind="ticket-invalid")
    return Holder(str(player), None if token_id is None else str(token_id))
