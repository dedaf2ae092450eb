"""What each field of the example game's commands and events holds, for the
API's document (``Game.field_descriptions``: "field" for that name in every
message, "Type.field" for one message's).

``FIELD_NAMES`` (``Game.field_names``) says that a ChooseCard's ``card``
names a card of the hand, listed with its name and text in cards.json."""

from ...kit.names import Names

CARD = Names("card", "card", data="cards.json", list="cards", key="value", label="name")

FIELD_NAMES = {"ChooseCard.card": CARD}

FIELD_DESCRIPTIONS = {
    "seat": "the seat, p1, p2 or p3",
    "round": "the round, from 1",
    "card": "a card's value, 1-6",
    "CardsDealt.seats": "every seat, in seat order",
    "CardsDealt.hands": "each seat's hand in seat order, each sorted; a seat sees its own, only the referee the others",
    "CardsDealt.deck": "the undealt rest of the deck, for the referee only",
    "CardsRevealed.cards": "the round's cards, face up, in seat order",
    "RoundWon.seat": "the seat that took the round; null when the highest cards tied",
    "winners": "the seats that took the most rounds (several on a tie)",
    "rounds_won": "how many rounds each winner took (the most any seat took)",
}
