"""The hosted games, for tests that run over every one of them: derived from
the registry (domain.games.REGISTRY), so that a game added there is in the
second verifier's, the missed-turn, the tampering, the leaving and the talk
tests without a list to edit."""

from __future__ import annotations

from domain import games
from domain.engine import resolve_options

from tests.games.conformance.playouts import options_for, short_options

HOSTED = tuple(games.REGISTRY)



def seating(seats: int) -> tuple[str, ...]:
    """The hosted games that can seat ``seats`` players (a game for two is left
    out of the tests that seat three: docs/game-authors.md)."""
    return tuple(name for name, rules in games.REGISTRY.items() if rules.min_seats <= seats <= rules.max_seats)


# Games in which no seats share a side: each pair of seats has a private channel.
WITHOUT_SIDES = tuple(name for name, rules in games.REGISTRY.items() if not rules.traits.teams)


def short(game: str, seats: int | None = None) -> dict:
    """The game's own options for a short whole game at ``seats`` seats (its
    fewest if None): its shortest golden game's there, else those that make
    that many seats."""
    rules = games.get(game)
    if seats is None or seats == rules.min_seats:
        return short_options(rules)
    return options_for(rules, seats)


def seats_of(game: str, options: dict) -> tuple[str, ...]:
    """The seats ``options`` make in ``game`` (only the game's own options count)."""
    rules = games.get(game)
    own = {option.name for option in rules.options}
    return rules.seats(resolve_options(rules.options, {k: v for k, v in options.items() if k in own}))


def seated(seats: int | None = None) -> list[tuple[str, dict, str]]:
    """(game, short options, seat) for every seat of every hosted game at
    ``seats`` seats (each game's fewest if None)."""
    return [(game, short(game, seats), seat) for game in HOSTED for seat in seats_of(game, short(game, seats))]
