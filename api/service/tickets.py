"""Stream tickets: a browser's EventSource cannot send an Authorization
header, so a client trades its bearer token for a ticket that is random,
stored as a sha256, valid for ``TICKET_SECONDS`` and spent once (the
spending DELETE is atomic, so two processes cannot both accept one).
A URL carrying a ticket is worthless a minute later or once used.

A ticket remembers the token it was issued for: once that token is
revoked (alone or with all the player's), the ticket opens nothing, and a
stream it opened ends (api/http/streaming.py). A request is checked first
(``check``) and the ticket spent (``spend``) only when its stream starts:
a request refused before that (an unknown game, a resume point beyond the
game, the player's stream cap) leaves the ticket usable.

With Redis, a ticket costs no PostgreSQL write (a herd of reconnecting
browsers each trades its token for a ticket), and opening a stream with it
costs no PostgreSQL read in the common case: it is signed, not stored,
``st_s.<player>.<token id>.<expiry>.<checked>.<nonce>.<HMAC-SHA256>`` under
a secret the API processes share in Redis (``boardlog:stream-ticket-secret``,
made once by whichever process needs it first; a process signs with the one
it read within ``ISSUING_SECRET_SECONDS`` and checks with the one it read
within ``TICKET_SECONDS``, reading it again for a ticket that matches
neither). ``checked`` is when the issuing process last read the token from
PostgreSQL and found it live (api/service/players.py caches a token for
BOARDLOG_TOKEN_CACHE_SECONDS). It is as strong as a stored one: forging one
needs the secret; it expires 60 s after issue; spending it is a Redis
``SET NX`` on its nonce that lives as long as the ticket could, so it opens
one stream; its token is checked against revocation once, when the stream
opens (``check``; ``spend`` reuses that check), with the bound every token
has: a token revoked in this process opens nothing at once, one revoked in
another within the token cache time (the caller's ``token_stands`` says,
without a query while ``checked`` is that recent, see
api/service/ticket_tokens.py). Redis unreachable when a ticket is issued: a stored
ticket, as without Redis, so nothing is lost; unreachable when a signed one
is used: refused (401, get a new one: it will be a stored one), since single
use could not be enforced. Redis flushed: the secret is made anew and the
signed tickets of the last minute open nothing (401, get a new one)."""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import hmac
import logging
import secrets
import time
import uuid
from dataclasses import dataclass
from typing import Callable

from .errors import Unauthorized
from .players import hash_token
from .ticket_tokens import TicketTokens

TICKET_SECONDS = 60
ISSUING_SECRET_SECONDS = 5  # a new secret (Redis flushed) is signed with this soon in every process
PREFIX = "st_"
SIGNED = PREFIX + "s."
SECRET_KEY = "boardlog:stream-ticket-secret"
SPENT_KEY = "boardlog:stream-ticket-spent:{}"
log = logging.getLogger("boardlog.tickets")
_secrets: dict[int, tuple[bytes, float, bytes | None]] = {}  # id(redis) -> (secret, when read, the one before)
_GET_STARTED = "get a new one with POST /v1/stream-tickets"

# (token id, when it was last found live or None) -> whether the token still stands
TokenStands = Callable[[str, "float | None"], bool]


@dataclass(frozen=True)
class Holder:
    """Who a ticket opens a stream for, and with which token (None: a ticket
    issued before tickets named their token)."""

    player: str
    token_id: str | None


@dataclass(frozen=True)
class Checked:
    """A ticket found usable and not spent yet: whom it opens a stream for,
    and what spending it takes (a signed one's nonce and expiry)."""

    holder: Holder
    ticket: str
    nonce: str | None = None
    expires: int = 0


def issue(pool, player: str, token_id: str | None, redis=None,
          checked_at: float | None = None) -> tuple[str, dt.datetime]:
    """A ticket for ``player``'s token: signed (no write) with Redis, else
    stored. ``checked_at``: when (``time.time()``) the token was last read
    from PostgreSQL and found live, if known."""
    if redis is not None:
        try:
            return _signed(redis, player, token_id, checked_at)
        except Exception as error:  # Redis away: a stored ticket, as without it
            log.warning("Redis unreachable, a stream ticket stored in PostgreSQL instead: %s", error)
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


def check(pool, ticket: str, redis=None, token_stands: TokenStands | None = None) -> Checked:
    """The ticket's player and token, the ticket left unspent; Unauthorized
    if it is unknown (forged), expired or its token revoked. A signed
    ticket's single use is enforced when it is spent; ``token_stands`` says
    whether its token still stands (default: a read from PostgreSQL)."""
    _check_form(ticket)
    if ticket.startswith(SIGNED):
        return _signed_check(pool, redis, ticket, token_stands or TicketTokens(pool, cache_seconds=0).stands)
    with pool.connection() as conn:
        row = conn.execute(_STATE, (hash_token(ticket),)).fetchone()
    return Checked(_usable(row), ticket)


