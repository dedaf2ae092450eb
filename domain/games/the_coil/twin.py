"""The twin of a game of The Coil: a history of these rules that a viewer
cannot tell from the given one (the conformance suite's leak check).

What a viewer never sees in a whole history: the faces of the homeland cards
that stay face down for it (in another seat's hand or in a deck, never
flipped, played or shown to it), the strategy cards of other seats (but the
one each scores, shown at the end), and the order of every deck below the
last card drawn from it. The twin re-draws exactly that:

1. the unseen homeland cards of each nation are dealt again among the places
   they were in (a nation's deck and the hands they went to), so that one
   seat's tactics may have lain in the deck and the other way round; every
   card the viewer sees at some point keeps its place all along;
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
from .data import CARDS, STRATEGIES
from .evolve import evolve
from .messages import DeckShuffled, StrategyDeckShuffled
from .views import view, visible


def twin(setup_events: Sequence[Event], steps: Sequence[Step], viewer: str | None,
         rng: random.Random) -> list[Event]:
    events = [*setup_events, *(event for step in steps for event in step.events)]
    if viewer == EVERYONE:
        return events
    seen = _seen_by(events, viewer)
    names = {**_homeland_relabelling(events, seen, rng), **_strategy_relabelling(events, seen, rng)}
    return _undrawn_reshuffled([_relabelled(event, names) for event in events], rng)


def _seen_by(events: list[Event], viewer: str | None) -> set[str]:
    """Every card id the viewer is shown at some point: in the events as it
    gets them, and in the view of the last state (the end of a game turns
    the scored strategy cards face up)."""
    seen: set[str] = set()
    state = None
    for event in events:
        _collect(visible(event, viewer), seen)
        state = evolve(state, event)
    if state is not None:
        _collect(view(state, viewer), seen)
    return seen


def _collect(data: Any, into: set[str]) -> None:
    if isinstance(data, str):
        if data in CARDS or data in STRATEGIES:
            into.add(data)
    elif isinstance(data, dict):
        for value in data.values():
            _collect(value, into)
    elif isinstance(data, (list, tuple)):
        for value in data:
            _collect(value, into)


def _homeland_relabelling(events: list[Event], seen: set[str], rng: random.Random) -> dict[str, str]:
    """Within each nation, a random exchange of the cards the viewer never sees."""
    dealt = [e for e in events if isinstance(e, DeckShuffled)]
    unseen: dict[str, list[str]] = {}
    for event in dealt:
        for card in event.cards:
            if card not in seen and card not in unseen.setdefault(event.nation, []):
                unseen[event.nation].append(card)
    return _exchanged(unseen.values(), rng)


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
