"""The twin of a game of The Coil: a history of these rules that a viewer
cannot tell from the given one (the conformance suite's leak check).

What a viewer never sees: which homeland card is where once a deck is
shuffled, until the card is shown (flipped, played, drawn by the viewer); the
strategy cards of other seats (but the one each scores, shown at the end);
the order of a deck below the last card drawn from it. The twin re-draws that:

1. at each shuffle of a homeland deck, its cards that the viewer is never
   shown again are exchanged at random, from that shuffle on: one seat's
   hidden tactics may have lain in the deck, or in another seat's hand; a
   card shown later keeps its place, as everything before the shuffle does
   (the cards of a re-formed deck were face up in its discard area);
2. the unseen strategy cards are exchanged among cards of equal capacities:
   the newest card of a seat decides, in sight, how its claimed regions are
   placed, so only its capacities must stay;
3. the cards of each deck (homeland or strategy) that are never drawn are
   shuffled again.

Cards are labels to ``evolve`` (only a card's nation, kept, and a region's
slots, seen, matter), so the relabelled events are a game the same commands
would have played from other shuffles: the same dice, the same phases, the
same public events."""

from __future__ import annotations

import dataclasses
import random
from typing import Any, Sequence

from ...engine import EVERYONE, Event
from ...kit import Step
from .data import STRATEGIES
from .evolve import evolve
from .messages import (
    CardsDrawn, DeckShuffled, GameEnded, RegionFlipped, RegionsLeftPlay, Scouted, StrategyChosen, StrategyDeckShuffled,
    StrategyDrawn, Strategized, TacticPlayed,
)


def twin(setup_events: Sequence[Event], steps: Sequence[Step], viewer: str | None,
         rng: random.Random) -> list[Event]:
    events = [*setup_events, *(event for step in steps for event in step.events)]
    if viewer == EVERYONE:
        return events
    shown = _shown_to(events, viewer)
    last_shown = {card: n for n, cards in enumerate(shown) for card in cards}
    names = _strategy_relabelling(events, set(last_shown), rng)
    twinned = []
    for n, event in enumerate(events):
        if isinstance(event, DeckShuffled):
            # From this shuffle on, its cards that the viewer is never shown again may be any of them.
            names.update(_exchanged([[card for card in event.cards if last_shown.get(card, -1) < n]], rng))
        twinned.append(_relabelled(event, names))
    return _undrawn_reshuffled(twinned, rng)


def _shown_to(events: list[Event], viewer: str | None) -> list[set[str]]:
    """The card ids each event shows the viewer, by the rules (not by what
    ``view`` and ``visible`` show: the twin is what checks them): a flipped
    region, a played tactic, the regions left in play are shown to all; the
    cards a seat draws and its strategy cards to itself alone; at the end the
    strategy card each seat scores to all."""
    shown: list[set[str]] = []
    state = None
    for event in events:
        state = evolve(state, event)
        mine = viewer is not None and getattr(event, "seat", None) == viewer
        match event:
            case RegionFlipped(card=card) | TacticPlayed(card=card):
                cards = {card}
            case Scouted(card=card, flipped=flipped):
                cards = ({card} if mine else set()) | ({flipped} if flipped else set())
            case RegionsLeftPlay(cards=left):
                cards = set(left)
            case CardsDrawn(cards=drawn) if mine:
                cards = set(drawn)
            case StrategyDrawn(card=card) | Strategized(card=card) | StrategyChosen(card=card) if mine:
                cards = {card}
            case GameEnded():
                cards = {state.strategy(seat) for seat in state.seats}
            case _:
                cards = set()
        shown.append(cards)
    return shown


def _strategy_relabelling(events: list[Event], seen: set[str], rng: random.Random) -> dict[str, str]:
    """A random exchange of unseen strategy cards of equal capacities."""
    alike: dict[tuple, list[str]] = {}
    for event in events:
        if isinstance(event, StrategyDeckShuffled):
            for card in event.cards:
                if card not in seen:
                    alike.setdefault(STRATEGIES[card].capacity, []).append(card)
    return _exchanged(alike.values(), rng)


def _exchanged(groups, rng: random.Random) -> dict[str, str]:
    names: dict[str, str] = {}
    for group in groups:
        shuffled = list(group)
        rng.shuffle(shuffled)
        names.update(zip(group, shuffled))
    return names


def _relabelled(event: Event, names: dict[str, str]) -> Event:
    changes = {f.name: _renamed(getattr(event, f.name), names) for f in dataclasses.fields(event)}
    return dataclasses.replace(event, **changes)


def _renamed(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, tuple):
        return tuple(_renamed(item, names) for item in value)
    return value


def _undrawn_reshuffled(events: list[Event], rng: random.Random) -> list[Event]:
    """Each deck's cards that are never drawn, shuffled again. Cards leave a
    deck from the top and a shuffled deck goes under what is left, so the
    cards left at the end are the last ones of the last shuffles."""
    state = None
    for event in events:
        state = evolve(state, event)
    if state is None:
        return events
    left = {nation: len(state.deck(nation)) for nation in state.table()}
    strategies_left = len(state.strategy_deck)
    events = list(events)
    for n in range(len(events) - 1, -1, -1):
        event = events[n]
        if isinstance(event, DeckShuffled) and left.get(event.nation, 0) > 0:
            count = min(left[event.nation], len(event.cards))
            left[event.nation] -= count
            events[n] = dataclasses.replace(event, cards=_tail_shuffled(event.cards, count, rng))
        elif isinstance(event, StrategyDeckShuffled) and strategies_left > 0:
            count = min(strategies_left, len(event.cards))
            strategies_left -= count
            events[n] = dataclasses.replace(event, cards=_tail_shuffled(event.cards, count, rng))
    return events


def _tail_shuffled(cards: tuple[str, ...], count: int, rng: random.Random) -> tuple[str, ...]:
    tail = list(cards[len(cards) - count:])
    rng.shuffle(tail)
    return (*cards[: len(cards) - count], *tail)
