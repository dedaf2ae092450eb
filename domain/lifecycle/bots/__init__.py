"""Bots: players that decide from their seat's view and legal commands only.

A bot is anything with ``choose(view, legal_commands, rng) -> command``: the
view is the JSON-ready dict the game's ``view`` gives that seat (exactly what a
person in that seat would see), the legal commands are the seat's
``legal_commands``, and ``rng`` is derived from the game's secret seed, the
seat and the version, so a game with bots audits like any other: the auditor
re-runs each bot's choice from the published seed.

``decide_for`` is the one place that calls a bot; it hands it nothing else,
so no bot can read state beyond its seat's view.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Mapping, Protocol, Sequence

from ...engine import Command, rng_for
from ...kit import Game

RANDOM, HEURISTIC = "random", "heuristic"


class Bot(Protocol):
    def choose(self, view: Mapping[str, Any], legal_commands: Sequence[Command], rng: random.Random) -> Command:
        ...


class RandomBot:
    """Any one of the legal commands, uniformly."""

    def choose(self, view, legal_commands, rng):
        return rng.choice(list(legal_commands))


def _factories(game: str) -> Mapping[str, Callable[[], Bot]]:
    """The game's own bots, as its package declares them (``Game.bots``)."""
    from ...games import REGISTRY  # the registry imports the engine, which imports this

    rules = REGISTRY.get(game)
    return getattr(rules, "bots", None) or {}


def kinds(game: str) -> tuple[str, ...]:
    """The bot kinds a game offers: ``random`` always, then the game's own."""
    return (RANDOM, *sorted(_factories(game)))


def best_kind(game: str) -> str:
    """The bot that stands in for a seat that resigned or was abandoned."""
    return HEURISTIC if HEURISTIC in kinds(game) else RANDOM


def make(game: str, kind: str) -> Bot:
    if kind == RANDOM:
        return RandomBot()
    factory = _factories(game).get(kind)
    if factory is None:
        raise KeyError(f"{game} has no bot {kind!r}; bots: {', '.join(kinds(game))}")
    return factory()


def bot_rng(seed: bytes, seat: str, version: int) -> random.Random:
    """A bot's randomness in games of randomness version 1: from the game's
    seed, so the auditor can re-run it (version 2: domain.randomness.Source.bot)."""
    return rng_for(seed + b"/bot/" + seat.encode(), version)


def decide_for(rules: Game, state: Any, seat: str, bot: Bot, rng: random.Random) -> Command:
    """The bot's command for ``seat``, given only that seat's view and legal commands."""
    legal = rules.legal_commands(state, seat)
    if not legal:
        raise ValueError(f"{seat} has no legal command for its bot to choose")
    command = bot.choose(rules.view(state, seat), tuple(legal), rng)
    if command not in legal:
        raise ValueError(f"the bot for {seat} chose {command!r}, which is not a legal command")
    return command
