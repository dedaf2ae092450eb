"""The frozen state of a game of Runebound: Crown of the Elder Kings."""

from __future__ import annotations

from dataclasses import dataclass


def replace(obj, **changes):
    """A fast ``dataclasses.replace`` for the frozen state records (no __init__ re-run):
    replay folds every event through it, so it must be cheap."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    new.__dict__.update(changes)
    return new

from . import data


@dataclass(frozen=True)
class Ally:
    name: str
    wounds: int = 0


@dataclass(frozen=True)
class Hero:
    seat: str
    name: str
    place: str
    gold: int
    wounds: int = 0
    exhaustion: int = 0
    experience: tuple[str, ...] = ()  # experience counters taken: mind, body, spirit, stamina, life
    counters: tuple[str, ...] = ()  # unspent adventure counters, by colour
    items: tuple[str, ...] = ()
    allies: tuple[Ally, ...] = ()
    exhausted: tuple[str, ...] = ()  # exhausted (activated) item and ally cards
    trophies: tuple[str, ...] = ()  # defeated challenge cards: Vassals, Dragon Lords, Margath, ...
    eliminated: bool = False

    @property
    def card(self) -> dict:
        return data.HEROES[self.name]

    @property
    def level(self) -> int:
        return 1 + len(self.experience)

    def stat(self, kind: str) -> int:
        """Mind, Body, Spirit, Stamina or Life, with experience and items."""
        value = self.card[kind] + self.experience.count(kind) * data.EXPERIENCE_KINDS[kind]
        if kind in ("life", "stamina"):
            value += sum(data.MARKET[item].get(kind, 0) for item in self.items)
        return value

    @property
    def vassals(self) -> tuple[str, ...]:
        return tuple(card for card in self.trophies if card in data.VASSALS)

    @property
    def dragon_lords(self) -> tuple[str, ...]:
        return tuple(card for card in self.trophies if card in data.DRAGON_LORDS)

    @property
    def xp(self) -> int:
        return sum(data.XP_VALUE[colour] for colour in self.counters)


@dataclass(frozen=True)
class Combat:
    """A combat in progress. ``seat`` is the hero who attacks (adventurer or
    challenger); the enemy is a card, or the Elder King's hero (``opponent``)."""

    seat: str
    enemy: str | None = None
    opponent: str | None = None
    enemy_wounds: int = 0
    phase: str = "ranged"
    round: int = 1
    allies: tuple[str, ...] = ()
    opponent_allies: tuple[str, ...] = ()
    declared: str | None = None  # the challenger's declared action in a duel


@dataclass(frozen=True)
class Endgame:
    king: str | None
    challengers: tuple[str, ...]  # still to confront the Elder King, in order; the first is confronting
    line: tuple[tuple[str, int], ...] = ()  # the Elder King's Vassals in order, with their wounds
    placing: bool = True
    last_king: str | None = None
    eliminated: tuple[str, ...] = ()  # in order of elimination


@dataclass(frozen=True)
class State:
    seats: tuple[str, ...]
    heroes: tuple[Hero, ...]
    decks: tuple[tuple[str, tuple[str, ...]], ...]
    discards: tuple[str, ...] = ()
    counters: tuple[str, ...] = ()  # wild places holding their adventure counter
    market: tuple[str, ...] = ()
    doom_rounds: int = 0  # 0: no doom limit
    active: str | None = None
    step: str = "move"  # move, adventure, experience, combat, placing, over
    movement: int = 0
    round: int = 1
    combat: Combat | None = None
    endgame: Endgame | None = None
    winner: str | None = None
    result: str | None = None

    def hero(self, seat: str) -> Hero:
        return self.heroes[self.seats.index(seat)]

    def with_hero(self, hero: Hero) -> State:
        index = self.seats.index(hero.seat)
        return replace(self, heroes=self.heroes[:index] + (hero,) + self.heroes[index + 1:])

    def deck(self, name: str) -> tuple[str, ...]:
        for deck, cards in self.decks:
            if deck == name:
                return cards
        return ()

    def with_deck(self, name: str, cards: tuple[str, ...]) -> State:
        return replace(self, decks=tuple((deck, cards if deck == name else old) for deck, old in self.decks))

    @property
    def in_play(self) -> tuple[str, ...]:
        return tuple(hero.seat for hero in self.heroes if not hero.eliminated)
