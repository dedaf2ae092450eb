"""The games' data files as a frontend reads them: boards, cards and tiles,
each named by the sha256 a game's GameCreated records in ``data_files``.

Every installed rules version of a game contributes its files (an older
version's data, e.g. a ``tiles.v1.json`` kept beside a changed one, is still
served while the installation has it), so a frontend fetches exactly the
bytes a given game was played with. What each file holds, and how its
coordinates are to be read, is declared here, beside no rule: the rules read
the files, this module only tells people what is in them.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from . import versions_of


@dataclass(frozen=True)
class Extent:
    """The rectangle every coordinate of the file lies in (inclusive)."""

    x_min: float
    y_min: float
    x_max: float
    y_max: float


@dataclass(frozen=True)
class Coordinates:
    """How to read the x, y of a file's points."""

    units: str
    x_axis: str
    y_axis: str
    origin: str
    extent: Extent | None  # None: positions are relative (a table around a centre), not on a sheet
    where: str  # which fields hold the points


@dataclass(frozen=True)
class Described:
    description: str
    coordinates: Coordinates | None = None


@dataclass(frozen=True)
class DataFile:
    game: str
    name: str
    sha256: str
    description: str
    coordinates: Coordinates | None
    rules_versions: tuple[int, ...]
    path: Path

    def read(self) -> bytes | None:
        """The file's bytes, or None when the file on disk no longer hashes to its name."""
        data = self.path.read_bytes()
        return data if hashlib.sha256(data).hexdigest() == self.sha256 else None


SCREEN = ("x grows to the right", "y grows downwards (screen coordinates)")

