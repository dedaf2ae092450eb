"""A PostgreSQL cluster of a test's own (the embedded server's programs, in a
folder of its own, fsync off), that the test may stop and start again:
never the machine's shared PostgreSQL. Its URL stays the same across
restarts (a Unix socket in its data folder)."""

from __future__ import annotations

import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from eventstore.embedded import THROWAWAY, EmbeddedPostgres


class PrivatePostgres:
    def __init__(self, folder: Path, settings: dict | None = None):
        self.server = EmbeddedPostgres(folder / "pgdata", settings=THROWAWAY if settings is None else settings)
        self.url: str | None = None

    def start(self) -> str:
        url = self.server.start()
        assert self.url in (None, url), "the private PostgreSQL came back on another socket"
        self.url = url
        return url

    def stop(self) -> None:
        """A fast shutdown: every connection is told so (AdminShutdown) and closed."""
        self.server.stop()

    def restart(self) -> None:
        self.stop()
        self.start()


@contextmanager
def private_postgres(settings: dict | None = None) -> Iterator[PrivatePostgres]:
    folder = Path(tempfile.mkdtemp(prefix="boardlog-private-pg-"))
    folder.chmod(0o755)  # as root, PostgreSQL runs as a user of its own, which must reach it
    postgres = PrivatePostgres(folder, settings)
    try:
        postgres.start()
        yield postgres
    finally:
        try:
            postgres.stop()
        finally:
            shutil.rmtree(folder, ignore_errors=True)
