"""What each seat may see: ``view`` of the state and ``visible`` of an event.

Lind's player (and EVERYONE) sees everything. Detective seats and spectators
see the detectives, the route as face-down cards (whether a card lies on each
card Lind has left, and what was revealed), jewels left, Lind's card count
and the turn; never Lind's location, an unrevealed route card, or what kind
of card lies face down. Each Lind turn is one ``LindMoved`` event whose
public form is the same for a move and a hide."""

from __future__ import annotations

from ...engine import EVERYONE
from . import messages as m
from .data import BOARD
from .legal import LIND_SEAT, gather_refusal, to_act
from .state import RouteCard, State

BOARD_VIEW = {
    "locations": [
        {
            "id": loc.id,
            "name": loc.name,
            "x": loc.x,
            "y": loc.y,
            "jewel": loc.jewel,
            "underground": loc.underground,
            "instrument": loc.instrument,
        }
        for loc in BOARD.locations.values()
    ],
    "foot_lines": [list(line) for line in BOARD.foot_lines],
    "cab_lines": [list(line) for line in BOARD.cab_lines],
    "traps": [
        {
            "id": trap.id,
            "name": trap.name,
            "instrument": trap.instrument,
            "effect": trap.effect,
            "extraordinary": trap.extraordinary,
            "text": trap.text,
        }
        for trap in BOARD.traps.values()
    ],
    "instruments": [{"id": tool, "name": BOARD.instrument_names[tool]} for tool in BOARD.instruments],
}


def sees_all(viewer: str | None) -> bool:
    return viewer in (LIND_SEAT, EVERYONE)


def _route_card(index: int, card: RouteCard, last: int) -> dict:
    left = index < last
    return {
        "index": index,
        "left": left,
        "card_left": (card.card is not None) if left else None,
        "revealed": card.location_shown,
        "hide": card.hide if card.location_shown else None,
        "location": card.location if card.location_shown and not card.hide else None,
        "card_revealed": card.card_shown,
        "card": card.card if card.card_shown else None,
        "trap_spent": card.spent,
    }


def _detective(state: State, detective) -> dict:
    return {
        "id": detective.id,
        "name": BOARD.detective_names[detective.id],
        "seat": detective.seat,
        "location": detective.location,
        "equipped": detective.equipped,
        "tickets": detective.tickets,
        "instruments": list(detective.instruments),
        "acted": detective.id in state.acted,
        "stunned": detective.stunned,
        "may_gather_information": state.phase == "detectives"
        and detective.id not in state.acted
        and gather_refusal(state, detective) is None,
    }


def _secret(state: State) -> dict:
    return {
        "location": state.lind_at,
        "hand": [{"card": card, "count": n} for card, n in state.hand],
        "stolen": list(state.stolen),
        "route": [{"location": c.location, "hide": c.hide, "card": c.card} for c in state.route],
    }


def _hand(state: State, viewer: str | None) -> list | None:
    """The viewer's cards, one entry per card, as a client draws his hand
    (shapes.HAND): Lind's hand for Lind's player, the cards of the detectives
    a detective seat directs for that seat; null for a viewer with no seat."""
    if viewer == LIND_SEAT:
        return [card for card, n in state.hand for _ in range(n)]
    if viewer not in state.seats:
        return None
    return [card for d in state.detectives if d.seat == viewer
            for card in (*(["ticket"] * d.tickets), *d.instruments)]


def view(state: State | None, viewer: str | None) -> dict:
    if state is None:
        return {"phase": "not started", "to_act": []}
    last = len(state.route) - 1
    return {
        "phase": state.phase,
        "turn": state.turn,
        "last_turn": state.last_turn,
        "to_act": sorted(to_act(state)),
        "outcome": state.result,
        "winner": state.winner,
        "equipment": state.equipment,
        "shared_control": state.shared,
        "detectives": [_detective(state, d) for d in state.detectives],
        "detective_deck": [{"card": card, "count": n} for card, n in state.deck],
        "route": [_route_card(i, card, last) for i, card in enumerate(state.route)],
        "jewels_left": state.jewels_left,
        "lind_cards_left": state.cards_left,
        "lind": _secret(state) if sees_all(viewer) else None,
        "hand": _hand(state, viewer),
        "board": BOARD_VIEW,
    }


def visible(event: m.Event, viewer: str | None) -> dict:
    if sees_all(viewer):
        return event.to_json()
    if isinstance(event, m.LindAppeared):
        return {"type": "LindAppeared"}
    if isinstance(event, m.LindMoved):
        return {"type": "LindMoved", "card_left": event.card is not None, "jewel_stolen": event.stole}
    if isinstance(event, m.LindMovedExtraordinarily):
        return {"type": "LindMovedExtraordinarily", "jewel_stolen": event.stole}
    return event.to_json()
