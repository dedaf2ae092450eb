"""What the command service refuses, independent of HTTP; api/errors.py maps
each to a status code and a problem document."""

from __future__ import annotations


class ServiceError(Exception):
    kind = "error"

    def __init__(self, message: str, **extra):
        super().__init__(message)
        self.message = message
        self.extra = extra


class NotFound(ServiceError):
    kind = "not-found"


class Forbidden(ServiceError):
    kind = "forbidden"


class Unauthorized(ServiceError):
    kind = "unauthorized"


class Conflict(ServiceError):
    """The game moved under a request that did not pin a version; re-deciding
    on the fresh state conflicted again."""

    kind = "conflict"


class TooManyTokens(Conflict):
    kind = "too-many-tokens"


class PreconditionFailed(ServiceError):
    """If-Match named a version the game is no longer at."""

    kind = "precondition-failed"


class IdempotencyMismatch(ServiceError):
    kind = "idempotency-key-reused"


class InvalidRequest(ServiceError):
    """Well-formed JSON that does not describe a command or option set."""

    kind = "invalid-request"


class DamagedHistory(ServiceError):
    """A stored event no longer matches the game's hash chain: the record was
    changed behind the server's back. Nothing past it can be trusted."""

    kind = "history-damaged"


class UnreadableHistory(ServiceError):
    """A stored event the hash chain vouches for that this server's code
    cannot read: a bug in the server, not damage to the record."""

    kind = "history-unreadable"


# A seat's life (api/service/lifecycle.py): each its own kind, under the status it shares.


class NotPermitted(Forbidden):
    """Resign, abort, invite or rematch by a player the game does not allow to."""

    kind = "not-permitted"


class WrongStatus(Conflict):
    """Resign, abort, invite or rematch in a status of the game that forbids it."""

    kind = "wrong-status"


class InviteInvalid(Forbidden):
    kind = "invite-invalid"


class InviteSpent(Conflict):
    kind = "invite-spent"


class SeatPlayedByBot(Conflict):
    """A command from a player whose seat a bot now plays (resigned or abandoned)."""

    kind = "seat-played-by-bot"
