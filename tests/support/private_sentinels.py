"""A Redis master, its replica and three Sentinels of a test's (or a bench
experiment's) own, on free ports, from the machine's redis-server
(``redis-server sentinel.conf --sentinel``): the master may be SIGKILLed and
the Sentinels promote the replica within a few seconds (down after 1 s,
failover timeout 3 s). Nothing is kept on disk; never the machine's Redis."""

from __future__ import annotations

import shutil
import signal
import subprocess
from pathlib import Path

from redis import Redis

from tests.support.private_redis import free_port
from tests.support.waiting import wait_until

MASTER_NAME = "boardlog"
QUORUM = 2
DOWN_AFTER_MS = 1000
FAILOVER_TIMEOUT_MS = 3000


def redis_server() -> str | None:
    """The machine's redis-server (Sentinel mode is a redis-server switch; Valkey's runs the same way)."""
    return shutil.which("redis-server") or shutil.which("valkey-server")


class PrivateSentinels:
    def __init__(self, folder: Path, master_name: str = MASTER_NAME):
        self.folder = Path(folder)
        self.master_name = master_name
        self.binary = redis_server()
        if self.binary is None:
            raise RuntimeError("no redis-server (or valkey-server) on PATH to run Redis and its Sentinels")
        self.data_ports = [free_port(), free_port()]  # the first starts as master, the second as its replica
        self.sentinel_ports = [free_port() for _ in range(3)]
        self.servers: dict[int, subprocess.Popen] = {}

    def url(self, master_name: str | None = None, db: int = 0) -> str:
        hosts = ",".join(f"127.0.0.1:{port}" for port in self.sentinel_ports)
        return f"redis+sentinel://{hosts}/{master_name or self.master_name}/{db}"

    def start(self, timeout: float = 60) -> "PrivateSentinels":
        master, replica = self.data_ports
        self._start(master, ["--port", str(master), "--repl-diskless-sync-delay", "0"])  # a replica syncs at once
        self._start(replica, ["--port", str(replica), "--replicaof", "127.0.0.1", str(master)])
        # In sync before the Sentinels start: their first INFO of the master
        # then lists the replica (the next comes 10 s later).
        wait_until(lambda: self._ask(replica, lambda server: server.info("replication").get("master_link_status"))
                  == "up", timeout, "the replica to sync with its master")
        for port in self.sentinel_ports:
            folder = self.folder / f"sentinel-{port}"
            folder.mkdir(parents=True, exist_ok=True)
            conf = folder / "sentinel.conf"  # Sentinel rewrites it: one file each
            conf.write_text(f"port {port}\nbind 127.0.0.1\ndir {folder}\n"
                            f"sentinel monitor {self.master_name} 127.0.0.1 {master} {QUORUM}\n"
                            f"sentinel down-after-milliseconds {self.master_name} {DOWN_AFTER_MS}\n"
                            f"sentinel failover-timeout {self.master_name} {FAILOVER_TIMEOUT_MS}\n"
                            f"sentinel parallel-syncs {self.master_name} 1\n")
            self.servers[port] = subprocess.Popen([self.binary, str(conf), "--sentinel"], stdout=self._log(port),
                                                  stderr=subprocess.STDOUT)
        wait_until(self._all_see_everyone, timeout, "the Sentinels to see the master, its replica and each other")
        return self

    def _start(self, port: int, arguments: list[str]) -> None:
        folder = self.folder / f"redis-{port}"
        folder.mkdir(parents=True, exist_ok=True)
        self.servers[port] = subprocess.Popen(
            [self.binary, *arguments, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", str(folder)],
            stdout=self._log(port), stderr=subprocess.STDOUT)

    def _log(self, port: int):
        return open(self.folder / f"{port}.log", "ab")

    def _all_see_everyone(self) -> bool:
        for port in self.sentinel_ports:
            state = self._ask(port, lambda sentinel: sentinel.sentinel_master(self.master_name))
            if not state or state["num-slaves"] < 1 or state["num-other-sentinels"] < len(self.sentinel_ports) - 1:
                return False
        return True

    def _ask(self, port: int, question):
        try:
            with Redis("127.0.0.1", port, socket_connect_timeout=1, socket_timeout=1) as sentinel:
                return question(sentinel)
        except Exception:
            return None

    def master_port(self) -> int | None:
        """The master's port as the Sentinels say (the first that answers)."""
        for port in self.sentinel_ports:
            address = self._ask(port, lambda sentinel: sentinel.sentinel_get_master_addr_by_name(self.master_name))
            if address:
                return int(address[1])
        return None

    def kill_master(self) -> int:
        """SIGKILL to the current master: no goodbye, nothing saved. Its port."""
        port = self.master_port()
        process = self.servers.pop(port)
        process.send_signal(signal.SIGKILL)
        process.wait(10)
        return port

    def wait_for_new_master(self, old_port: int, timeout: float = 60) -> int:
        """Until every Sentinel names another master, and it takes writes."""
        def promoted():
            named = {self._ask(port, lambda s: s.sentinel_get_master_addr_by_name(self.master_name))
                     for port in self.sentinel_ports}
            named = {int(address[1]) for address in named if address}
            if len(named) != 1 or old_port in named:
                return None
            port = named.pop()
            role = self._ask(port, lambda server: server.role()[0])
            return port if role in (b"master", "master") else None

        return wait_until(promoted, timeout, "the Sentinels to promote the replica")

    def stop(self) -> None:
        for process in self.servers.values():
            if process.poll() is None:
                process.send_signal(signal.SIGKILL)
        for process in self.servers.values():
            process.wait(10)
        self.servers.clear()
