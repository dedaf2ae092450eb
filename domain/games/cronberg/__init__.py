"""Cronberg (2-4 players): place building rhomboids and family members on the
crossings of a walled city; see rules.py for the decisions made where the
rulebook is silent, and board.json, tiles.json for the stand-in board and tiles.

Leaving the game (domain.lifecycle): a seat that resigns leaves the standings
ranked last (after every seat still playing; of two that resigned, the later
ranks higher) and a bot plays its turns to the end. When every seat but one
has resigned, the game ends at once and that seat wins.
"""

from pathlib import Path

from ...kit import Game, Traits
from . import rules
from .bot import BOTS
from .decide import decide
from .fields import FIELD_DESCRIPTIONS, FIELD_NAMES
from .messages import COMMANDS, EVENTS
from .shapes import HAND, STANDING_DETAIL, VIEW
from .state import evolve
from .views import outcome, to_act, view, visible
from .words import COMMAND_SENTENCES, SENTENCES

RULES = Game(
    name="cronberg",
    title="Cronberg",
    min_seats=2,
    max_seats=4,
    traits=Traits(simultaneous=False, chance=True, hidden_information=True, teams=False),
    options=rules.OPTIONS,
    commands=COMMANDS,
    events=EVENTS,
    seats=rules.seats,
    setup=rules.setup,
    evolve=evolve,
    decide=decide,
    to_act=to_act,
    legal_commands=rules.legal_commands,
    on_timeout=rules.on_timeout,
    view=view,
    visible=visible,
    outcome=outcome,
    score=rules.score,
    view_shape=VIEW,
    standing_detail=STANDING_DETAIL,
    twin=rules.twin,
    bots=BOTS,
    sentences=SENTENCES,
    data=Path(__file__).parent,
    field_descriptions=FIELD_DESCRIPTIONS,
    command_sentences=COMMAND_SENTENCES,
    field_names=FIELD_NAMES,
    hand=HAND,
)
