"""The example game (2-3 players): the smallest game in the kit's shape that
uses every part of it, for whoever adds the next game to start from (README,
"Adding a game"). See rules.py for the rules.

It is deliberately NOT in ``domain.games.REGISTRY``: the API does not host
it and its catalogue does not show it. The conformance suite
(tests/games/test_conformance.py) runs over the registry and this game, so
the example always passes everything a hosted game must.

The parts, one module each, as in every game:
messages.py (commands and events), state.py (the state and ``evolve``),
decide.py (``decide``: a dispatch, each refusal a sentence where the rule is
checked, follow-ups by ``Draft``'s ``after_each``), views.py (``to_act``,
``view``, ``visible``, ``outcome``: the one door of hidden information),
shapes.py (the view declaration), rules.py (options, seats, setup, legal
commands, timeout, standings and ``twin``), bot.py (the heuristic bot),
words.py (a sentence per event and per command), fields.py (what each
field holds and what a command's field names), cards.json (the cards' names).
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
    name="example",
    title="Example: high card",
    min_seats=2,
    max_seats=3,
    traits=Traits(simultaneous=True, chance=True, hidden_information=True, teams=False),
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
    field_descriptions=FIELD_DESCRIPTIONS,
    command_sentences=COMMAND_SENTENCES,
    field_names=FIELD_NAMES,
    hand=HAND,
    data=Path(__file__).parent,
)
