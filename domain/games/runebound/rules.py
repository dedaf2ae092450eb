"""Runebound: options and seats, the setup (decks shuffled, heroes dealt or
chosen), and the final standings. Deciding is in decide.py, legal commands
and timeouts in legal.py, views in views.py, the twin in twin.py."""

from __future__ import annotations

import random
from typing import Any, Mapping

from ...engine import Event, Option, Standing, rank_by
from ...kit import Draft
from . import data
from . import messages as m
from .evolve import evolve
from .state import State
from .turn import begin_turn

OPTIONS = (
    Option("players", "int", 3, "number of heroes", minimum=2, maximum=6),
    Option("choose_heroes", "bool", True,
           "players choose their heroes in seat order; off: heroes are dealt at random"),
    Option("doom_rounds", "int", 0,
           "stand-in doom limit, not in the rulebook: if nobody became Elder King after this many "
           "rounds, Vorakesh raises Margath and nobody wins; 0 (the default) means no limit",
           minimum=0, maximum=200),
)


def seats(options: Mapping[str, Any]) -> tuple[str, ...]:
    return tuple(f"p{i}" for i in range(1, int(options.get("players", 3)) + 1))


def setup(seats: tuple[str, ...], options: Mapping[str, Any], rng: random.Random) -> list[Event]:
    choose = bool(options.get("choose_heroes", True))
    heroes = () if choose else tuple(rng.sample(list(data.HEROES), len(seats)))
    decks = {}
    for name in data.DECK_NAMES:
        cards = list(data.deck_cards(name))
        rng.shuffle(cards)
        if name == "red":
            cards.append(data.MARGATH)  # Lord Margath is the last red card
        decks[name] = tuple(cards)
    started = m.GameStarted(seats=tuple(seats), heroes=heroes, decks=decks, counters=data.WILDS,
                            market=tuple(data.MARKET), doom_rounds=int(options.get("doom_rounds", 0)))
    draft = Draft(evolve, evolve(None, started), rng)
    if not choose:
        begin_turn(draft, seats[0], 1)
    return [started, *draft.events]


def score(state: State) -> list[Standing]:
    """The last Elder King first, then the others by how long they lasted in the
    Endgame (later eliminated ranks higher); if the doom limit ended the game,
    nobody wins and all share one rank."""
    eliminated = state.endgame.eliminated if state.endgame else ()
    scores = {}
    for hero in state.heroes:
        if hero.seat == state.winner:
            scores[hero.seat] = (2, 0, hero.level)
        elif hero.seat in eliminated:
            scores[hero.seat] = (1, eliminated.index(hero.seat), hero.level)
        else:
            scores[hero.seat] = (1, len(eliminated), hero.level) if state.winner else (0, 0, 0)
    ranks = rank_by(scores)
    return [Standing(hero.seat, ranks[hero.seat], None,
                     {"level": hero.level, "vassals": len(hero.vassals), "eliminated": hero.eliminated})
            for hero in state.heroes]
