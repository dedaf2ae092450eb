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

Every other POST that creates something, or acts in a way that must not
happen twice, takes its key through api/http/idempotency.py, which keeps
its answers here with ``claim``, ``keep`` and ``release``: the key is
scoped to (player, operation and path), the player being ANYONE for the
operations that have none yet (registration, sign-in, whose scope names the
client's address instead), and is held while
the request is carried out, so that a concurrent repeat waits for the
first answer instead of acting again. Its answer is kept once the request
succeeded, in a transaction of its own (those requests write no events):
a server that dies between the two leaves the key held, and a repeat after
STALE_SECONDS carries the request out again.
"""

from __future__ import annotations

import hashlib
import time
import uuid
from typing import Any, Callable

from psycopg.types.json import Jsonb

from domain.engine import IllegalCommand

from . import decisions, readmodels
from .errors import AnswerForgotten, Conflict, IdempotencyMismatch, ServiceError
from .settings import env_number

# (conn, *facts of the transaction): called in the transaction of the events.

# The scope of the keys of POST /v1/games: a game that does not exist yet
# has no id to scope its key by, so a player's keys for new games share
# this one (no game has it: games take random uuids, version 4).
NEW_GAMES = "00000000-0000-0000-0000-00000000000a"
InTransaction = Callable[..., None]

# The player of the keys of operations a caller makes before he is one
# (registration, sign-in): no player has the nil uuid.
ANYONE = "00000000-0000-0000-0000-000000000000"
# The namespace of the scopes of api/http/idempotency.py's keys (uuid5 of
# the operation and its path's arguments): no game has a version-5 uuid.
OPERATIONS = uuid.UUID("6f1d3c52-5a4e-4b8e-9a57-0c1c0b7f1e15")
# A held key's status: its request is being carried out.
HELD = 0
# An answer that holds a new secret (a bearer token, a push device's renewal key) is kept this long only: a
# retry after a lost answer comes within it, and the table does not keep live credentials in clear for days
# (tokens themselves are stored as a SHA-256). After it, its repeat is a 410 and is not carried out again.
SECRET_ANSWER_MINUTES = env_number("BOARDLOG_IDEMPOTENCY_SECRET_MINUTES", 15, minimum=1)
FORGOTTEN = {"forgotten": True}
# A key held longer than this was left by a server that died before answering.
STALE_SECONDS = 60
# How long a repeat waits for the answer of a request still being carried out.
WAIT_SECONDS = 10.0


def request_sha256(game_id, request: Any) -> bytes:
    """What the key's record keeps of its request: the 32 bytes of its SHA-256 (a bytea, migration 0119)."""
    return hashlib.sha256(decisions.canonical([str(game_id), request]).encode()).digest()


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

    def _earlier_response(self, player: str, game_id, key: str, request_sha256: bytes,
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

    def answer_of_repeat(self, player: str, game_id, key: str | None, request_sha256: bytes,
                         error: Exception, rebuild: Callable[[dict], dict] | None = None) -> dict | None:
        """For a request that wrote its key's record with its events itself
        (``GameService.act``, in one statement) and failed with ``error``:
        the stored answer it gets instead, as ``once`` gives it, or None
        (``error`` stands). ``rebuild``: see ``_earlier_response``."""
        if key is None or not (decisions.is_unique_violation(error)
                               or isinstance(error, (ServiceError, IllegalCommand))):
            return None
        return self._earlier_response(player, game_id, key, request_sha256, rebuild)

def operation_scope(operation: str, arguments: dict) -> str:
    """Where an operation's keys live (the table's ``game_id``): one scope per
    operation and path, so that the same key names one request of each."""
    return str(uuid.uuid5(OPERATIONS, decisions.canonical([operation, {k: str(v) for k, v in arguments.items()}])))


class StoredAnswer(dict):
    """The answer kept for a key (``status``, ``body``, ``headers``)."""


class HeldKeys:
    """The keys of the operations api/http/idempotency.py guards, in ``pool``'s database."""

    def __init__(self, pool):
        self.pool = pool

    def claim(self, player: str, scope: str, key: str, digest: bytes, wait: float = WAIT_SECONDS) -> StoredAnswer | None:
        """Hold ``key`` for this request and answer None, for the caller to
        carry it out; or the answer kept for the same request; a 422 for
        another request (``digest`` differs). A repeat of a request still
        being carried out waits up to ``wait`` seconds for its answer (a 409
        after that); one whose first was carried out and refused finds the
        key free again and is carried out in turn."""
        deadline = time.monotonic() + wait
        while True:
            with self.pool.connection() as conn:
                taken = conn.execute(
                    """insert into idempotency_keys (player_id, game_id, key, request_sha256, status, response)
                       values (%(player)s, %(scope)s, %(key)s, %(digest)s, %(held)s, 'null')
                       on conflict (player_id, game_id, key) do update set created_at = now()
                         where idempotency_keys.status = %(held)s
                           and idempotency_keys.request_sha256 = excluded.request_sha256
                           and idempotency_keys.created_at < now() - make_interval(secs => %(stale)s)
                       returning 1""",
                    {"player": player, "scope": scope, "key": key, "digest": digest, "held": HELD,
                     "stale": STALE_SECONDS},
                ).fetchone()
                if taken:
                    return None
                row = conn.execute(
                    "select request_sha256, status, response from idempotency_keys"
                    " where player_id = %s and game_id = %s and key = %s", (player, scope, key)).fetchone()
            if row is None:
                continue  # its first was refused meanwhile: the key is free
            if row[0] != digest:
                raise IdempotencyMismatch(
                    "this Idempotency-Key was already used for this operation with another body: a key answers "
                    "one request, so use a new key for each new request")
            if row[1] != HELD and row[2].get("forgotten"):
                raise AnswerForgotten(
                    f"the first answer to this Idempotency-Key held a new secret, kept {SECRET_ANSWER_MINUTES} "
                    "minutes only, and is forgotten; it is not carried out again: sign in or ask anew, with a new key")
            if row[1] != HELD:
                return StoredAnswer(status=row[1], body=row[2]["body"], headers=row[2]["headers"])
            if time.monotonic() >= deadline:
                raise Conflict("a request with this Idempotency-Key is still being carried out; send it again in a "
                               "few seconds to get its answer", kind="idempotency-key-busy")
            time.sleep(0.05)

    def keep(self, player: str, scope: str, key: str, status: int, body: str, headers: list,
             secret: bool = False) -> None:
        """The answer of the request that holds ``key``, given again to its
        repeats (``secret``: for SECRET_ANSWER_MINUTES only)."""
        answer = {"body": body, "headers": headers, **({"secret": True} if secret else {})}
        with self.pool.connection() as conn:
            conn.execute(
                "update idempotency_keys set status = %s, response = %s"
                " where player_id = %s and game_id = %s and key = %s and status = %s",
                (status, Jsonb(answer), player, scope, key, HELD))

    def release(self, player: str, scope: str, key: str) -> None:
        """Free ``key`` after its request was refused (a refusal is not kept: a repeat is carried out)."""
        with self.pool.connection() as conn:
            conn.execute("delete from idempotency_keys where player_id = %s and game_id = %s and key = %s"
                         " and status = %s", (player, scope, key, HELD))
