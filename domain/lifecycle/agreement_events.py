"""The events of ending a game by agreement (domain.lifecycle.agreement):
engine events, public, shown to every viewer as they are. Kept apart from
the decisions so that ``state`` can fold them without importing those."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..engine import Event

CANCELLED, AS_IT_STANDS = "cancelled", "as-it-stands"
ENDINGS = (CANCELLED, AS_IT_STANDS)
CANCELLED_OUTCOME = "Ended by agreement of its players: cancelled, with no result"


@dataclass(frozen=True)
class EndProposed(Event):
    """``seat``'s player proposes ending the game: ``ending`` is "cancelled"
    (no result) or "as-it-stands" (ranked by the game's score as it is now).
    The proposal counts as the proposer's acceptance."""

    seat: str
    player: str
    ending: str


@dataclass(frozen=True)
class EndAccepted(Event):
    """Another seat's player accepts the open proposal."""

    seat: str
    player: str


@dataclass(frozen=True)
class EndWithdrawn(Event):
    """The proposer withdraws the open proposal, or another seat's player
    declines it: either way it is over, and the game goes on."""

    seat: str
    player: str


@dataclass(frozen=True)
class EndAgreed(Event):
    """Every seat a player plays accepted (bots accept at once): the game
    ends. "cancelled": with no result (the status is cancelled);
    "as-it-stands": GameOver follows in the same batch, GameScored ranks
    the seats by the game's score as it stood."""

    ending: str


@dataclass(frozen=True)
class Proposal:
    """An open proposal: its seat, its ending, the seats that accepted (the proposer's among them)."""

    seat: str
    ending: str
    accepted: frozenset[str] = frozenset()


AGREEMENT_EVENTS = (EndProposed, EndAccepted, EndWithdrawn, EndAgreed)


def fold_agreement(session: Any, life: Any, event: Event) -> Any:
    """The session after one of these events."""
    if isinstance(event, EndProposed):
        return replace(session, life=replace(life, proposal=Proposal(event.seat, event.ending,
                                                                     frozenset({event.seat}))))
    if isinstance(event, EndAccepted) and life.proposal is not None:
        accepted = replace(life.proposal, accepted=life.proposal.accepted | {event.seat})
        return replace(session, life=replace(life, proposal=accepted))
    if isinstance(event, EndWithdrawn):
        return replace(session, life=replace(life, proposal=None))
    if isinstance(event, EndAgreed):
        ended = replace(session, life=replace(life, proposal=None, agreed=event.ending))
        return replace(ended, status="cancelled", outcome=CANCELLED_OUTCOME) if event.ending == CANCELLED else ended
    return session
