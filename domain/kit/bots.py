"""What every game's bots are made of: a bot decides from its seat's view
and legal commands only (``choose(view, legal_commands, rng) -> command``),
see domain.lifecycle.bots. ``Weighted`` is the simplest heuristic: a
preference over kinds of command."""

from __future__ import annotations


class Weighted:
    """Draws a kind of command by weight (1 for kinds not named), then one of that kind."""

    def __init__(self, weights: dict[str, float]):
        self.weights = weights

    def choose(self, view, legal_commands, rng):
        kinds = sorted({command.type_name() for command in legal_commands})
        kind = rng.choices(kinds, [self.weights.get(k, 1.0) for k in kinds])[0]
        return self.pick(view, [c for c in legal_commands if c.type_name() == kind], rng)

    def pick(self, view, commands, rng):
        return rng.choice(commands)
