"""Board and card data of Coronation, loaded once from the JSON files beside
this module (board.json: locations, lines, symbols; cards.json: detectives,
decks, traps). Every stand-in value lives in those files, not in code."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

_HERE = Path(__file__).parent


@dataclass(frozen=True)
class Location:
    id: int
    name: str
    x: int
    y: int
    jewel: bool
    underground: bool
    instrument: str | None


@dataclass(frozen=True)
class Trap:
    id: str
    name: str
    instrument: str
    effect: str  # "lose-next-action" or "discard-ticket"
    extraordinary: bool
    text: str


class Board:
    """The static data of the game: graph, symbols, decks."""

    def __init__(self, board: dict, cards: dict):
        self.board_json = board
        self.cards_json = cards
        self.locations: dict[int, Location] = {
            item["id"]: Location(**item) for item in board["locations"]
        }
        self.foot_lines = tuple(tuple(line) for line in board["foot_lines"])
        self.cab_lines = tuple(tuple(line) for line in board["cab_lines"])
        self.foot = _adjacency(self.locations, self.foot_lines)
        self.cab = _adjacency(self.locations, self.cab_lines)
        self.underground = tuple(sorted(i for i, loc in self.locations.items() if loc.underground))
        self.jewels = tuple(sorted(i for i, loc in self.locations.items() if loc.jewel))
        self.detectives = tuple(item["id"] for item in cards["detectives"])
        self.detective_names = {item["id"]: item["name"] for item in cards["detectives"]}
        self.distribution = {int(k): tuple(v) for k, v in cards["distribution"].items()}
        self.instruments = tuple(item["id"] for item in cards["instruments"])
        self.instrument_names = {item["id"]: item["name"] for item in cards["instruments"]}
        self.deck_tickets = cards["detective_deck"]["tickets"]
        self.deck_each_instrument = cards["detective_deck"]["each_instrument"]
        self.hand_size = cards["cards_per_detective"]
        self.recommended_tickets = cards["recommended"]["tickets"]
        self.recommended_instruments = cards["recommended"]["instruments"]
        lind = cards["lind_deck"]
        self.lind_notes = lind["note"]
        self.lind_tickets = lind["tickets"]
        self.lind_each_trap = lind["each_trap"]
        self.lind_turn_skips = lind["turn_skips"]
        self.traps: dict[str, Trap] = {item["id"]: Trap(**item) for item in cards["traps"]}
        self.last_turn = cards["last_turn"]
        self.information_gap = cards["information_gap"]

    def name(self, location: int) -> str:
        return self.locations[location].name


def _adjacency(locations: dict, lines: tuple) -> dict[int, tuple[int, ...]]:
    adjacent: dict[int, set[int]] = {i: set() for i in locations}
    for a, b in lines:
        adjacent[a].add(b)
        adjacent[b].add(a)
    return {i: tuple(sorted(near)) for i, near in adjacent.items()}


def _load(name: str) -> dict:
    return json.loads((_HERE / name).read_text(encoding="utf-8"))


BOARD = Board(_load("board.json"), _load("cards.json"))
