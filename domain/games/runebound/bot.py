"""Runebound's heuristic bot: a preference over kinds of command, learned from
which commands winners of random games used more (bench/bots.py measures it
against random bots)."""

from __future__ import annotations

from ...kit.bots import Weighted

WEIGHTS = {"Attack": 5, "Retreat": 0.1, "EndTurn": 0.2, "SkipAdventure": 0.1, "Adventure": 5,
                    "GainExperience": 5, "Heal": 3}

BOTS = {"heuristic": lambda: Weighted(WEIGHTS)}