DESCRIPTIONS: dict[str, dict[str, Described]] = {
    "cronberg": {
        "board.json": Described(
            "The city inside its wall: 42 crossings (X01..X42, where family members stand) and 62 triangles "
            "(T01..T62, which buildings cover two at a time), each triangle with its three corner crossings, its "
            "kind (plain, park, musketeer, coat-of-arms) and its sides on the city wall; `assumptions` says what "
            "is a stand-in for the printed board.",
            Coordinates("edge lengths of the triangular grid (one triangle side = 1)", *SCREEN,
                        "top left of the board's bounding box", Extent(0, 0, 7, 5.1962),
                        "crossings[].x/y (the crossing's point) and triangles[].x/y (the triangle's centre)"),
        ),
        "tiles.json": Described(
            "The 28 buildings (rhomboids of two triangles), by id (the `tile` of BuildingDrawn and "
            "BuildingPlaced): each lists its 4 corner numbers clockwise as drawn (y downwards), starting at an "
            "acute (60 degree) corner: acute, obtuse, acute, obtuse."),
    },
    "coronation": {
        "board.json": Described(
            "1896 Moscow: 92 locations (by id, the numbers of views and commands) with their names, jewel, "
            "underground and instrument marks, the foot (red) lines and the cab (green) lines between them.",
            Coordinates("board units of a 1000 x 900 sheet", "x grows to the east (right)",
                        "y grows to the south (downwards, screen coordinates)", "top left of the sheet",
                        Extent(0, 0, 1000, 900), "locations[].x/y"),
        ),
        "cards.json": Described(
            "The cards: the five detectives, the instruments, the detective and Lind decks' make-up, and every "
            "trap with its name, instrument, effect and text; plus the last turn and the information gap."),
        "card_faces.json": Described(
            "What each card a seat holds says, for people (the rules do not read this file): `cards`, every kind "
            "of card of Lind's hand (the cab ticket, the underground note, the turn-skip, every trap) and of the "
            "detectives' (the cab ticket, every instrument), each with id (as in views and commands), name and "
            "text."),
    },
    "court-of-miracles": {
        "board.json": Described(
            "Paris: the 5 neighbourhoods (id, name, action, 3 spots each with its effect and amount), the Renown "
            "Square's 5 lines (toll and bonus), the Penniless King's path (space 0 the Louvre to space 20, Wrath "
            "spaces pointing at a neighbourhood) and the Seine; `size` is the board's width and height.",
            Coordinates("board units of a 1000 x 700 board (`size`)", *SCREEN, "top left of the board",
                        Extent(0, 0, 1000, 700),
                        "neighbourhoods[].x/y (the symbol), .renown, .spots[].x/y, renown_square and its lines[], "
                        "king_path.spaces[], seine"),
        ),
        "cards.json": Described(
            "Counts and card data the rules play with: the rogues (kind, name, strength, how many each player "
            "starts with and how many more lie in the bag), the 12 Plot cards (card, name, copies, text), coins "
            "and hand limit."),
        "card_texts.json": Described(
            "What each card and token says, for people (the rules do not read this file): every rogue's ability, "
            "every Plot card's text, every neighbourhood's action and every Renown Square line, by the ids the "
            "views and events use (rogue kind, Plot card, neighbourhood id, line number)."),
        "names.json": Described(
            "What the things a command names are called, for people (the rules do not read this file): `cards`, "
            "every Plot card (kind plot) and rogue token (kind rogue) a player may hold, by the ids of views and "
            "commands, with name and text; `renown_lines`, the Renown Square's lines by number, with name and text."),
    },
    "the-coil": {
        "data.json": Described(
            "The nations (id, name, colour, dice, starting hand, initiative, ability), the 70 homeland cards "
            "(nation, tactic, resources, deployment slots), the tactics, strategy cards and objectives with their "
            "texts, and `layout`, where to draw the table.",
            Coordinates("abstract drawing units (a nation card is 60 wide, 90 high)", *SCREEN,
                        "the northern die, at the centre of the table", None,
                        "layout: table[players][place] is each seat's nation card around (0, 0); slot_positions "
                        "and regions_above_nation/region_offset are offsets from that card"),
        ),
        "card_names.json": Described(
            "What each homeland card is called and says, for people (the rules do not read this file): `cards`, "
            "every homeland card by its id in data.json (as views and commands name it), named by its nation, its "
            "number in that nation's deck and its tactic (\"Dedran 2: Falter\"), with a text giving the tactic and "
            "the region's resources and slots; `resources`, the three resources' names."),
    },
    "runebound": {
        "data.json": Described(
            "The map (30 places with name, kind, adventure counter colour and starburst; the roads between them "
            "as `edges`), the heroes with their statistics, the adventure decks (`decks`), Lord Margath, the market "
            "and the houses, and the numbers of the game (combat phases, movement die, experience, healing, duels).",
            Coordinates("map units on a 100 x 100 square (a 6 x 5 grid of places)", *SCREEN,
                        "top left of the map", Extent(0, 0, 100, 100), "places[].x/y"),
        ),
        "card_texts.json": Described(
            "What each card a hero holds is called and says, for people (the rules do not read this file): "
            "`cards`, every market card (item or ally, with a text made from its cost and bonuses) and every Vassal "
            "(with its rank, house and text), by name, as views and commands name them."),
    },
}

UNDESCRIBED = "(no description yet)"


def of(game: str) -> list[DataFile]:
    """Every data file of every installed rules version of ``game``, newest
    version's first, one entry per distinct content; [] for no such game."""
    by_digest: dict[str, DataFile] = {}
    for version, rules in sorted((versions_of(game) or {}).items(), reverse=True):
        paths = rules.data_paths()
        for name, digest in rules.data_digests().items():
            known = by_digest.get(digest)
            if known is not None:
                by_digest[digest] = DataFile(**{**known.__dict__, "rules_versions": (*known.rules_versions, version)})
                continue
            told = DESCRIPTIONS.get(game, {}).get(name, Described(UNDESCRIBED))
            by_digest[digest] = DataFile(game, name, digest, told.description, told.coordinates, (version,),
                                         paths[name])
    return [DataFile(**{**f.__dict__, "rules_versions": tuple(sorted(f.rules_versions))}) for f in by_digest.values()]


def find(game: str, sha256: str) -> DataFile | None:
    return next((f for f in of(game) if f.sha256 == sha256.lower()), None)
