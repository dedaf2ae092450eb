"""The twin of a Runebound game: a game a viewer cannot tell from the one
played, for the conformance suite's leak comparison.

What no seat or spectator knows is the order of the deck cards never drawn:
a deck is drawn from the top, and an undefeated challenge goes back beneath
the cards still stacked (above Lord Margath, the last red card), so the cards
of a deck ever drawn are the top of its first order, seen as they came up,
and the rest were never shown to anyone. The twin re-stacks those (Margath
stays last). Every decision draws only the top card, so every later event is
the one the same commands give with the twin's decks.

What the seats but one do not know is a challenger's action declared against
the Elder King, until the phase is fought: its strike or its defence shows it
then, so only a declaration still unanswered when the history ends is re-drawn
(both actions are always open to the challenger), for every viewer but him."""

from __future__ import annotations

import dataclasses
import random
from typing import Sequence

from ...engine import EVERYONE, Event
from ...kit import Step
from . import data
from . import messages as m


def twin(setup_events: Sequence[Event], steps: Sequence[Step], viewer: str | None,
         rng: random.Random) -> list[Event]:
    events = [*setup_events, *(event for step in steps for event in step.events)]
    if viewer == EVERYONE:
        return events
    drawn: dict[str, set[str]] = {}
    for event in events:
        if isinstance(event, m.CardDrawn):
            drawn.setdefault(event.deck, set()).add(event.card)
    twinned = [restacked(event, drawn, rng) if isinstance(event, m.GameStarted) else event for event in events]
    last = twinned[-1] if twinned else None
    if isinstance(last, m.ActionDeclared) and viewer != last.seat:
        twinned[-1] = dataclasses.replace(last, action=rng.choice(("attack", "defend")))
    return twinned


def restacked(started: m.GameStarted, drawn: dict[str, set[str]], rng: random.Random) -> m.GameStarted:
    """``started`` with each deck's never-drawn cards shuffled among their places."""
    decks = {}
    for name, cards in started.decks.items():
        hidden = [n for n, card in enumerate(cards) if card not in drawn.get(name, ()) and card != data.MARGATH]
        shuffled = [cards[n] for n in hidden]
        rng.shuffle(shuffled)
        order = list(cards)
        for n, card in zip(hidden, shuffled):
            order[n] = card
        decks[name] = tuple(order)
    return dataclasses.replace(started, decks=decks)
