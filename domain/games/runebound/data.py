"""Static game data (heroes, map, decks, market) loaded from data.json.

Everything here is a stand-in for the printed components of the compact
Runebound core; data.json names each such assumption."""

from __future__ import annotations

import json
from collections import deque
from pathlib import Path

DATA = json.loads((Path(__file__).with_name("data.json")).read_text())

PHASES: tuple[str, ...] = tuple(DATA["phases"])
COLOURS = ("green", "yellow", "blue", "red")
RANKS = ("Knave", "Knight", "Lady", "Duke")
HOUSES = ("Secrets", "Blood", "Hate")
EXPERIENCE_KINDS: dict[str, int] = DATA["experience_kinds"]
XP_VALUE: dict[str, int] = DATA["xp_value"]
XP_PER_EXPERIENCE: int = DATA["xp_per_experience"]
HEAL_COST: int = DATA["heal_cost"]
DUEL_TARGET_BASE: int = DATA["duel_target_base"]
MOVEMENT_DIE: tuple[int, ...] = tuple(DATA["movement_die"])
START: str = DATA["start"]

HEROES: dict[str, dict] = {hero["name"]: hero for hero in DATA["heroes"]}
PLACES: dict[str, dict] = {place["name"]: place for place in DATA["places"]}
TOWNS: tuple[str, ...] = tuple(name for name, place in PLACES.items() if place["kind"] == "town")
WILDS: tuple[str, ...] = tuple(name for name, place in PLACES.items() if place["kind"] == "wild")
STARBURSTS: tuple[str, ...] = tuple(name for name in WILDS if PLACES[name]["starburst"])
MARKET: dict[str, dict] = {card["name"]: card for card in DATA["market"]}

# Deck names: the Runebound decks by colour, and the Crown of the Elder Kings decks.
RUNEBOUND_DECKS = ("green", "yellow", "red")
CROWN_DECKS = ("crown_green", "crown_yellow", "crown_blue")
DECK_NAMES = RUNEBOUND_DECKS + CROWN_DECKS
CROWN_OF = {"green": "crown_green", "yellow": "crown_yellow"}

CARDS: dict[str, dict] = {}
for _deck, _cards in DATA["decks"].items():
    for _card in _cards:
        CARDS[_card["name"]] = {**_card, "deck": _deck}
MARGATH: str = DATA["margath"]["name"]
CARDS[MARGATH] = {**DATA["margath"], "deck": "red"}
VASSALS: tuple[str, ...] = tuple(name for name, card in CARDS.items() if card.get("vassal"))
DRAGON_LORDS: tuple[str, ...] = tuple(name for name, card in CARDS.items() if card.get("dragon_lord"))


def deck_cards(deck: str) -> tuple[str, ...]:
    """The cards of a deck as printed (Margath excluded: he is placed last)."""
    return tuple(card["name"] for card in DATA["decks"][deck])


def _neighbours() -> dict[str, tuple[str, ...]]:
    adjacent: dict[str, list[str]] = {name: [] for name in PLACES}
    for a, b in DATA["edges"]:
        adjacent[a].append(b)
        adjacent[b].append(a)
    return {name: tuple(sorted(others)) for name, others in adjacent.items()}


NEIGHBOURS = _neighbours()


def _distances(source: str) -> dict[str, int]:
    seen = {source: 0}
    queue = deque([source])
    while queue:
        here = queue.popleft()
        for there in NEIGHBOURS[here]:
            if there not in seen:
                seen[there] = seen[here] + 1
                queue.append(there)
    return seen


DISTANCE: dict[str, dict[str, int]] = {name: _distances(name) for name in PLACES}


def reachable(place: str, steps: int) -> tuple[str, ...]:
    """Places within ``steps`` steps of ``place`` (itself included), in data order."""
    return tuple(name for name in PLACES if DISTANCE[place][name] <= steps)


def nearest_town(place: str) -> str:
    return min(TOWNS, key=lambda town: (DISTANCE[place][town], TOWNS.index(town)))
