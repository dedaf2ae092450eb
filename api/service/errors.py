"""What the command service refuses, independent of HTTP; api/http/errors.py maps
each to a status code and a problem document."""

from __future__ import annotations


class ServiceError(Exception):
    """``kind``: the cause's slug in api/http/problems.py (one cause, one kind);
    a subclass sets its usual one, a raise may name a narrower one."""

    kind = "internal-error"

    def __init__(self, message: str, kind: str | None = None, **extra):
        super().__init__(message)
        self.message = message
        self.extra = extra
        if kind is not None:
            self.kind = kind


class NotFound(ServiceError):
    kind = "game-not-found"


class Forbidden(ServiceError):
    kind = "seat-required"


class Unauthorized(ServiceError):
    kind = "token-missing"


class Conflict(ServiceError):
    """The game moved under a request that did not pin a version; re-deciding
    on the fresh state conflicted again."""

    kind = "game-moved"


class TooManyTokens(Conflict):
    kind = "too-many-tokens"


class TooMany(ServiceError):
    """More than a limit allows in a while; ``retry_after`` seconds to wait."""

    kind = "rate-limited"

    def __init__(self, message: str, retry_after: int, kind: str | None = None):
        super().__init__(message, kind)
        self.retry_after = retry_after


class PreconditionFailed(ServiceError):
    """If-Match named a version the game is no longer at."""

    kind = "precondition-failed"


class IdempotencyMismatch(ServiceError):
    kind = "idempotency-key-reused"


class AnswerForgotten(ServiceError):
    """A repeat whose first answer held a secret kept only minutes (api/service/idempotency.py)."""

    kind = "idempotency-answer-forgotten"


class InvalidRequest(ServiceError):
    """Well-formed JSON that does not describe a command or option set."""

    kind = "invalid-request"


class InvalidOption(InvalidRequest):
    """An option at creation that is unknown, of the wrong type or out of
    bounds; ``extra["option"]`` is its path (``bots.p2``)."""

    kind = "invalid-option"


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


class ContributionMade(Conflict):
    """A second, different contribution to the randomness from a seat that made one."""

    kind = "contribution-made"
