"""The example game's events in words: a sentence per event type, made from
the event as the viewer sees it (``visible``), so it tells no more than that."""

from __future__ import annotations

import json
from pathlib import Path

from ...words import count, listed

# A card's name as cards.json gives it (the file a client draws the hand from).
CARD_NAMES = {card["value"]: card["name"]
              for card in json.loads((Path(__file__).parent / "cards.json").read_text())["cards"]}


def _dealt(e: dict) -> str:
    size = e["hand_size"] if "hand_size" in e else len(e["hands"][0])
    return f"{count(size, 'card')} were dealt to each of {listed(e['seats'])}"


def _chosen(e: dict) -> str:
    return f"{e['seat']} chose {e['card']}" if "card" in e else f"{e['seat']} chose a card"


SENTENCES = {
    "CardsDealt": _dealt,
    "CardChosen": _chosen,
    "CardsRevealed": lambda e: f"Round {e['round']}'s cards were shown: {listed(e['cards'])}",
    "RoundWon": lambda e: (f"{e['seat']} won round {e['round']}" if e.get("seat")
                           else f"Round {e['round']} was tied at the top: nobody won it"),
    "GameEnded": lambda e: f"The game ended: {listed(e['winners'])} won {count(e['rounds_won'], 'round')}",
}


# Each legal command in words, for people, from the command's JSON, naming the
# card as cards.json does (what the client shows on its face).
COMMAND_SENTENCES = {
    "ChooseCard": lambda c: f"Put your {CARD_NAMES[c['card']]} face down",
}
