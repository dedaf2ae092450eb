"""The command path for a seat's life: a contribution to the randomness in
the lobby, resign, abort, invites and replacements, rematches. A bot's
moves are api/service/bots.py's; missed turns, abandonment and clocks
api/service/clocks.py's.

``GameService`` holds one ``SeatLife`` as ``seat_life``: every decision here
goes through the service's one write path, ``execute`` (load, decide,
append with the expected version, project, schedule). Domain refusals
become service errors with their status: 403 for the wrong player or a
forged code, 409 for the wrong status or a spent code, 422 for a request
that makes no sense.
"""

from __future__ import annotations

import contextlib
import secrets
import uuid

from domain import session as sessions
from domain.engine import IllegalCommand
from domain.lifecycle import clocks as clock_rules
from domain.lifecycle import decide as lifecycle
from domain.lifecycle.state import RematchCreated
from domain.session import Session

from . import decisions, history
from .decisions import Decision
from .idempotency import endpoint_request
from .errors import (
    ContributionMade,
    Forbidden,
    InvalidRequest,
    InviteInvalid,
    InviteSpent,
    NotPermitted,
    SeatPlayedByBot,
    WrongStatus,
)

def new_invite_code() -> str:
    return "inv_" + secrets.token_urlsafe(18)


@contextlib.contextmanager
def refusals():
    """Domain refusals as service errors with the status that fits."""
    try:
        yield
    except lifecycle.InviteUnknown as error:
        raise InviteInvalid(error.message) from None
    except lifecycle.InviteSpent as error:
        raise InviteSpent(error.message) from None
    except lifecycle.NotAllowed as error:
        raise NotPermitted(error.message) from None
    except (lifecycle.NotNow, sessions.LobbyRefusal) as error:
        raise WrongStatus(error.message) from None
    except IllegalCommand as error:
        raise InvalidRequest(error.message) from None


@contextlib.contextmanager
def access_refusals():
    """Only the refusals of who may do something become 403s (a private
    lobby, a seat kept for a rematch's invitee); the rest stay as they were."""
    try:
        yield
    except lifecycle.NotAllowed as error:
        raise NotPermitted(error.message) from None


def _meta(actor: str, seat: str | None, command: dict, session: Session) -> dict:
    return {**decisions.metadata(actor, seat, command, session.version), "lifecycle": True}


def lifecycle_decision(actor, seat, command, session, events) -> Decision:
    return Decision(events, [_meta(actor, seat, command, session)] * len(events))


def check_may_command(session: Session, seat: str) -> None:
    """Refuses a seat's command while the game is paused, or once a bot plays the seat or it resigned."""
    if session.life.paused:
        raise WrongStatus("the game is paused by its players' agreement: nobody moves until one of them "
                          "resumes it (POST /v1/games/{id}/resume)", kind="game-paused")
    if seat in session.life.resigned:
        raise SeatPlayedByBot(f"you resigned from this game; {'a bot plays ' + seat if session.life.plays(seat) else seat + ' takes no more turns'}")
    kind = session.life.plays(seat)
    if kind is not None:
        raise SeatPlayedByBot(f"a {kind} bot plays {seat} since you were timed out "
                              f"{session.options.get('abandon_after')} times in a row; ask the host for an invite code to take it back")


