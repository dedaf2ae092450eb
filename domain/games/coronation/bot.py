"""Coronation's heuristic bot: it decides from its seat's view, the legal
commands and the printed board (what every player knows from the box)."""

from __future__ import annotations

from collections import deque

from .data import BOARD


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


BOTS = {"heuristic": CoronationBot}
