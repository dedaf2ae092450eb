"""What each viewer may see. Everything in Cronberg is open except the order
of the face-down stack, which only the referee (EVERYONE) sees."""

from __future__ import annotations

from ...engine import EVERYONE, Event
from .board import BOARD, PLAIN
from .logic import crossing_value, member_refusal
from .messages import RoundStarted
from .state import State


def outcome(state: State) -> str | None:
    if not state.over:
        return None
    best = max(state.scores)
    winners = [seat for seat, score in zip(state.seats, state.scores) if score == best]
    points = f"{best} point{'' if abs(best) == 1 else 's'}"
    if len(winners) == 1:
        return f"{winners[0]} wins with {points}"
    return f"{', '.join(winners[:-1])} and {winners[-1]} share the win with {points}"


def to_act(state: State) -> frozenset[str]:
    if state is None or state.over:
        return frozenset()
    return frozenset((state.seats[state.current],))


def view(state: State, viewer: str | None) -> dict:
    current = None if state.over else state.seats[state.current]
    on_board = [sum(1 for m in state.members if m == n) for n in range(len(state.seats))]
    tile_at = {}
    for b in state.buildings:
        tile_at[b.first] = tile_at[b.second] = b.tile
    data = {
        "game": "cronberg",
        "viewer": viewer,
        "seats": list(state.seats),
        "to_act": sorted(to_act(state)),
        "current": current,
        "round": state.round,
        "rounds": state.rounds,
        "starter": state.seats[state.starter],
        "step": "over" if state.over else ("place_building" if state.drawn else "choose_action"),
        "players": [
            {"seat": seat, "score": state.scores[n], "supply": state.supply[n], "in_city": on_board[n]}
            for n, seat in enumerate(state.seats)
        ],
        "stack_size": len(state.stack),
        "drawn": _tile(state.drawn) if state.drawn else None,
        "hand": _hand(state, viewer, current),
        "triangles": [
            {
                "id": t.id,
                "corners": [BOARD.crossings[c].id for c in t.corners],
                "x": t.x,
                "y": t.y,
                "kind": t.kind,
                "wall_sides": [list(side) for side in t.wall_sides],
                "tile": tile_at.get(t.index),
                "enclosed": t.index in state.enclosed,
                "active": t.kind != PLAIN and t.index in state.enclosed,
            }
            for t in BOARD.triangles
        ],
        "crossings": [
            {
                "id": c.id,
                "x": c.x,
                "y": c.y,
                "member": None if state.members[c.index] == -1 else state.seats[state.members[c.index]],
                "numbers": list(state.corner_numbers[c.index]),
                "value": crossing_value(state, c.index),
                "open": member_refusal(state, c.index) is None,
            }
            for c in BOARD.crossings
        ],
        "buildings": [_building(b) for b in state.buildings],
        "tiles": [_tile(t.id) for t in BOARD.tiles],
        "passed": list(state.passed),
        "outcome": outcome(state),
    }
    if viewer == EVERYONE:
        data["stack"] = list(state.stack)
    return data


def _hand(state: State, viewer, current) -> list | None:
    """What a seat holds (shapes.HAND): the building it drew and lays next;
    null for a viewer who holds no seat."""
    if viewer not in state.seats:
        return None
    return [state.drawn] if state.drawn and viewer == current else []


def _tile(tile_id: int) -> dict:
    return {"id": tile_id, "corners": list(BOARD.tile_by_id[tile_id].corners)}


def _building(building) -> dict:
    slot = BOARD.slot_index[(building.first, building.second)]
    corners = slot.corners(BOARD.tile_by_id[building.tile].corners, building.turned)
    return {
        "tile": building.tile,
        "triangles": [BOARD.triangles[building.first].id, BOARD.triangles[building.second].id],
        "turned": building.turned,
        "corners": [{"crossing": BOARD.crossings[c].id, "number": n} for c, n in corners],
    }


def visible(event: Event, viewer: str | None) -> dict:
    data = event.to_json()
    if isinstance(event, RoundStarted) and viewer != EVERYONE:
        del data["stack"]
        data["stack_size"] = len(event.stack)
    return data
