"""The example game's heuristic bot: from its seat's view and legal commands
only (domain.lifecycle.bots), it keeps its high cards for the last round."""

from __future__ import annotations

from ...kit.bots import Weighted


class SaveTheBest(Weighted):
    """Plays its highest card in the last round, else its lowest card that
    still beats every card the last round showed, else its lowest card."""

    def __init__(self):
        super().__init__({"ChooseCard": 1.0})

    def pick(self, view, commands, rng):
        cards = sorted(commands, key=lambda command: command.card)
        if view.get("round") == view.get("rounds"):
            return cards[-1]
        shown = max((view.get("last_reveal") or {}).values(), default=0)
        return next((command for command in cards if command.card > shown), cards[0])


BOTS = {"heuristic": SaveTheBest}
