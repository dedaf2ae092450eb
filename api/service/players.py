"""Players and their bearer tokens: random, shown once, stored as a sha256,
compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import uuid

from . import readmodels


def hash_token(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


class Players:
    MAX_REMEMBERED = 100_000

    def __init__(self, pool):
        self.pool = pool
        self._tokens: dict[bytes, str] = {}

    def register(self, name: str) -> tuple[str, str]:
        player_id = uuid.uuid4()
        token = "bl_" + secrets.token_urlsafe(32)
        with self.pool.connection() as conn:
            readmodels.insert_player(conn, player_id, name, hash_token(token))
        return str(player_id), token

    def authenticate(self, token: str) -> str | None:
        """The token's player. Known tokens are remembered in the process (by
        their hash; tokens are never revoked), so a poll costs no query for it."""
        digest = hash_token(token)
        player = self._tokens.get(digest)
        if player is not None:
            return player
        with self.pool.connection() as conn:
            row = readmodels.player_by_token(conn, digest)
        if row is None or not hmac.compare_digest(bytes(row["token_sha256"]), digest):
            return None
        if len(self._tokens) >= self.MAX_REMEMBERED:
            self._tokens.clear()
        self._tokens[digest] = player = str(row["id"])
        return player
