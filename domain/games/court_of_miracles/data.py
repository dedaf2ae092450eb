"""Board and card data of The Court of Miracles, loaded from board.json and cards.json.

Every stand-in value of the brief lives in those JSON files, named there as an
assumption; this module only reads them into frozen, easy-to-use constants."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

_HERE = Path(__file__).parent


def _load(name: str) -> dict:
    return json.loads((_HERE / name).read_text(encoding="utf-8"))


BOARD_JSON = _load("board.json")
CARDS_JSON = _load("cards.json")
# For people only (command sentences, the hand's cards); the rules do not read it.
NAMES_JSON = _load("names.json")


@dataclass(frozen=True)
class Spot:
    number: int  # distance to the neighbourhood symbol, 1 = closest
    effect: str  # "king" | "coins" | "plots"
    amount: int


@dataclass(frozen=True)
class Neighbourhood:
    id: str
    name: str
    action: str  # recruit | shift | renown | plot | coins
    spots: tuple[Spot, ...]


@dataclass(frozen=True)
class Line:
    line: int
    toll: int
    bonus: str  # plots | king | right-hand
    amount: int


NEIGHBOURHOODS: tuple[Neighbourhood, ...] = tuple(
    Neighbourhood(
        n["id"], n["name"], n["action"],
        tuple(Spot(s["spot"], s["effect"], s["amount"]) for s in sorted(n["spots"], key=lambda s: s["spot"])),
    )
    for n in BOARD_JSON["neighbourhoods"]
)
NEIGHBOURHOOD_IDS: tuple[str, ...] = tuple(n.id for n in NEIGHBOURHOODS)
INDEX: dict[str, int] = {n.id: i for i, n in enumerate(NEIGHBOURHOODS)}
SPOTS_PER_NEIGHBOURHOOD = 3
ACTION_OF: dict[str, str] = {n.id: n.action for n in NEIGHBOURHOODS}
NEIGHBOURHOOD_OF_ACTION: dict[str, str] = {n.action: n.id for n in NEIGHBOURHOODS}

LINES: tuple[Line, ...] = tuple(
    Line(l["line"], l["toll"], l["bonus"], l["amount"]) for l in BOARD_JSON["renown_square"]["lines"]
)
LINE_BY_NUMBER: dict[int, Line] = {l.line: l for l in LINES}
RIGHT_HAND_LINE = next(l.line for l in LINES if l.bonus == "right-hand")

_SPACES = BOARD_JSON["king_path"]["spaces"]
KING_END = max(s["space"] for s in _SPACES)
WRATH: dict[int, str] = {s["space"]: s["wrath"] for s in _SPACES if "wrath" in s}

COINS_RESERVE: int = CARDS_JSON["coins_reserve"]
HAND_LIMIT: int = CARDS_JSON["hand_limit"]
RENOWN_TOKENS: int = CARDS_JSON["renown_tokens"]
STARTING_COINS: dict[str, int] = CARDS_JSON["starting_coins"]
STARTING_PLOTS: int = CARDS_JSON["starting_plots"]

ROGUES: dict[str, dict] = {r["kind"]: r for r in CARDS_JSON["rogues"]}
STRENGTH: dict[str, int] = {k: r["strength"] for k, r in ROGUES.items()}
SWORDSMAN = ROGUES["swordsman"]
STARTING_SET: tuple[str, ...] = tuple(k for k, r in ROGUES.items() for _ in range(r["starting"]))
EXTRA_ROGUES: tuple[str, ...] = tuple(k for k, r in ROGUES.items() for _ in range(r["extra"]))

PLOT_KINDS: tuple[str, ...] = tuple(p["card"] for p in CARDS_JSON["plots"])
PLOT_DECK: tuple[str, ...] = tuple(p["card"] for p in CARDS_JSON["plots"] for _ in range(p["copies"]))


def starting_coins(position: int) -> int:
    """Coins of the seat at ``position`` after the first player (0 = first)."""
    if position == 0:
        return STARTING_COINS["first"]
    if position == 1:
        return STARTING_COINS["second"]
    return STARTING_COINS["others"]
