"""The state of a Cronberg game and the fold over its events (``evolve``).

The state is indexed by position in the board data: ``cover[t]`` is the tile
on triangle t (0 when vacant), ``members[c]`` the seat number of the family
member on crossing c (-1 when free), ``corner_numbers[c]`` the corner numbers
of all rhomboids touching crossing c."""

from __future__ import annotations

from dataclasses import dataclass, replace

from .board import BOARD
from .messages import (
    BuildingDrawn,
    BuildingPlaced,
    GameEnded,
    GameSetUp,
    MemberDrivenOut,
    MemberPlaced,
    MemberScored,
    RoundStarted,
    TriangleEnclosed,
    TurnBegan,
    TurnPassed,
)

_NO_TRIANGLES = tuple(0 for _ in BOARD.triangles)
_NO_MEMBERS = tuple(-1 for _ in BOARD.crossings)
_NO_NUMBERS: tuple[tuple[int, ...], ...] = tuple(() for _ in BOARD.crossings)


@dataclass(frozen=True)
class Building:
    tile: int
    first: int
    second: int
    turned: bool


@dataclass(frozen=True)
class State:
    seats: tuple[str, ...]
    rounds: int
    scores: tuple[int, ...]
    round: int = 0
    starter: int = 0
    current: int = 0
    supply: tuple[int, ...] = ()
    stack: tuple[int, ...] = ()  # hidden: face-down order, top first
    drawn: int = 0  # the face-up tile waiting to be placed, 0 for none
    cover: tuple[int, ...] = _NO_TRIANGLES
    buildings: tuple[Building, ...] = ()
    corner_numbers: tuple[tuple[int, ...], ...] = _NO_NUMBERS
    members: tuple[int, ...] = _NO_MEMBERS
    enclosed: tuple[int, ...] = ()  # triangle indices, in the order they were enclosed
    passed: tuple[str, ...] = ()  # seats that passed since the last action
    over: bool = False

    def seat_number(self, seat: str) -> int:
        return self.seats.index(seat)


def _set(values: tuple, index: int, value) -> tuple:
    return values[:index] + (value,) + values[index + 1 :]


def evolve(state: State | None, event) -> State:
    if isinstance(event, GameSetUp):
        return State(
            seats=tuple(event.seats),
            rounds=event.rounds,
            scores=tuple(0 for _ in event.seats),
            supply=tuple(BOARD.family_members for _ in event.seats),
        )
    assert state is not None
    if isinstance(event, RoundStarted):
        starter = state.seat_number(event.starter)
        return replace(
            state,
            round=event.round,
            starter=starter,
            current=starter,
            supply=tuple(BOARD.family_members for _ in state.seats),
            stack=tuple(event.stack),
            drawn=0,
            cover=_NO_TRIANGLES,
            buildings=(),
            corner_numbers=_NO_NUMBERS,
            members=_NO_MEMBERS,
            enclosed=(),
            passed=(),
        )
    if isinstance(event, BuildingDrawn):
        stack = state.stack[1:] if state.stack[:1] == (event.tile,) else tuple(t for t in state.stack if t != event.tile)
        return replace(state, stack=stack, drawn=event.tile)
    if isinstance(event, BuildingPlaced):
        return _place_building(state, event)
    if isinstance(event, TriangleEnclosed):
        return replace(state, enclosed=state.enclosed + (BOARD.triangle_index[event.triangle],))
    if isinstance(event, (MemberDrivenOut, MemberScored)):
        seat = state.seat_number(event.seat)
        crossing = BOARD.crossing_index[event.crossing]
        points = event.points if isinstance(event, MemberScored) else 0
        return replace(
            state,
            members=_set(state.members, crossing, -1),
            supply=_set(state.supply, seat, state.supply[seat] + 1),
            scores=_set(state.scores, seat, state.scores[seat] + points),
        )
    if isinstance(event, MemberPlaced):
        seat = state.seat_number(event.seat)
        crossing = BOARD.crossing_index[event.crossing]
        return replace(
            state,
            members=_set(state.members, crossing, seat),
            supply=_set(state.supply, seat, state.supply[seat] - 1),
            passed=(),
        )
    if isinstance(event, TurnPassed):
        return replace(state, passed=state.passed + (event.seat,))
    if isinstance(event, TurnBegan):
        return replace(state, current=state.seat_number(event.seat))
    if isinstance(event, GameEnded):
        return replace(state, over=True)
    return state


def _place_building(state: State, event: BuildingPlaced) -> State:
    first, second = (BOARD.triangle_index[t] for t in event.triangles)
    slot = BOARD.slot_index[(first, second)]
    numbers = BOARD.tile_by_id[event.tile].corners
    corner_numbers = list(state.corner_numbers)
    for crossing, number in slot.corners(numbers, event.turned):
        corner_numbers[crossing] = corner_numbers[crossing] + (number,)
    cover = list(state.cover)
    cover[first] = cover[second] = event.tile
    return replace(
        state,
        drawn=0,
        cover=tuple(cover),
        corner_numbers=tuple(corner_numbers),
        buildings=state.buildings + (Building(event.tile, first, second, event.turned),),
        passed=(),
    )
