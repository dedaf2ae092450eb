"""Builders for Coronation tests: given events, then decide."""

from __future__ import annotations

import random

from domain.games.coronation import RULES
from domain.games.coronation import messages as m
from domain.games.coronation.data import BOARD

FANDORIN, MASA, ZYUKIN, ENDLUNG, KARNOVICH = BOARD.detectives
LIND = "lind"
D1 = "detective-1"
RNG = random.Random(0)

# Far from the centre of the board where the tests play.
FAR = {FANDORIN: 1, MASA: 9, ZYUKIN: 10, ENDLUNG: 19, KARNOVICH: 20}
RED_SQUARE = 55  # underground entrance; foot to 45, 54, 65; cab to 33
LUBYANKA = 45  # underground entrance; foot to 35, 44, 46, 55; cab to 33, 38
USPENSKY = 54  # jewel; foot to 53, 55, 64
ZARYADYE = 65  # underground entrance; foot to 55, 64, 75
FOUNDLING_HOME = 57  # special (first-aid kit); foot to 47, 56, 58, 67
NIKOLSKAYA = 56  # foot to 46, 57, 66


def started(
    places: dict | None = None,
    hands: dict | None = None,
    seats: tuple = (LIND, D1),
    control: tuple | None = None,
    shared: bool = False,
    last_turn: int = 21,
    equipment: str = "recommended",
) -> list[m.Event]:
    """A game whose detectives are equipped and placed: Lind is to appear."""
    places = {**FAR, **(places or {})}
    hands = {d: ("ticket", "ticket") for d in BOARD.detectives} | (hands or {})
    if control is None:
        control = tuple((d, seats[1]) for d in BOARD.detectives)
    events: list[m.Event] = [m.GameStarted(tuple(seats), last_turn, equipment, shared, control)]
    events += [m.DetectiveEquipped(d, hands[d]) for d in BOARD.detectives]
    events += [m.DetectivePlaced(d, places[d]) for d in BOARD.detectives]
    return events


def state_of(events):
    return RULES.replay(events)


def decide(events, seat, command):
    return RULES.decide(state_of(events), seat, command, RNG)


def then(events, *moves) -> list[m.Event]:
    """The events after each (seat, command) is decided in turn."""
    events = list(events)
    for seat, command in moves:
        events += decide(events, seat, command)
    return events


def lind_at(location: int, **kw) -> list[m.Event]:
    """Lind has appeared on ``location``; it is his first move."""
    return started(**kw) + [m.LindAppeared(location)]


def route(*steps, **kw) -> list[m.Event]:
    """Lind appeared on the first location and made the given moves, as
    (to, by, card) triples, each followed by the end of the detectives' turn
    (given as events: the detectives stay where they were placed)."""
    first, *rest = steps
    events = lind_at(first, **kw)
    state = state_of(events)
    for to, by, card in rest:
        stole = state.lind_at in BOARD.jewels and state.lind_at not in state.stolen
        events.append(m.LindMoved(to, by, card, stole if by != "hide" else False))
        events.append(m.TurnEnded(state.turn))
        state = state_of(events)
    return events


def detectives_turn(events) -> list[m.Event]:
    """After Lind's move: the detectives' acting is done (given as the end of the turn)."""
    return events + [m.TurnEnded(state_of(events).turn)]


def only_detective_left(events, detective: str | None) -> list[m.Event]:
    """In the detectives' phase: every detective but one (or all, for None)
    has acted, given as events that leave them where they stand."""
    state = state_of(events)
    out = list(events)
    for d in state.detectives:
        if d.id != detective and d.id not in state.acted:
            out.append(m.DetectiveMoved(d.id, d.location, "foot"))
    return out
