"""The Coil's card data, loaded once from data.json (every value there is a
stand-in named as an assumption in that file)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

RESOURCES = ("mythstone", "arcane_technology", "food_caches")
AREAS = ("west", "home", "east")


@dataclass(frozen=True)
class Nation:
    id: str
    name: str
    color: str
    dice_per_muster: int
    starting_hand: int
    initiative: int
    ability: str
    ability_timing: str
    ability_text: str


@dataclass(frozen=True)
class HomelandCard:
    id: str
    nation: str
    tactic: str
    resources: tuple[str, ...]
    slots: int


@dataclass(frozen=True)
class Tactic:
    id: str
    name: str
    dice: int | str  # how many dice it names, or "any"
    takes_value: bool
    text: str


@dataclass(frozen=True)
class StrategyCard:
    id: str
    name: str
    capacity: tuple[tuple[str, int], ...]
    modifier: tuple[tuple[str, int], ...]
    objective: str

    def capacity_of(self, area: str) -> int:
        return dict(self.capacity)[area]

    def modifier_of(self, area: str) -> int:
        return dict(self.modifier)[area]


_RAW = json.loads((Path(__file__).with_name("data.json")).read_text(encoding="utf-8"))

DICE_PER_NATION: int = _RAW["dice_per_nation"]
ROUNDS: int = _RAW["rounds"]
LAYOUT: dict = _RAW["layout"]

NATIONS: dict[str, Nation] = {
    n["id"]: Nation(
        n["id"], n["name"], n["color"], n["dice_per_muster"], n["starting_hand"], n["initiative"],
        n["ability"]["id"], n["ability"]["timing"], n["ability"]["text"],
    )
    for n in _RAW["nations"]
}
NATION_IDS: tuple[str, ...] = tuple(NATIONS)

CARDS: dict[str, HomelandCard] = {
    c["id"]: HomelandCard(c["id"], c["nation"], c["tactic"], tuple(c["resources"]), c["slots"])
    for c in _RAW["homeland_cards"]
}

TACTICS: dict[str, Tactic] = {
    t["id"]: Tactic(t["id"], t["name"], t["dice"], t["value"], t["text"]) for t in _RAW["tactics"]
}

STRATEGIES: dict[str, StrategyCard] = {
    s["id"]: StrategyCard(
        s["id"], s["name"], tuple(s["capacity"].items()), tuple(s["modifier"].items()), s["objective"]
    )
    for s in _RAW["strategy_cards"]
}

OBJECTIVES: dict[str, str] = {o["id"]: o["text"] for o in _RAW["objectives"]}


def cards_of(nation: str) -> tuple[str, ...]:
    return tuple(card.id for card in CARDS.values() if card.nation == nation)


def card_json(card_id: str) -> dict:
    card = CARDS[card_id]
    tactic = TACTICS[card.tactic]
    return {
        "id": card.id,
        "nation": card.nation,
        "tactic": card.tactic,
        "tactic_text": tactic.text,
        "resources": list(card.resources),
        "slots": card.slots,
    }


def strategy_json(strategy_id: str) -> dict:
    card = STRATEGIES[strategy_id]
    return {
        "id": card.id,
        "name": card.name,
        "capacity": dict(card.capacity),
        "modifier": dict(card.modifier),
        "objective": card.objective,
        "objective_text": OBJECTIVES[card.objective],
    }


def nation_json(nation_id: str) -> dict:
    nation = NATIONS[nation_id]
    return {
        "id": nation.id,
        "name": nation.name,
        "color": nation.color,
        "dice_per_muster": nation.dice_per_muster,
        "starting_hand": nation.starting_hand,
        "initiative": nation.initiative,
        "ability": nation.ability,
        "ability_timing": nation.ability_timing,
        "ability_text": nation.ability_text,
    }
