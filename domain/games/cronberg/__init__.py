"""Cronberg (2-4 players): place building rhomboids and family members on the
crossings of a walled city; see rules.py for the decisions made where the
rulebook is silent, and board.json, tiles.json for the stand-in board and tiles."""

from .rules import CronbergRules

RULES = CronbergRules()
