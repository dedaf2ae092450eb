"""Servers a bench experiment may stop, kill and start again: a PostgreSQL
of its own (initdb and pg_ctl from /usr/lib/postgresql/*/bin, as the
postgres user when run as root) and tests/support's private Redis. Never the
machine's shared servers."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
from pathlib import Path

from bench.api import free_port
from tests.support.private_redis import PrivateRedis  # noqa: F401  (re-exported for the experiments)


class PrivatePostgres:
    """initdb + pg_ctl on a free port, as the postgres user when run as root."""

    def __init__(self, folder: Path):
        binaries = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
        if not binaries:
            raise RuntimeError("no /usr/lib/postgresql/*/bin for initdb and pg_ctl")
        self.bin = Path(binaries[-1])
        self.folder = folder
        self.data = folder / "pgdata"
        self.port = free_port()
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> None:
        subprocess.run([*self.as_user, *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)

    def init(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        if self.as_user:
            shutil.chown(self.folder, "postgres", "postgres")
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")
        self.start()

    def start(self) -> None:
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.folder / "log"), "-w", "start",
                  "-o", f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off")

    def stop(self) -> None:
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-w", "-m", "fast", "stop")