class SeatLife:
    """Each decision goes through ``execute``, the service's one write path,
    with the draws of the game's ``seed``; the seats' past decisions are read
    from ``store``. A request with an Idempotency-Key is carried out
    ``once``; its answer carries a receipt signed by ``heads``. A rematch is
    a new game with a seed of ``seeds``, its rows and first events written
    by ``insert_on`` in the transaction of the link and announced by
    ``inserted`` once committed (``GameService``'s, as for every new game)."""

    def __init__(self, *, execute, seed, store, heads, once, seeds, insert_on, inserted):
        self.execute = execute
        self.seed = seed
        self.store = store
        self.heads = heads
        self.once = once
        self.seeds = seeds
        self.insert_on = insert_on
        self.inserted = inserted

    # The lobby: a seat's contribution to the randomness

    def contribute(self, game_id: uuid.UUID, player: str, contribution: str) -> Session:
        """Recorded as SeedContributed (domain.session.contribute); the same
        contribution sent again appends nothing."""
        def decide(rules, session):
            try:
                events = sessions.contribute(session, player, contribution)
            except sessions.NotSeated as error:
                raise Forbidden(error.message) from None
            except sessions.ContributionMade as error:
                raise ContributionMade(error.message) from None
            except sessions.BadContribution as error:
                raise InvalidRequest(error.message) from None
            command = {"type": "ContributeRandomness", "contribution": contribution.lower()}
            return decisions.by(player, session.seat_of(player), command, session, events)

        return self.execute(game_id, decide)[0]

    # Leaving a running game

    def resign(self, game_id: uuid.UUID, player: str, in_transaction=None) -> Session:
        seed = self.seed(game_id)

        def decide(rules, session):
            with refusals():
                events = lifecycle.resign(rules, session, player, seed)
            return lifecycle_decision(player, session.seat_of(player), {"type": "ResignSeat"}, session, events)

        return self.execute(game_id, decide, in_transaction=in_transaction)[0]

    def abort(self, game_id: uuid.UUID, player: str, in_transaction=None) -> Session:
        def decide(rules, session):
            acted, _ = lifecycle.history(self.seat_history(game_id))
            with refusals():
                events = lifecycle.abort(rules, session, player, acted)
            return lifecycle_decision(player, session.seat_of(player), {"type": "AbortGame"}, session, events)

        return self.execute(game_id, decide, in_transaction=in_transaction)[0]

    def seat_history(self, game_id: uuid.UUID):
        """(seat, timed out, replaced) of each decision of a seat, in log order."""
        last = None
        for record in self.store.read_stream(f"game-{game_id}"):
            meta = record.metadata
            if clock_rules.continues_missed_turn(meta):
                continue  # a later step of a timed-out turn: its deadline counted once, at its first step
            key = (meta.get("decided_at"), meta.get("seat"), meta.get("timeout"), meta.get("lifecycle"))
            if key == last:
                continue
            last = key
            command = (meta.get("command") or {}).get("type")
            if meta.get("lifecycle") and command != "RedeemInvite":
                continue
            yield meta.get("seat"), bool(meta.get("timeout")), command == "RedeemInvite"

    # Invites and replacements

    def invite(self, game_id: uuid.UUID, player: str, seat: str | None, in_transaction=None,
               code: str | None = None) -> tuple[Session, str]:
        """A new single-use code; only its sha256 is kept in the game, so it
        is shown once (and again only to a repeat of an Idempotency-Key)."""
        code = code or new_invite_code()

        def decide(rules, session):
            with refusals():
                events = lifecycle.issue_invite(session, player, seat, code)
            return lifecycle_decision(player, session.seat_of(player), {"type": "IssueInvite", "seat": seat},
                                      session, events)

        return self.execute(game_id, decide, in_transaction=in_transaction)[0], code

    def redeem(self, game_id: uuid.UUID, player: str, code: str, in_transaction=None) -> Session:
        def decide(rules, session):
            with refusals():
                events = lifecycle.redeem(session, player, code)
            seat = next((e.seat for e in events if hasattr(e, "seat")), None)
            return lifecycle_decision(player, seat, {"type": "RedeemInvite"}, session, events)

        return self.execute(game_id, decide, in_transaction=in_transaction)[0]

    # Rematch

    def rematch(self, game_id: uuid.UUID, player: str, in_transaction=None) -> uuid.UUID:
        """A new game like this one (new seed), its link appended to this one.

        One rematch per game: once the link is there, a second request (by
        any player, with no Idempotency-Key or another one) is a 409
        ``wrong-status`` naming the rematch there is; it creates nothing.
        The new game is created in the transaction that appends the link,
        so two requests that race cannot make two games either: the second
        append conflicts, its new game is rolled back with it, and it is
        decided again on the game that now has its rematch (that 409).
        ``in_transaction(conn, new_id)`` runs in that transaction too."""
        seed = self.seeds()
        new_id = uuid.uuid4()
        made: dict = {}

        def decide(rules, session):
            rules = history.rules_of(session.game)  # a rematch is played under the rules installed now
            with refusals():
                made["rules"], made["events"] = rules, lifecycle.rematch(rules, session, player, str(game_id), seed)
            return lifecycle_decision(player, session.seat_of(player), {"type": "CreateRematch"}, session,
                                      [RematchCreated(str(new_id))])

        def create(conn, after, events):
            made["session"] = self.insert_on(conn, new_id, made["rules"], made["events"], seed, player,
                                           {"type": "CreateRematch", "of": str(game_id)})
            if in_transaction is not None:
                in_transaction(conn, new_id)

        self.execute(game_id, decide, in_transaction=create)
        self.inserted(new_id, player, seed, made["session"])
        return new_id

    # The answers of the lifecycle POSTs, once per Idempotency-Key
    # (api/service/idempotency.py). ``shape(conn, game_id)`` is the game's
    # summary as the API answers it, read in the transaction of the events.

    def _with_receipt(self, answer: dict, game_id, session) -> dict:
        """A lifecycle answer (a game's summary) with the signed head of its version."""
        return {**answer, "receipt": self.heads.receipt_for(game_id, session)}

    def resign_once(self, game_id: uuid.UUID, player: str, key: str | None, shape) -> dict:
        return self.once(player, game_id, key, endpoint_request("resign"),
                         lambda in_transaction: self.resign(game_id, player, in_transaction),
                         lambda conn, after, *_: self._with_receipt(shape(conn, game_id), game_id, after))

    def abort_once(self, game_id: uuid.UUID, player: str, key: str | None, shape) -> dict:
        return self.once(player, game_id, key, endpoint_request("abort"),
                         lambda in_transaction: self.abort(game_id, player, in_transaction),
                         lambda conn, after, *_: self._with_receipt(shape(conn, game_id), game_id, after))

    def invite_once(self, game_id: uuid.UUID, player: str, seat: str | None, key: str | None) -> dict:
        """With a key, the answer (code included) is kept with the key for
        a repeat, until the sweeper forgets keys (BOARDLOG_IDEMPOTENCY_DAYS)."""
        code = new_invite_code()
        return self.once(player, game_id, key, endpoint_request("invites", {"seat": seat}),
                         lambda in_transaction: self.invite(game_id, player, seat, in_transaction, code),
                         lambda conn, *_: {"game_id": str(game_id), "seat": seat, "code": code}, status=201)

    def redeem_once(self, game_id: uuid.UUID, player: str, code: str, key: str | None, shape) -> dict:
        return self.once(player, game_id, key, endpoint_request("invites/redeem", {"code": code}),
                         lambda in_transaction: self.redeem(game_id, player, code, in_transaction),
                         lambda conn, after, *_: self._with_receipt(shape(conn, game_id), game_id, after))

    def rematch_once(self, game_id: uuid.UUID, player: str, key: str | None, shape) -> dict:
        """The new game's summary: a repeat of the key answers the same game."""
        return self.once(player, game_id, key, endpoint_request("rematch"),
                         lambda in_transaction: self.rematch(game_id, player, in_transaction),
                         lambda conn, new_id: self._new_game_answer(shape(conn, new_id), new_id), status=201)

    def _new_game_answer(self, answer: dict, new_id) -> dict:
        """A rematch's summary with the head of the new game (created in this
        transaction under the chain version of new games, whose heads hide)."""
        return {**answer, "receipt": self.heads.receipt(new_id, answer["version"])}
