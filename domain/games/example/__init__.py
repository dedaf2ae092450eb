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

from ...kit import Traits
from ...kit.assemble import assemble

RULES = assemble(
    __name__,
    name="example",
    title="Example: high card",
    ranking=("The most rounds won ranks first; players who won as many rounds share the place."),
    min_seats=2,
    max_seats=3,
    traits=Traits(simultaneous=True, chance=True, hidden_information=True, teams=False),
)
