"""The static game material, loaded once from the JSON files beside this module (board.json, tiles.json):
the city (triangles, crossings, wall) and the 28 building rhomboids.

Everything here is derived from the data and never changes during a game,
so the rules index it by position (triangle and crossing numbers) and the
events name it by id ("T05", "X12")."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

_DATA = Path(__file__).parent

PLAIN = "plain"
PARK = "park"
MUSKETEER = "musketeer"
COAT_OF_ARMS = "coat_of_arms"
KINDS = (PLAIN, PARK, MUSKETEER, COAT_OF_ARMS)


@dataclass(frozen=True)
class Crossing:
    index: int
    id: str
    x: float
    y: float
    triangles: tuple[int, ...]  # the triangles that touch this crossing


@dataclass(frozen=True)
class Triangle:
    index: int
    id: str
    corners: tuple[int, int, int]  # crossing indices
    x: float
    y: float
    kind: str
    wall_sides: tuple[tuple[str, str], ...]
    neighbours: tuple[int, ...]  # triangles across a side; a wall side has none


@dataclass(frozen=True)
class Slot:
    """Two edge-adjacent triangles a rhomboid may cover, ``first`` < ``second``.

    ``ring`` holds the four crossings clockwise (as drawn, y downwards),
    starting at the corner of ``first`` that ``second`` does not share:
    apex of first, shared, apex of second, shared."""

    first: int
    second: int
    ring: tuple[int, int, int, int]

    def corners(self, numbers: tuple[int, ...], turned: bool) -> tuple[tuple[int, int], ...]:
        """(crossing, number) for each corner of a tile laid here; a turned
        tile is rotated half a turn, its first corner on the apex of ``second``."""
        shift = 2 if turned else 0
        return tuple((self.ring[(i + shift) % 4], numbers[i]) for i in range(4))


@dataclass(frozen=True)
class Tile:
    id: int
    corners: tuple[int, int, int, int]


class Board:
    def __init__(self, board: dict, tiles: dict):
        self.family_members: int = board["family_members"]
        self.crossings: tuple[Crossing, ...] = ()
        crossing_index = {c["id"]: i for i, c in enumerate(board["crossings"])}
        raw_triangles = board["triangles"]
        corners = [tuple(crossing_index[c] for c in t["corners"]) for t in raw_triangles]
        by_side: dict[frozenset, list[int]] = {}
        for index, tri in enumerate(corners):
            for a, b in ((tri[0], tri[1]), (tri[1], tri[2]), (tri[0], tri[2])):
                by_side.setdefault(frozenset((a, b)), []).append(index)
        neighbours: list[list[int]] = [[] for _ in raw_triangles]
        for pair in by_side.values():
            if len(pair) == 2:
                neighbours[pair[0]].append(pair[1])
                neighbours[pair[1]].append(pair[0])
        self.triangles = tuple(
            Triangle(
                index=i,
                id=t["id"],
                corners=corners[i],  # type: ignore[arg-type]
                x=t["x"],
                y=t["y"],
                kind=t["kind"],
                wall_sides=tuple(tuple(side) for side in t["wall_sides"]),  # type: ignore[misc]
                neighbours=tuple(sorted(neighbours[i])),
            )
            for i, t in enumerate(raw_triangles)
        )
        touching: list[list[int]] = [[] for _ in board["crossings"]]
        for tri in self.triangles:
            for c in tri.corners:
                touching[c].append(tri.index)
        self.crossings = tuple(
            Crossing(i, c["id"], c["x"], c["y"], tuple(touching[i])) for i, c in enumerate(board["crossings"])
        )
        self.crossing_index = crossing_index
        self.triangle_index = {t.id: t.index for t in self.triangles}
        self.slots = tuple(self._slot(a, b) for a in range(len(self.triangles)) for b in self.triangles[a].neighbours if a < b)
        self.slot_index = {(s.first, s.second): s for s in self.slots}
        self.slots_of: tuple[tuple[Slot, ...], ...] = tuple(
            tuple(s for s in self.slots if t in (s.first, s.second)) for t in range(len(self.triangles))
        )
        self.tiles = tuple(Tile(t["id"], tuple(t["corners"])) for t in tiles["tiles"])  # type: ignore[arg-type]
        self.tile_by_id = {t.id: t for t in self.tiles}
        self.assumptions = tuple(board["assumptions"]) + tuple(tiles["assumptions"])

    def _slot(self, a: int, b: int) -> Slot:
        first, second = self.triangles[a], self.triangles[b]
        apex_a = next(c for c in first.corners if c not in second.corners)
        points = set(first.corners) | set(second.corners)
        cx = sum(self.crossings[p].x for p in points) / 4
        cy = sum(self.crossings[p].y for p in points) / 4
        # With y pointing down, a growing angle turns clockwise on screen.
        ordered = sorted(points, key=lambda p: math.atan2(self.crossings[p].y - cy, self.crossings[p].x - cx))
        start = ordered.index(apex_a)
        ring = tuple(ordered[(start + i) % 4] for i in range(4))
        return Slot(a, b, ring)  # type: ignore[arg-type]


def _load(name: str) -> dict:
    return json.loads((_DATA / name).read_text(encoding="utf-8"))


BOARD = Board(_load("board.json"), _load("tiles.json"))
