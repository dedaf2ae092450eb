"""Cronberg's heuristic bot: it decides from its seat's view, the legal
commands and the printed board (what every player knows from the box)."""

from __future__ import annotations

from .board import BOARD as CRONBERG


class CronbergBot:
    """Lays each building where its corner numbers add most to crossings its
    own family members hold and least to its rivals'; places a member on the
    best free crossing when that is worth 4 or more, else draws a building."""

    def choose(self, view, legal_commands, rng):
        me = view.get("viewer")
        crossings = {c["id"]: c for c in view.get("crossings", ())}
        members = [c for c in legal_commands if c.type_name() == "PlaceMember"]
        buildings = [c for c in legal_commands if c.type_name() == "PlaceBuilding"]
        if buildings:
            return max(buildings, key=lambda c: (self._gain(view, crossings, me, c), rng.random()))
        if members:
            best = max(members, key=lambda c: (crossings.get(c.crossing, {}).get("value", 0), rng.random()))
            draw = [c for c in legal_commands if c.type_name() == "DrawBuilding"]
            if crossings.get(best.crossing, {}).get("value", 0) >= 4 or not draw:
                return best
            return draw[0]
        return rng.choice(list(legal_commands))

    @staticmethod
    def _gain(view, crossings, me, command) -> float:
        drawn = view.get("drawn")
        tile = CRONBERG.tile_by_id.get(drawn if isinstance(drawn, int) else (drawn or {}).get("id"))
        if tile is None:
            return 0.0
        first, second = (CRONBERG.triangle_index[t] for t in command.triangles)
        slot = CRONBERG.slot_index.get((first, second))
        if slot is None:
            return 0.0
        gain = 0.0
        for crossing, number in slot.corners(tile.corners, command.turned):
            holder = crossings.get(CRONBERG.crossings[crossing].id, {}).get("member")
            gain += number if holder == me else -number if holder else number * 0.1
        return gain


BOTS = {"heuristic": CronbergBot}
