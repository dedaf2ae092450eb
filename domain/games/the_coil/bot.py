"""The Coil's heuristic bot: a preference over kinds of command, learned from
which commands winners of random games used more (bench/bots.py measures it
against random bots)."""

from __future__ import annotations

from ...kit.bots import Weighted

WEIGHTS = {"EndTurn": 0.1, "Stop": 0.1, "EndEscalation": 0.2}

BOTS = {"heuristic": lambda: Weighted(WEIGHTS)}
