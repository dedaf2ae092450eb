"""The Court of Miracles's heuristic bot: a preference over kinds of command, learned from
which commands winners of random games used more (bench/bots.py measures it
against random bots)."""

from __future__ import annotations

from ...kit.bots import Weighted

WEIGHTS = {"BuyRenown": 1000, "PlayPlot": 0.05, "TakeCoins": 5, "EndTurn": 0.3}

BOTS = {"heuristic": lambda: Weighted(WEIGHTS)}
