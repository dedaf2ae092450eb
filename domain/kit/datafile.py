"""What a game's data files hold, for people and frontends: a sentence per
file and, for a file of points, how to read its coordinates. Each game
declares its own in its package (``datafiles.py``: ``DATA_FILES``, by file
name); the API serves them beside the files (domain.games.data_files)."""

from __future__ import annotations

from dataclasses import dataclass


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


SCREEN = ("x grows to the right", "y grows downwards (screen coordinates)")