def spend(pool, checked: Checked, redis=None) -> Holder:
    """Spend a checked ticket (call it when the stream starts): Unauthorized
    if it was spent meanwhile, or its token revoked (stored tickets)."""
    if checked.nonce is not None:
        try:
            first = redis.set(SPENT_KEY.format(checked.nonce), b"1", nx=True,
                              ex=max(1, int(checked.expires - time.time()) + 1))
        except Exception:
            raise _redis_away() from None
        if not first:
            raise _already_used()
        return checked.holder
    digest = hash_token(checked.ticket)
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
            raise _already_used()
    return Holder(str(row[0]), None if row[1] is None else str(row[1]))


def _already_used() -> Unauthorized:
    return Unauthorized(f"this stream ticket was already used: a ticket opens one stream; {_GET_STARTED}",
                        kind="ticket-invalid")


def _check_form(ticket: str) -> None:
    if not ticket.startswith(PREFIX) or len(ticket) > 200:
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


# -- signed tickets (with Redis) ---------------------------------------------------


def _secret(redis, max_age: float = TICKET_SECONDS) -> bytes:
    """The deployment's ticket secret, as read within ``max_age`` seconds
    (0: read now): made once in Redis by whoever comes first."""
    known = _secrets.get(id(redis))
    if known is not None and time.monotonic() - known[1] < max_age:
        return known[0]
    redis.set(SECRET_KEY, secrets.token_hex(32).encode(), nx=True)
    value = redis.get(SECRET_KEY)
    if value is None:  # flushed between the two: once more
        redis.set(SECRET_KEY, secrets.token_hex(32).encode(), nx=True)
        value = redis.get(SECRET_KEY)
    secret = value if isinstance(value, bytes) else str(value).encode()
    before = known[0] if known is not None and known[0] != secret else (known[2] if known else None)
    _secrets[id(redis)] = (secret, time.monotonic(), before)
    return secret


def _candidates(redis):
    """The secrets a genuine ticket may be signed with: the one known, a fresh
    read (another process may have made a new one after a flush), and the one
    before it (a process that signed with its cached one a moment ago)."""
    yield _secret(redis)
    secret = _secret(redis, max_age=0)
    yield secret
    before = _secrets.get(id(redis), (None, 0, None))[2]
    if before is not None:
        yield before


def _mac(secret: bytes, body: str) -> str:
    digest = hmac.new(secret, body.encode(), hashlib.sha256).digest()[:24]
    return base64.urlsafe_b64encode(digest).decode()


def _signed(redis, player: str, token_id: str | None, checked_at: float | None) -> tuple[str, dt.datetime]:
    expires = int(time.time()) + TICKET_SECONDS
    body = ".".join([uuid.UUID(player).hex, uuid.UUID(token_id).hex if token_id else "-", str(expires),
                     "-" if checked_at is None else str(int(checked_at)), secrets.token_urlsafe(12)])
    ticket = f"{SIGNED}{body}.{_mac(_secret(redis, ISSUING_SECRET_SECONDS), body)}"
    return ticket, dt.datetime.fromtimestamp(expires, dt.timezone.utc)


def _redis_away() -> Unauthorized:
    return Unauthorized(f"this stream ticket cannot be checked now (its single use is kept in Redis, which "
                        f"does not answer); {_GET_STARTED}", kind="ticket-invalid")


def _signed_check(pool, redis, ticket: str, token_stands: TokenStands) -> Checked:
    """A signed ticket that is genuine, live and whose token stands (its single use is checked by ``spend``)."""
    body, _, mac = ticket[len(SIGNED):].rpartition(".")
    parts = body.split(".")
    if len(parts) == 4:  # issued before tickets said when their token was checked
        parts.insert(3, "-")
    if redis is None or len(parts) != 5 or not parts[2].isdigit() or not (parts[3].isdigit() or parts[3] == "-"):
        raise Unauthorized(f"unknown stream ticket; {_GET_STARTED}", kind="ticket-invalid")
    try:
        genuine = any(hmac.compare_digest(_mac(secret, body), mac) for secret in _candidates(redis))
    except Exception:
        raise _redis_away() from None
    if not genuine:
        raise Unauthorized(f"unknown stream ticket; {_GET_STARTED}", kind="ticket-invalid")
    try:
        player, token_id = str(uuid.UUID(parts[0])), None if parts[1] == "-" else str(uuid.UUID(parts[1]))
    except ValueError:
        raise Unauthorized(f"unknown stream ticket; {_GET_STARTED}", kind="ticket-invalid") from None
    expires = int(parts[2])
    checked_at = None if parts[3] == "-" else float(parts[3])
    token_live = token_id is None or time.time() >= expires or token_stands(token_id, checked_at)
    return Checked(_usable((player, token_id, time.time() < expires, token_live)), ticket, parts[4], expires)
