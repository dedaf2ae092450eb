"""Ending a game by agreement: propose ending it (cancelled, or as it
stands), accept another seat's proposal, or withdraw or decline it."""

from __future__ import annotations

import marshmallow as ma
from flask.views import MethodView
from flask_smorest import Blueprint

from .. import access
from ..auth import BEARER, OPTIONAL_BEARER, current_player
from ..context import service
from ..contract import declare
from ..idempotency import idempotent
from ...service.games import parse_game_id
from domain.lifecycle.agreement_events import ENDINGS
from domain.lifecycle.pause import playing_seats

blp = Blueprint("agreements", __name__, url_prefix="/v1/games",
                description="End a game by agreement of its players: cancelled, or ranked as it stands")


class ProposeEndSchema(ma.Schema):
    """How to end the game."""

    ending = ma.fields.String(required=True, validate=ma.validate.OneOf(
        ENDINGS, error="an ending is cancelled (no result) or as-it-stands (ranked by the game's score now)"),
        metadata={"description": "cancelled: no result; as-it-stands: the seats ranked by the game's own score as "
                                 "it is now, equal scores sharing a place (all first where the game keeps no score "
                                 "while it runs)"})


class AcceptEndSchema(ma.Schema):
    """Whose acceptance: yours."""

    seat = ma.fields.String(validate=ma.validate.Length(min=1, max=64), metadata={
        "description": "the seat you accept for, if you name it: it must be yours (a check for clients that "
                       "hold several games open)"})


class ProposalSchema(ma.Schema):
    """The open proposal to end the game."""

    seat = ma.fields.String(required=True, metadata={"description": "the seat whose player proposed it"})
    ending = ma.fields.String(required=True, metadata={"description": "cancelled or as-it-stands"})
    accepted = ma.fields.List(ma.fields.String(), required=True, metadata={
        "description": "the seats that accepted, the proposer's among them"})
    waiting_for = ma.fields.List(ma.fields.String(), required=True, metadata={
        "description": "the seats a player plays that have yet to accept (a bot's seat accepts at once)"})


class AgreementStateSchema(ma.Schema):
    """The game after your proposal or answer."""

    game_id = ma.fields.UUID(required=True, metadata={"description": "the game's id"})
    version = ma.fields.Integer(required=True, metadata={"description": "the game's version now"})
    status = ma.fields.String(required=True, metadata={
        "description": "active while the proposal is open or after it ended; scoring or finished once ended as it "
                       "stands; cancelled once ended cancelled"})
    proposal = ma.fields.Nested(ProposalSchema, allow_none=True, required=True, metadata={
        "description": "the open proposal, or null (none, or the game ended)"})
    outcome = ma.fields.String(allow_none=True, required=True, metadata={
        "description": "once the game ended by agreement, the sentence saying so (its seats named by their players, as the "
                       "view's outcome); null before"})


def _member(game_id) -> str:
    player = current_player()
    access.check_cheaply(game_id, player)
    return player


def _state(game_id, session) -> dict:
    # A proposal left open when the game ended by its own rules is over with it.
    proposal = session.life.proposal if session.status == "active" else None
    shown = None if proposal is None else {
        "seat": proposal.seat, "ending": proposal.ending, "accepted": sorted(proposal.accepted),
        "waiting_for": sorted(set(playing_seats(session)) - proposal.accepted)}
    return {"game_id": game_id, "version": session.version, "status": session.status, "proposal": shown,
            # Said as the view says it: its seats named by their players.
            "outcome": service().player_names.naming(session).say(session.outcome)
            if session.life.agreed and session.outcome else None}


@blp.route("/<game_id>/end-proposal")
class ProposeEnd(MethodView):
    @blp.doc(operationId="getEndProposal", security=OPTIONAL_BEARER)
    @blp.response(200, AgreementStateSchema)
    def get(self, game_id):
        """The open proposal to end the game, if any: who proposed which ending, who has yet to accept
        (shown to every player and spectator, as its events are)."""
        gid = parse_game_id(game_id)
        player = current_player(required=False)
        _, session = service().load(gid)
        access.check(session, gid, player)
        return _state(gid, session)

    @idempotent
    @blp.doc(operationId="proposeEnd", security=BEARER)
    @blp.arguments(ProposeEndSchema)
    @blp.response(200, AgreementStateSchema)
    @declare(blp, "not-permitted", "wrong-status")
    def post(self, proposal, game_id):
        """Propose ending the game, cancelled or as it stands; it ends when every
        other seat a player plays has accepted (a bot's seat accepts at once).
        One proposal at a time: 409 while one is open."""
        gid = parse_game_id(game_id)
        return _state(gid, service().agreements.propose(gid, _member(gid), proposal["ending"]))


@blp.route("/<game_id>/end-proposal/accept")
class AcceptEnd(MethodView):
    @idempotent
    @blp.doc(operationId="acceptEnd", security=BEARER)
    @blp.arguments(AcceptEndSchema)
    @blp.response(200, AgreementStateSchema)
    @declare(blp, "not-permitted", "wrong-status")
    def post(self, answer, game_id):
        """Accept the open proposal for your seat; the last acceptance ends the game."""
        gid = parse_game_id(game_id)
        return _state(gid, service().agreements.accept(gid, _member(gid), answer.get("seat")))


@blp.route("/<game_id>/end-proposal/withdraw")
class WithdrawEnd(MethodView):
    @idempotent
    @blp.doc(operationId="withdrawEnd", security=BEARER)
    @blp.response(200, AgreementStateSchema)
    @declare(blp, "not-permitted", "wrong-status")
    def post(self, game_id):
        """Withdraw your proposal, or decline another seat's: it ends, and the game goes on."""
        gid = parse_game_id(game_id)
        return _state(gid, service().agreements.withdraw(gid, _member(gid)))
