"""Questions the rules ask of a state: what is vacant, enclosed, active,
where a member may go, what a crossing is worth, who can still act."""

from __future__ import annotations

from .board import BOARD, COAT_OF_ARMS, MUSKETEER, PARK, Slot
from .state import State


def vacant(state: State, triangle: int) -> bool:
    return state.cover[triangle] == 0


def is_enclosed(state: State, triangle: int) -> bool:
    """Vacant, and every side borders a building or the wall."""
    return vacant(state, triangle) and all(not vacant(state, n) for n in BOARD.triangles[triangle].neighbours)


def active(state: State, triangle: int, kind: str) -> bool:
    return BOARD.triangles[triangle].kind == kind and triangle in state.enclosed


def free_slots(state: State) -> list[Slot]:
    return [s for s in BOARD.slots if vacant(state, s.first) and vacant(state, s.second)]


def can_build(state: State) -> bool:
    return bool(state.stack) and any(vacant(state, s.first) and vacant(state, s.second) for s in BOARD.slots)


def touches_vacant(state: State, crossing: int) -> bool:
    return any(vacant(state, t) for t in BOARD.crossings[crossing].triangles)


def beside_active(state: State, crossing: int, kind: str) -> int:
    """How many active triangles of this kind touch the crossing."""
    return sum(1 for t in BOARD.crossings[crossing].triangles if active(state, t, kind))


def member_refusal(state: State, crossing: int) -> str | None:
    """Why no family member may be placed on this crossing, or None."""
    name = BOARD.crossings[crossing].id
    if state.members[crossing] != -1:
        return f"crossing {name} is not free: {state.seats[state.members[crossing]]} has a family member there"
    if not touches_vacant(state, crossing):
        return f"crossing {name} borders no vacant triangle"
    if beside_active(state, crossing, MUSKETEER):
        return f"crossing {name} borders an active Musketeer, who lets no family member settle there"
    return None


def member_crossings(state: State) -> list[int]:
    return [c.index for c in BOARD.crossings if member_refusal(state, c.index) is None]


def can_place_member(state: State, seat: int) -> bool:
    return state.supply[seat] > 0 and any(member_refusal(state, c.index) is None for c in BOARD.crossings)


def can_act(state: State, seat: int) -> bool:
    return can_build(state) or can_place_member(state, seat)


def plain_value(state: State, crossing: int) -> int:
    return sum(state.corner_numbers[crossing])


def crossing_value(state: State, crossing: int) -> int:
    """The sum of the corner numbers at the crossing; with an active Coat of
    Arms there, of their absolute values; then doubled per active Park."""
    numbers = state.corner_numbers[crossing]
    if beside_active(state, crossing, COAT_OF_ARMS):
        total = sum(abs(n) for n in numbers)
    else:
        total = sum(numbers)
    return total * 2 ** beside_active(state, crossing, PARK)
