"""One heuristic bot per game, kind ``heuristic``. Each decides from its
seat's view, the legal commands and the game's public board data (what every
player knows from the box), never from the state; bench/bots.py measures each
against random bots.

Most are weighted preferences over kinds of command (learned from which
commands winners of random games used more): a kind is drawn with its weight
among those legal now, then one command of that kind. Coronation's look at
the board: Lind runs from the detectives towards jewels, detectives close in
on where Lind was last seen.
"""

from __future__ import annotations

from collections import deque

from ...games.coronation.data import BOARD
from ...games.cronberg.board import BOARD as CRONBERG
from . import register


class Weighted:
    """Draws a kind of command by weight (1 for kinds not named), then one of that kind."""

    def __init__(self, weights: dict[str, float]):
        self.weights = weights

    def choose(self, view, legal_commands, rng):
        kinds = sorted({command.type_name() for command in legal_commands})
        kind = rng.choices(kinds, [self.weights.get(k, 1.0) for k in kinds])[0]
        return self.pick(view, [c for c in legal_commands if c.type_name() == kind], rng)

    def pick(self, view, commands, rng):
        return rng.choice(commands)


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


def _distances(sources) -> dict[int, int]:
    """Moves by foot or cab from the nearest of ``sources`` to every location."""
    seen = {s: 0 for s in sources if s is not None}
    queue = deque(seen)
    while queue:
        here = queue.popleft()
        for there in (*BOARD.foot.get(here, ()), *BOARD.cab.get(here, ())):
            if there not in seen:
                seen[there] = seen[here] + 1
                queue.append(there)
    return seen


class CoronationBot:
    """Lind keeps as far from every detective as he can, towards jewels he
    has not taken, and never hides while he can move; detectives close in on
    Lind's last revealed location (else on the jewels left) and gather
    information whenever they may."""

    def choose(self, view, legal_commands, rng):
        kinds = {c.type_name() for c in legal_commands}
        detectives = [d["location"] for d in view.get("detectives", ()) if d.get("location") is not None]
        if kinds & {"MoveLind", "AppearLind", "MoveLindExtraordinarily"}:
            return self._run(view, [c for c in legal_commands if hasattr(c, "to") or hasattr(c, "location")],
                             detectives, rng)
        if "GatherInformation" in kinds:
            return next(c for c in legal_commands if c.type_name() == "GatherInformation")
        moves = [c for c in legal_commands if c.type_name() == "MoveDetective"]
        if moves:
            return self._chase(view, moves, rng)
        return rng.choice(list(legal_commands))

    def _run(self, view, moves, detectives, rng):
        danger = _distances(detectives)
        secret = view.get("lind") or {}
        taken = set(secret.get("stolen", ()))
        jewels = _distances([j for j in BOARD.jewels if j not in taken])

        def safety(command):
            to = getattr(command, "to", getattr(command, "location", None))
            return (min(danger.get(to, 99), 3), -jewels.get(to, 99), rng.random())

        return max(moves, key=safety)

    def _chase(self, view, moves, rng):
        """One detective moves: towards where Lind was last revealed, else
        each towards a jewel of his own (so they spread out), now and then at
        random (so Lind cannot count on where they go)."""
        detective = rng.choice(sorted({c.detective for c in moves}))
        mine = [c for c in moves if c.detective == detective]
        if rng.random() < WANDER:
            return rng.choice(mine)
        seen = [card["location"] for card in view.get("route", ()) if card.get("revealed") and card.get("location")]
        order = [d["id"] for d in view.get("detectives", ())]
        own_jewel = BOARD.jewels[(order.index(detective) if detective in order else 0) % len(BOARD.jewels)]
        near = _distances(seen[-1:] or [own_jewel])
        return min(mine, key=lambda c: (near.get(c.to, 99), rng.random()))


WANDER = 0.3

register("cronberg", "heuristic", CronbergBot)
register("coronation", "heuristic", CoronationBot)
register("court-of-miracles", "heuristic",
         lambda: Weighted({"BuyRenown": 1000, "PlayPlot": 0.05, "TakeCoins": 5, "EndTurn": 0.3}))
register("the-coil", "heuristic", lambda: Weighted({"EndTurn": 0.1, "Stop": 0.1, "EndEscalation": 0.2}))
register("runebound", "heuristic",
         lambda: Weighted({"Attack": 5, "Retreat": 0.1, "EndTurn": 0.2, "SkipAdventure": 0.1, "Adventure": 5,
                           "GainExperience": 5, "Heal": 3}))
