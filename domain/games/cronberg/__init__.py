"""Cronberg (2-4 players): place building rhomboids and family members on the
crossings of a walled city; see rules.py for the decisions made where the
rulebook is silent, and board.json, tiles.json for the stand-in board and tiles.

Leaving the game (domain.lifecycle): a seat that resigns leaves the standings
ranked last (after every seat still playing; of two that resigned, the later
ranks higher) and a bot plays its turns to the end. When every seat but one
has resigned, the game ends at once and that seat wins.
"""

from ...kit import Traits
from ...kit.assemble import assemble

RULES = assemble(
    __name__,
    name="cronberg",
    title="Cronberg",
    ranking=("The highest score after the final valuation ranks first; the rules break no tie, so players with "
             "equal scores share the place."),
    min_seats=2,
    max_seats=4,
    traits=Traits(simultaneous=False, chance=True, hidden_information=True, teams=False),
)
