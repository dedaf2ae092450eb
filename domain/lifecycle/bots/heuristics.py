"""Registers each game's heuristic bot (see the game's module beside this one)."""
