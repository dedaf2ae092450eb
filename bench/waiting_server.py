"""The server bench/waiting.py holds its waiters on, and what it reads of
it and of the machine: the production server started with its log sent to
LOG, the faults that log shows, the server's memory and CPU from /proc, how
many waiters it says it still holds, the open-file limit, the kernel's
listen queue settings and the load average."""

from __future__ import annotations

import asyncio
import os
import re
import resource
import time
from collections import Counter
from pathlib import Path

import requests

from bench.api import gunicorn

LOG = Path(os.environ.get("BOARDLOG_BENCH_LOG", "/tmp/boardlog-bench-waiting.log"))


def start_server(app: str, env: dict, workers: tuple):
    """bench/api.py's gunicorn, its request log sent to LOG rather than the terminal."""
    with open(LOG, "ab") as log:
        saved = os.dup(2)
        os.dup2(log.fileno(), 2)
        try:
            return gunicorn(app, env, workers)
        finally:
            os.dup2(saved, 2)
            os.close(saved)


class ServerLog:
    """What the server wrote to LOG from now on: unhandled exceptions
    (tracebacks), error lines, and answers with a 5xx status other than 503
    (a 503 is a refusal with Retry-After, counted by the client)."""

    ANSWER = re.compile(r"boardlog\.requests: \S+ \S+ (\d{3}) ")

    def __init__(self):
        self.start = LOG.stat().st_size if LOG.exists() else 0

    def faults(self) -> Counter:
        found: Counter = Counter()
        with open(LOG, "rb") as log:
            log.seek(self.start)
            for line in log.read().decode(errors="replace").splitlines():
                answer = self.ANSWER.search(line)
                if line.startswith("Traceback"):
                    found["server traceback"] += 1
                elif " ERROR " in line or "[ERROR]" in line or "[CRITICAL]" in line:
                    found["server error line: " + line.split("]", 3)[-1].strip()[:80]] += 1
                elif answer and answer.group(1).startswith("5") and answer.group(1) != "503":
                    found[f"server answered {answer.group(1)}"] += 1
        return found


def checked_log(log: ServerLog, phase: str) -> Counter:
    faults = log.faults()
    print(f"server log during {phase}: {sum(faults.values())} unhandled exceptions, error lines or 5xx other "
          f"than 503 {dict(faults) if faults else ''}(goal 0)")
    return faults


def kernel_setting(name: str) -> str:
    try:
        return Path(f"/proc/sys/{name}").read_text().strip()
    except OSError:
        return "?"


def raise_fd_limit() -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


def server_pids(master_pid: int) -> list[int]:
    """gunicorn's master and its workers."""
    children = Path(f"/proc/{master_pid}/task/{master_pid}/children")
    return [master_pid, *(int(pid) for pid in children.read_text().split())] if children.exists() else [master_pid]


def server_rss_kib(master_pid: int) -> int:
    total = 0
    for pid in server_pids(master_pid):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total


def server_cpu_seconds(master_pid: int) -> float:
    total = 0
    for pid in server_pids(master_pid):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


async def settled(master_pid: int, limit: float = 180) -> None:
    """Until the server's processes use under a fifth of a core for 2 s (or ``limit`` s passed)."""
    started = time.monotonic()
    while time.monotonic() - started < limit:
        before = server_cpu_seconds(master_pid)
        await asyncio.sleep(2)
        if server_cpu_seconds(master_pid) - before < 0.4:
            return


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def server_waiters_gone(base: str, limit: float = 120) -> float:
    """Seconds until the server holds no waiter (its /readyz says), at most ``limit``."""
    started = time.monotonic()
    while time.monotonic() - started < limit:
        saturation = requests.get(f"{base}/readyz", timeout=10).json()["saturation"]
        if saturation["server_waiters"] == 0:
            break
        time.sleep(1)
    return time.monotonic() - started
