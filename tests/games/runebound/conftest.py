"""Builders for Runebound tests: a game from chosen heroes and deck orders, scripted dice,
and seeded random games step by step (as RULES.twin takes them)."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from domain.engine import rng_for
from domain.games.runebound import RULES, data
from domain.games.runebound import messages as m
from domain.kit import Step
from domain.playout import random_command, start

HEROES = ("Grundar Stonefist", "Warden Hale", "Sir Aldric", "Lyssa Quickbow", "Ember Vatrisse", "Nightshade")


class Dice(random.Random):
    """Scripted dice: randint yields the given values in a cycle; choice picks the last face."""

    def __init__(self, *values: int):
        super().__init__(0)
        self.values = values or (10,)
        self.index = 0

    def randint(self, a, b):
        value = self.values[self.index % len(self.values)]
        self.index += 1
        return value

    def choice(self, seq):
        return seq[-1]


def started(players: int = 4, heroes=HEROES, decks=None) -> list:
    seats = tuple(f"p{i}" for i in range(1, players + 1))
    chosen = {name: data.deck_cards(name) for name in data.DECK_NAMES}
    chosen["red"] = chosen["red"] + (data.MARGATH,)
    chosen.update(decks or {})
    return [m.GameStarted(seats=seats, heroes=tuple(heroes[:players]), decks=chosen, counters=data.WILDS,
                          market=tuple(data.MARKET), doom_rounds=60),
            m.TurnBegan(seat="p1", round=1, movement=4)]


def given(*events, players: int = 4, decks=None, heroes=HEROES):
    return RULES.replay([*started(players, heroes, decks), *events])


def act(state, seat, command, rng=None):
    events = RULES.decide(state, seat, command, rng or Dice(10))
    return events, RULES.replay(events, state)


def won(seat, *cards):
    """Given: the hero has defeated these cards (trophies)."""
    return [m.EnemyDefeated(seat=seat, card=card, gold=0) for card in cards]


def levels(seat, count):
    return [m.ExperienceGained(seat=seat, kind="body", spent=()) for _ in range(count)]


def fight_until(state, seat, done, rng, command=None, limit=200):
    """Repeat a combat command until ``done(state)``; returns all events and the state."""
    log = []
    for _ in range(limit):
        if done(state):
            return log, state
        events, state = act(state, seat, command or m.Attack(), rng)
        log += events
    raise AssertionError("combat did not finish")


def played(players: int, seed: int, options=None):
    """A seeded random game: its seed, setup events and every step."""
    playout = start(RULES, {"players": players, **(options or {})}, seed)
    bot = random.Random(seed)
    setup, steps = list(playout.events), []
    while not playout.over:
        seat = bot.choice(sorted(RULES.to_act(playout.state)))
        command = random_command(RULES, playout.state, seat, bot)
        version = len(playout.events)
        events = RULES.decide(playout.state, seat, command, rng_for(playout.seed, version))
        playout.state = RULES.replay(events, playout.state)
        playout.events.extend(events)
        steps.append(Step(seat, command, version, tuple(events)))
    return playout.seed, setup, steps


@pytest.fixture
def rb():
    return SimpleNamespace(RULES=RULES, m=m, data=data, Dice=Dice, started=started, given=given, act=act,
                           won=won, levels=levels, fight_until=fight_until)
