"""Deciding commands: validation, the consequences of a building (enclosure,
Musketeers, immediate scoring), passing, the end of a round and of the game."""

from __future__ import annotations

import random

from ...engine import Command, Event, IllegalCommand, not_your_turn
from .board import BOARD, MUSKETEER, Slot
from .logic import can_act, can_build, crossing_value, is_enclosed, member_refusal, plain_value, touches_vacant
from .messages import (
    BuildingDrawn,
    BuildingPlaced,
    DrawBuilding,
    GameEnded,
    MemberDrivenOut,
    MemberPlaced,
    MemberScored,
    PlaceBuilding,
    PlaceMember,
    RoundEnded,
    RoundStarted,
    TriangleEnclosed,
    TurnBegan,
    TurnPassed,
)
from .state import State, evolve


def start_round(seats: tuple[str, ...], round_number: int, starter: str, rng: random.Random) -> RoundStarted:
    stack = [tile.id for tile in BOARD.tiles]
    rng.shuffle(stack)
    return RoundStarted(round=round_number, starter=starter, stack=tuple(stack))


def decide(state: State, seat: str, command: Command, rng: random.Random) -> list[Event]:
    if state.over or seat not in state.seats or state.seats[state.current] != seat:
        raise not_your_turn(seat, () if state.over else (state.seats[state.current],))
    if isinstance(command, DrawBuilding):
        return _draw(state, seat)
    if isinstance(command, PlaceBuilding):
        return _place_building(state, seat, command, rng)
    if isinstance(command, PlaceMember):
        return _place_member(state, seat, command, rng)
    raise IllegalCommand(f"Cronberg has no command {type(command).__name__}")


def _draw(state: State, seat: str) -> list[Event]:
    if state.drawn:
        raise IllegalCommand(f"you have already drawn building {state.drawn}: place it first")
    if not state.stack:
        raise IllegalCommand("no building rhomboids are left to draw")
    if not can_build(state):
        raise IllegalCommand("no two edge-adjacent vacant triangles are left, so no building can be placed")
    tile = BOARD.tile_by_id[state.stack[0]]
    return [BuildingDrawn(seat=seat, tile=tile.id, corners=tile.corners)]


def slot_named(triangles: tuple[str, ...]) -> Slot:
    """The slot the command names, or IllegalCommand saying why not."""
    if not isinstance(triangles, tuple) or not all(isinstance(t, str) for t in triangles):
        raise IllegalCommand("name the two triangles as a list of two triangle ids, e.g. [\"T05\", \"T06\"]")
    if len(triangles) != 2:
        raise IllegalCommand(f"a building covers exactly two triangles, not {len(triangles)}")
    unknown = [t for t in triangles if t not in BOARD.triangle_index]
    if unknown:
        raise IllegalCommand(f"there is no triangle {unknown[0]!r} in the city (they are T01..T{len(BOARD.triangles):02d})")
    first, second = (BOARD.triangle_index[t] for t in triangles)
    slot = BOARD.slot_index.get((min(first, second), max(first, second)))
    if slot is None:
        raise IllegalCommand(f"triangles {triangles[0]} and {triangles[1]} do not share a side")
    if first > second:
        raise IllegalCommand(f"name the two triangles in board order: {triangles[1]}, {triangles[0]}")
    return slot


def _place_building(state: State, seat: str, command: PlaceBuilding, rng: random.Random) -> list[Event]:
    if not state.drawn:
        raise IllegalCommand("draw a building first (DrawBuilding), then place it")
    if not isinstance(command.turned, bool):
        raise IllegalCommand("turned must be true or false")
    slot = slot_named(command.triangles)
    for t in (slot.first, slot.second):
        if state.cover[t]:
            raise IllegalCommand(f"triangle {BOARD.triangles[t].id} is already covered by a building")
    placed = BuildingPlaced(seat=seat, tile=state.drawn, triangles=tuple(command.triangles), turned=command.turned)
    events: list[Event] = [placed]
    after = evolve(state, placed)
    events += consequences(after, slot)
    for event in events[1:]:
        after = evolve(after, event)
    return events + next_turn(after, rng)


def consequences(state: State, slot: Slot) -> list[Event]:
    """What a building just laid in ``slot`` sets off, in order: triangles
    enclosed, members driven out by newly active Musketeers, then members
    left with no vacant triangle scored at once (plain sum)."""
    events: list[Event] = []
    near = sorted({n for t in (slot.first, slot.second) for n in BOARD.triangles[t].neighbours})
    newly = [t for t in near if t not in state.enclosed and is_enclosed(state, t)]
    events += [TriangleEnclosed(triangle=BOARD.triangles[t].id, kind=BOARD.triangles[t].kind) for t in newly]
    driven: set[int] = set()
    for t in newly:
        if BOARD.triangles[t].kind == MUSKETEER:
            for c in BOARD.triangles[t].corners:
                if state.members[c] != -1 and c not in driven:
                    driven.add(c)
                    events.append(MemberDrivenOut(seat=state.seats[state.members[c]], crossing=BOARD.crossings[c].id))
    for c in sorted(slot.ring):
        if state.members[c] != -1 and c not in driven and not touches_vacant(state, c):
            owner = state.seats[state.members[c]]
            events.append(MemberScored(seat=owner, crossing=BOARD.crossings[c].id, points=plain_value(state, c), at_end=False))
    return events


def _place_member(state: State, seat: str, command: PlaceMember, rng: random.Random) -> list[Event]:
    if state.drawn:
        raise IllegalCommand(f"you have drawn building {state.drawn}: place it first")
    number = state.seat_number(seat)
    if state.supply[number] <= 0:
        raise IllegalCommand("all your family members are in the city; none is left to place")
    crossing = BOARD.crossing_index.get(command.crossing) if isinstance(command.crossing, str) else None
    if crossing is None:
        raise IllegalCommand(f"there is no crossing {command.crossing!r} in the city (they are X01..X{len(BOARD.crossings):02d})")
    refusal = member_refusal(state, crossing)
    if refusal:
        raise IllegalCommand(refusal)
    placed = MemberPlaced(seat=seat, crossing=command.crossing)
    return [placed] + next_turn(evolve(state, placed), rng)


def next_turn(state: State, rng: random.Random) -> list[Event]:
    """Clockwise, the next seat that can act begins its turn; those that
    cannot pass. When nobody can act, the round ends."""
    count = len(state.seats)
    passes: list[Event] = []
    for step in range(1, count + 1):
        number = (state.current + step) % count
        if can_act(state, number):
            return passes + [TurnBegan(seat=state.seats[number])]
        if step < count:
            passes.append(TurnPassed(seat=state.seats[number]))
    return end_round(state, rng)


def end_round(state: State, rng: random.Random) -> list[Event]:
    events: list[Event] = []
    scores = list(state.scores)
    for c, owner in enumerate(state.members):
        if owner != -1:
            points = crossing_value(state, c)
            scores[owner] += points
            events.append(MemberScored(seat=state.seats[owner], crossing=BOARD.crossings[c].id, points=points, at_end=True))
    events.append(RoundEnded(round=state.round, scores=tuple(scores)))
    if state.round < state.rounds:
        starter = state.seats[(state.starter + 1) % len(state.seats)]
        events.append(start_round(state.seats, state.round + 1, starter, rng))
    else:
        best = max(scores)
        winners = tuple(seat for seat, score in zip(state.seats, scores) if score == best)
        events.append(GameEnded(winners=winners, points=best))
    return events
