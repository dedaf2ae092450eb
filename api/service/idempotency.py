"""Idempotency-Key, written once for every request that takes one: a
command (``GameService.act``), the lifecycle POSTs (resign, abort,
invites, their redemption, rematch), a new game (``GameService.create_once``,
its key scoped to NEW_GAMES) and a table-talk message (``Talk.send``).

A key is scoped to (player, game). What makes two requests the same is
hashed with the game (which stays in the hash for the keys remembered
before keys were scoped to a game, readmodels.UNSCOPED): for a command,
its JSON (as it always was, so that keys remembered before still answer);
for any other request, its endpoint and its body, so that a resign's key
reused for an abort is refused. The answer is stored in the transaction
that appends the request's events: there is never an answer without its
events, nor events whose answer a retry cannot find.

``GameService`` holds one ``IdempotencyKeys`` as ``idempotency`` and hands
its ``once`` to the collaborators whose requests take a key.
"""

from __future__ import annotations

import hashlib
from typing import Any, Callable

from domain.engine import IllegalCommand

from . import decisions, readmodels
from .errors import IdempotencyMismatch, ServiceError

# (conn, *facts of the transaction): called in the transaction of the events.

# The scope of the keys of POST /v1/games: a game that does not exist yet
# has no id to scope its key by, so a player's keys for new games share
# this one (no game has it: games take random uuids, version 4).
NEW_GAMES = "00000000-0000-0000-0000-00000000000a"
InTransaction = Callable[..., None]


def request_sha256(game_id, request: Any) -> str:
    return hashlib.sha256(decisions.canonical([str(game_id), request]).encode()).hexdigest()


def endpoint_request(endpoint: str, body: Any = None) -> list:
    """What identifies a request that is not a command: its endpoint and its
    body (a command is hashed as its JSON object alone, which a list never equals)."""
    return [endpoint, body]


class Replayed(dict):
    """A stored answer given again for a repeat of its request (the API marks
    it with ``Idempotent-Replayed: true``)."""


def replay_headers(answer) -> dict:
    return {"Idempotent-Replayed": "true"} if isinstance(answer, Replayed) else {}


class IdempotencyKeys:
    """The requests answered under a key and their answers, kept in ``pool``'s database."""

    def __init__(self, pool):
        self.pool = pool

    def once(
        self,
        player: str,
        game_id,
        key: str | None,
        request: Any,
        carry_out: Callable[[InTransaction], Any],
        respond: Callable[..., dict],
        status: int = 200,
    ) -> dict:
        """Carry out ``request`` for ``player`` at most once per ``key``.

        ``carry_out(in_transaction)`` performs it and calls ``in_transaction``
        with the connection (and what else it knows) inside the transaction
        of its events; there ``respond`` with the same arguments shapes the
        answer, which is stored under the key. A repeat of the same request
        with the same key answers that stored answer and does nothing; the
        same key with another request is a 422 ``idempotency-key-reused``.
        Without a key the request is simply carried out and answered.

        A repeat is not looked for before: the answer's row collides with
        the stored one (readmodels.remember_response) and takes the
        repeat's events down with it, in the one transaction of the
        request, and the stored answer is read then. A repeat whose
        decision is refused (the original moved the game on) is answered
        the same way. So a first request, nearly every request, costs no
        query of its own."""
        digest = request_sha256(game_id, request)
        answer: dict = {}

        def in_transaction(conn, *facts):
            answer.update(respond(conn, *facts))
            if key is not None:
                readmodels.remember_response(conn, player, game_id, key, digest, status, answer)

        try:
            carry_out(in_transaction)
        except Exception as error:
            # A repeat fails on the key's uniqueness, or on the game its
            # original moved on (also when the two raced): it gets the
            # original's answer, not that failure.
            if key is not None and (
                decisions.is_unique_violation(error) or isinstance(error, (ServiceError, IllegalCommand))
            ):
                earlier = self._earlier_response(player, game_id, key, digest)
                if earlier is not None:
                    return earlier
            raise
        return answer

    def _earlier_response(self, player: str, game_id, key: str, request_sha256: str,
                          rebuild: Callable[[dict], dict] | None = None) -> dict | None:
        """The stored answer of ``key``; one kept as a reference to what its
        request produced (migration 0117) is shaped again by ``rebuild(row)``."""
        with self.pool.connection() as conn:
            row = readmodels.idempotent_response(conn, player, game_id, key)
        if row is None:
            return None
        if row["request_sha256"] != request_sha256:
            if str(game_id) == NEW_GAMES:
                raise IdempotencyMismatch(
                    "this Idempotency-Key was already used by you to create another game (another body): a key "
                    "creates one game, so use a new key for each new game")
            raise IdempotencyMismatch(
                "this Idempotency-Key was already used by you in this game with another request (another endpoint "
                "or body): a key is scoped to (player, game), so use a new key for each new request in this game")
        if row["response"] is None and rebuild is not None:
            return Replayed(rebuild(row))
        return Replayed(row["response"])

    def answer_of_repeat(self, player: str, game_id, key: str | None, request_sha256: str,
                         error: Exception, rebuild: Callable[[dict], dict] | None = None) -> dict | None:
        """For a request that wrote its key's record with its events itself
        (``GameService.act``, in one statement) and failed with ``error``:
        the stored answer it gets instead, as ``once`` gives it, or None
        (``error`` stands). ``rebuild``: see ``_earlier_response``."""
        if key is None or not (decisions.is_unique_violation(error)
                               or isinstance(error, (ServiceError, IllegalCommand))):
            return None
        return self._earlier_response(player, game_id, key, request_sha256, rebuild)
