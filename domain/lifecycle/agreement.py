"""Ending a game by agreement, in every game alike: a seat's player
proposes ending it, "cancelled" (no result) or "as-it-stands" (ranked by
the game's own score as it is now, ties where equal); every other seat a
player plays must accept (a bot's seat accepts at once: a bot has no stake
in going on, and one left to a bot would otherwise hold the others hostage);
when the last of them has, the game ends in the same batch (EndAgreed, and
GameOver for "as-it-stands").

One proposal at a time: a second is refused while one is open (withdraw or
decline it first), so that nobody accepts what he did not read. Any player
of a seat may end the open proposal (EndWithdrawn: withdrawn by its
proposer, declined by another). It stays open while the game goes on.
"""

from __future__ import annotations

from typing import Any, Sequence

from .. import session as sessions
from ..engine import Event, IllegalCommand, Standing
from ..kit import Game
from . import standings
from .agreement_events import AS_IT_STANDS, CANCELLED, ENDINGS, EndAccepted, EndAgreed, EndProposed, EndWithdrawn
from .decide import NotAllowed, NotNow
from .pause import player_seat, playing_seats


def propose(rules: Game, session, player: str, ending: Any, seed: bytes) -> list[Event]:
    if ending not in ENDINGS:
        raise IllegalCommand(f"an ending is {' or '.join(ENDINGS)}, not {ending!r}")
    seat = player_seat(session, player, "propose ending the game")
    open_one = session.life.proposal
    if open_one is not None:
        raise NotNow(f"{open_one.seat} proposed ending the game ({open_one.ending}) already: accept it, or "
                     "decline it, before proposing another ending")
    proposed = EndProposed(seat, player, ending)
    return [proposed, *_ended_if_all(rules, session, {seat}, ending, seed)]


def accept(rules: Game, session, player: str, seed: bytes, for_seat: str | None = None) -> list[Event]:
    seat = player_seat(session, player, "accept ending the game")
    if for_seat is not None and for_seat != seat:
        raise NotAllowed(f"you play {seat}: you may accept for your own seat only, not for {for_seat}")
    proposal = session.life.proposal
    if proposal is None:
        raise NotNow("nobody has proposed ending the game: there is nothing to accept")
    if seat in proposal.accepted:
        raise NotNow(f"{seat} has accepted this proposal already" if seat != proposal.seat
                     else "you proposed this ending: your proposal counts as your acceptance")
    accepted = proposal.accepted | {seat}
    return [EndAccepted(seat, player), *_ended_if_all(rules, session, accepted, proposal.ending, seed)]


def withdraw(session, player: str) -> list[Event]:
    seat = player_seat(session, player, "withdraw or decline a proposal to end the game")
    if session.life.proposal is None:
        raise NotNow("nobody has proposed ending the game: there is nothing to withdraw or decline")
    return [EndWithdrawn(seat, player)]


def _ended_if_all(rules: Game, session, accepted: set[str] | frozenset[str], ending: str, seed: bytes) -> list[Event]:
    """EndAgreed (and GameOver) when every seat a player plays has accepted."""
    if not set(playing_seats(session)) <= set(accepted):
        return []
    if ending == CANCELLED:
        return [EndAgreed(CANCELLED)]
    return [EndAgreed(AS_IT_STANDS), sessions.GameOver(outcome(as_it_stands(rules, session)), seed.hex())]


def as_it_stands(rules: Game, session) -> list[Standing]:
    """The standings of a game ended as it stands (domain.lifecycle.standings)."""
    own = rules.score(session.state) if rules.score_as_it_stands else None
    return standings.as_it_stands(own, session.seats, session.life.resigned, session.life.abandoned)


def outcome(result: Sequence[Standing]) -> str:
    """The GameOver sentence of a game ended as it stands: who is first, by what score."""
    first = [s.seat for s in result if s.rank == 1]
    names = first[0] if len(first) == 1 else f"{', '.join(first[:-1])} and {first[-1]}"
    verb = "is first" if len(first) == 1 else "share first place"
    scored = ", ".join(f"{s.seat} {_number(s.score)}" for s in result if s.score is not None)
    why = f"score: {scored}" if scored else "the game keeps no score while it runs"
    return f"Ended by agreement of its players, as it stands: {names} {verb} ({why})"


def _number(value) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
