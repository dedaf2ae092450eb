"""Players and their bearer tokens: random, shown once, stored as a sha256,
compared in constant time; several per player, each revocable.

Each process remembers the tokens it has checked (api/service/token_cache.py),
so that a poll costs no query for its token. A revoked token stops working
at once in the process that revoked it, and in every other process as soon
as its LISTEN connection hears the revocation's notice; while that
connection is broken, within ``cache_seconds`` (BOARDLOG_TOKEN_CACHE_SECONDS,
10 by default). (A long-poll already waiting when its token is revoked, and
an open stream, end at the same moment: api/http/admission.py, api/http/streaming.py.)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
import uuid
from typing import Callable

from .settings import env_number
from .token_cache import Identity, TokenCache
from . import readmodels
from .errors import NotFound, TooManyTokens

DEFAULT_CACHE_SECONDS = 10
DEFAULT_TRUST_SECONDS = 3600
MAX_LIVE_TOKENS = 20


def hash_token(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


def new_token() -> str:
    return "bl_" + secrets.token_urlsafe(32)


class Players:
    def __init__(self, pool, cache_seconds: float | None = None, clock: Callable[[], float] = time.monotonic,
                 notices=None, trust_seconds: float | None = None):
        """``notices``: the event store, whose LISTEN connection hears revocations (token_cache.py)."""
        self.pool = pool
        self.cache_seconds = (env_number("BOARDLOG_TOKEN_CACHE_SECONDS", DEFAULT_CACHE_SECONDS)
                              if cache_seconds is None else cache_seconds)
        trust_seconds = (env_number("BOARDLOG_TOKEN_TRUST_SECONDS", DEFAULT_TRUST_SECONDS)
                         if trust_seconds is None else trust_seconds)
        self.known = TokenCache(self.cache_seconds, max(trust_seconds, self.cache_seconds), clock, notices)

    @property
    def clock(self) -> Callable[[], float]:
        return self.known.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:  # tests let time pass with their own
        self.known.clock = clock

    def register(self, name: str) -> tuple[str, str]:
        player_id = uuid.uuid4()
        token = new_token()
        with self.pool.connection() as conn, conn.transaction():
            readmodels.insert_player(conn, player_id, name)
            readmodels.insert_token(conn, uuid.uuid4(), player_id, hash_token(token), "registration")
        return str(player_id), token

    def authenticate(self, token: str) -> str | None:
        """The token's player, or None for an unknown or revoked token."""
        identity = self.identify(token)
        return identity.player if identity else None

    def identify(self, token: str) -> Identity | None:
        digest = hash_token(token)
        remembered = self.known.get(digest)
        if remembered is not None:
            return remembered
        reading = self.known.reading()  # before the read: trust counts from what the read could have missed
        with self.pool.connection() as conn:
            row = readmodels.player_by_token(conn, digest)
        if row is None or not hmac.compare_digest(bytes(row["token_sha256"]), digest):
            self.known.forget(digest)
            return None
        identity = Identity(str(row["id"]), str(row["token_id"]))
        self.known.put(digest, identity, reading)
        return identity

    def identify_cached(self, token: str) -> Identity | None:
        """The token's owner if this process may trust what it knows of the
        token, else None (not known here: ``identify`` asks the database)."""
        return self.known.get(hash_token(token))

    def _forget_player(self, player: str) -> None:
        self.known.forget_where(lambda identity: identity.player == player)

    def forget_tokens(self, token_ids) -> None:
        """Trust these tokens no more (found revoked by another means than a
        request: a look for the revoked tokens of open streams)."""
        gone = set(token_ids)
        self.known.forget_where(lambda identity: identity.token_id in gone)

    # The player's own tokens

    def tokens(self, player: str) -> list[dict]:
        with self.pool.connection() as conn:
            return readmodels.live_tokens(conn, player)

    def create_token(self, player: str, label: str) -> dict:
        """A new token beside the others; shown once, in the answer."""
        token = new_token()
        with self.pool.connection() as conn, conn.transaction():
            if len(readmodels.live_tokens(conn, player, lock=True)) >= MAX_LIVE_TOKENS:
                raise TooManyTokens(f"you hold {MAX_LIVE_TOKENS} tokens, the most a player may; revoke one first")
            row = readmodels.insert_token(conn, uuid.uuid4(), player, hash_token(token), label)
        return {**row, "token": token}

    def revoke(self, player: str, token_id: str) -> str:
        """The id of the token revoked (its streams are to end: api/http/streaming.py)."""
        try:
            token_uuid = uuid.UUID(str(token_id))
        except ValueError:
            raise NotFound(f"you hold no token {token_id!r}", kind="token-not-found") from None
        with self.pool.connection() as conn:
            revoked = readmodels.revoke_tokens(conn, player, token_uuid)
        if not revoked:
            raise NotFound(f"you hold no live token {token_id}: it is someone else's, unknown, or revoked already", kind="token-not-found")
        self._forget_player(player)
        return revoked[0]

    def revoke_all(self, player: str, label: str) -> tuple[list[str], dict]:
        """Every token of the player revoked (their ids), and one new token given
        in the same transaction: the way out after a leak that keeps the account."""
        token = new_token()
        with self.pool.connection() as conn, conn.transaction():
            revoked = readmodels.revoke_tokens(conn, player)
            row = readmodels.insert_token(conn, uuid.uuid4(), player, hash_token(token), label)
        self._forget_player(player)
        return revoked, {**row, "token": token}

    def revoked_among(self, token_ids) -> set[str]:
        """Which of these token ids are revoked (one query, by primary key)."""
        with self.pool.connection() as conn:
            rows = conn.execute("select id from player_tokens where id = any(%s::uuid[]) and revoked_at is not null",
                                (list(token_ids),)).fetchall()
        return {str(row[0]) for row in rows}

    def checked_at(self, token: str) -> float | None:
        """When (``time.time()``) this process last read ``token`` from the
        database and found it live, while it still trusts that read; else
        None. A stream ticket carries it, so that the process the ticket is
        used on may trust the token without a query (api/service/ticket_tokens.py)."""
        return self.known.read_at(hash_token(token))
