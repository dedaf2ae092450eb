"""Players and their bearer tokens: random, shown once, stored as a sha256,
compared in constant time; several per player, each revocable.

Each process remembers the tokens it has seen for ``cache_seconds``
(BOARDLOG_TOKEN_CACHE_SECONDS, 10 by default), so that a poll costs no query
for its token. That is the bound on revocation: a revoked token stops working
at once in the process that revoked it, and in every other process within
``cache_seconds``. (A long-poll already waiting when its token is revoked
runs to its end, at most ?wait= seconds; an open stream ends within the same
bound, see api/streaming.py.)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
import uuid
from dataclasses import dataclass
from typing import Callable

from .settings import env_number
from . import readmodels
from .errors import NotFound, TooManyTokens

DEFAULT_CACHE_SECONDS = 10
MAX_LIVE_TOKENS = 20


def hash_token(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


def new_token() -> str:
    return "bl_" + secrets.token_urlsafe(32)


@dataclass(frozen=True)
class Identity:
    player: str
    token_id: str


class Players:
    MAX_REMEMBERED = 100_000

    def __init__(self, pool, cache_seconds: float | None = None, clock: Callable[[], float] = time.monotonic):
        self.pool = pool
        self.cache_seconds = (env_number("BOARDLOG_TOKEN_CACHE_SECONDS", DEFAULT_CACHE_SECONDS)
                              if cache_seconds is None else cache_seconds)
        self.clock = clock
        self._tokens: dict[bytes, tuple[Identity, float]] = {}  # hash -> (who, until when)
        self._lock = threading.Lock()

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
        now = self.clock()
        with self._lock:
            remembered = self._tokens.get(digest)
        if remembered is not None and remembered[1] > now:
            return remembered[0]
        with self.pool.connection() as conn:
            row = readmodels.player_by_token(conn, digest)
        if row is None or not hmac.compare_digest(bytes(row["token_sha256"]), digest):
            self._forget(digest)
            return None
        identity = Identity(str(row["id"]), str(row["token_id"]))
        with self._lock:
            if len(self._tokens) >= self.MAX_REMEMBERED:
                self._tokens.clear()
            self._tokens[digest] = (identity, now + self.cache_seconds)
        return identity

    def _forget(self, digest: bytes) -> None:
        with self._lock:
            self._tokens.pop(digest, None)

    def _forget_player(self, player: str) -> None:
        with self._lock:
            for digest in [d for d, (who, _) in self._tokens.items() if who.player == player]:
                del self._tokens[digest]

    def forget_tokens(self, token_ids) -> None:
        """Trust these tokens no more (found revoked by another means than a
        request: a look for the revoked tokens of open streams)."""
        gone = set(token_ids)
        with self._lock:
            for digest in [d for d, (who, _) in self._tokens.items() if who.token_id in gone]:
                del self._tokens[digest]

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
        """The id of the token revoked (its streams are to end: api/streaming.py)."""
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
        used on trusts the token as long as this one does, without a query
        (api/service/ticket_tokens.py)."""
        with self._lock:
            remembered = self._tokens.get(hash_token(token))
        now = self.clock()
        if remembered is None or remembered[1] <= now:
            return None
        return time.time() - (now - (remembered[1] - self.cache_seconds))
