"""What a command's field names, and where a client finds it drawn.

A frontend composes a command one field at a time (the thing, then where,
then how). For that it must know, of each field, whether its value names
something with a place on the board, a card of the hand, a seat or a piece,
and where the drawing of those things comes from. A game declares it once,
per field, as ``Game.field_names`` ("field" for that name in every command,
"Type.field" for one command's, which wins, as ``field_descriptions``); the
API puts it on the command's schema as ``x-boardlog-names`` and in the
game's catalogue.

``Hand`` says where a seat's own cards are in its view, so that any client
draws every seated player's hand from the first view, the example game's
included, without a branch per game.

``Colour`` says where the data gives a named thing its colour (a card in its
nation's), which a client could otherwise only guess from field names.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Mapping

KINDS = ("place", "card", "seat", "piece")


@dataclass(frozen=True)
class Colour:
    """Where a named thing's colour is in the data.

    ``field`` is the field of the thing's entry holding either a colour (as
    CSS writes it: "white", "#d1495b") or, with ``table``, the ``id`` of an
    entry of the list ``table`` whose ``colour`` (or ``color``) it is: a
    card coloured by its nation says field="nation", table="nations". The
    entry is the thing's own in its Names' list, or, with ``data`` and
    ``list``, its entry of the same key in that other list (The Coil names a
    card in card_names.json, but says its nation in data.json); ``table`` is
    in the file of that entry.
    """

    field: str
    table: str | None = None
    data: str | None = None
    list: str | None = None

    def __post_init__(self) -> None:
        if not self.field:
            raise ValueError("Colour.field names the entry's field holding the colour, or its key in the table")
        if (self.data is None) != (self.list is None):
            raise ValueError("Colour.data and Colour.list go together: the file, and the list in it")

    def to_json(self) -> dict:
        return {key: value for key, value in asdict(self).items() if value is not None}


@dataclass(frozen=True)
class Names:
    """A field's value names one ``what`` (a "triangle", a "location", a
    "plot card") of ``kind``.

    ``data`` is the data file that lists such things (served at
    /v1/rules/{game}/data/{file}), ``list`` the key in that file whose
    entries they are, ``key`` the entry's field equal to the command's value
    and ``label`` the entry's field a person reads. A value drawn from the
    view only (a seat, a piece) has no data file. ``colour``, where the data
    gives the thing a colour; without it a client colours it as it likes.
    """

    kind: str
    what: str
    data: str | None = None
    list: str | None = None
    key: str = "id"
    label: str = "name"
    colour: Colour | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"Names.kind is one of {', '.join(KINDS)}, not {self.kind!r}")
        if (self.data is None) != (self.list is None):
            raise ValueError("Names.data and Names.list go together: the file, and the list in it")
        if self.colour is not None and not isinstance(self.colour, Colour):
            raise ValueError(f"Names.colour is a Colour, not {self.colour!r}")
        if self.colour is not None and self.data is None and self.colour.data is None:
            raise ValueError("Names.colour is read from a data file: give Names.data, or Colour.data and "
                             "Colour.list")

    def to_json(self) -> dict:
        found = {key: value for key, value in asdict(self).items() if value is not None}
        if self.colour is not None:
            found["colour"] = self.colour.to_json()
        return found


@dataclass(frozen=True)
class Hand:
    """Where a seat's own cards are in its view: ``field`` is the view's key
    (dots for nesting, ``{seat}`` for the viewer's own seat, as in
    "players.{seat}.hand") holding a list of card values, each named by
    ``names``."""

    field: str
    names: Names

    def to_json(self) -> dict:
        return {"field": self.field, "names": self.names.to_json()}

    def cards(self, view: Mapping, seat: str) -> list | None:
        """The hand in ``view`` as seat ``seat`` sees it, or None where the
        view holds none (before a deal, or for a seat of nobody)."""
        found: object = view
        for part in self.field.split("."):
            part = seat if part == "{seat}" else part
            if not isinstance(found, Mapping) or part not in found:
                return None
            found = found[part]
        return list(found) if isinstance(found, (list, tuple)) else None


@dataclass(frozen=True)
class Board:
    """How a client draws the game's board: ``kind`` names a kind of drawing
    (what its places are and what joins them: "triangle-grid",
    "numbered-map"...), ``data`` the data file whose places it draws and
    whose extent frames it. A client draws every game of a kind it knows
    with the same code, from that file and the view; the reference client's
    kinds are in api/web/static/board_games.js (docs/game-authors.md, "Board
    kinds"). A game whose kind a client does not know is shown as its seats."""

    kind: str
    data: str | None = None

    def __post_init__(self) -> None:
        if not self.kind or self.kind != self.kind.lower() or " " in self.kind:
            raise ValueError(f"Board.kind is a lower-case word or words joined by -, not {self.kind!r}")

    def to_json(self) -> dict:
        return {key: value for key, value in asdict(self).items() if value is not None}


def names_of(declared: Mapping[str, Names], command: type, name: str) -> Names | None:
    """What field ``name`` of ``command`` names: its own ("Type.field"), else
    the game's for every field of that name, else None (plain data)."""
    return declared.get(f"{command.__name__}.{name}") or declared.get(name)
