"""What each viewer may see: a seat its own hand and its own face-down card;
everyone the hand sizes, the revealed cards and the rounds won; only the
referee (EVERYONE) every hand and the undealt deck."""

from __future__ import annotations

from ...engine import EVERYONE, Event
from .messages import CardChosen, CardsDealt
from .state import ROUNDS, State

FACE_DOWN = "face-down"


def to_act(state: State | None) -> frozenset[str]:
    if state is None or state.over:
        return frozenset()
    return frozenset(seat for seat, card in zip(state.seats, state.chosen) if not card)


def outcome(state: State) -> str | None:
    if not state.over:
        return None
    most = max(state.rounds_won)
    winners = [seat for seat, won in zip(state.seats, state.rounds_won) if won == most]
    rounds = f"{most} round{'' if most == 1 else 's'}"
    if len(winners) == 1:
        return f"{winners[0]} wins with {rounds}"
    return f"{', '.join(winners[:-1])} and {winners[-1]} share the win with {rounds}"


def view(state: State, viewer: str | None) -> dict:
    data = {
        "game": "example",
        "viewer": viewer,
        "seats": list(state.seats),
        "to_act": sorted(to_act(state)),
        "round": min(state.round, ROUNDS),
        "rounds": ROUNDS,
        "over": state.over,
        "hand_sizes": {seat: len(hand) for seat, hand in zip(state.seats, state.hands)},
        "table": {seat: card if viewer in (seat, EVERYONE) else FACE_DOWN
                  for seat, card in zip(state.seats, state.chosen) if card},
        "last_reveal": None if state.last_reveal is None else dict(zip(state.seats, state.last_reveal)),
        "rounds_won": dict(zip(state.seats, state.rounds_won)),
        "outcome": outcome(state),
    }
    if viewer in state.seats:
        data["hand"] = list(state.hands[state.number(viewer)])
    if viewer == EVERYONE:
        data["hands"] = {seat: list(hand) for seat, hand in zip(state.seats, state.hands)}
        data["deck"] = list(state.deck)
    return data


def visible(event: Event, viewer: str | None) -> dict:
    data = event.to_json()
    if viewer == EVERYONE:
        return data
    if isinstance(event, CardsDealt):
        hands = data.pop("hands")
        deck = data.pop("deck")
        data["hand_size"], data["deck_size"] = len(hands[0]), len(deck)
        if viewer in event.seats:
            data["hand"] = hands[event.seats.index(viewer)]
    elif isinstance(event, CardChosen) and viewer != event.seat:
        del data["card"]
    return data
