"""The games' data files as a frontend reads them: boards, cards and tiles,
each named by the sha256 a game's GameCreated records in ``data_files``.

Every installed rules version of a game contributes its files (an older
version's data, e.g. a ``tiles.v1.json`` kept beside a changed one, is still
served while the installation has it), so a frontend fetches exactly the
bytes a given game was played with. What each file holds, and how its
coordinates are to be read, is declared in the game's package
(``datafiles.py``, ``Game.data_files``), beside no rule: the rules read the
files, the declaration only tells people what is in them.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from ..kit.datafile import Coordinates, Described
from . import versions_of


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
            told = rules.data_files.get(name, Described(UNDESCRIBED))
            by_digest[digest] = DataFile(game, name, digest, told.description, told.coordinates, (version,),
                                         paths[name])
    return [DataFile(**{**f.__dict__, "rules_versions": tuple(sorted(f.rules_versions))}) for f in by_digest.values()]


def find(game: str, sha256: str) -> DataFile | None:
    return next((f for f in of(game) if f.sha256 == sha256.lower()), None)
