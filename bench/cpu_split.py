"""Where a round's CPU went, process by process (bench/cycles.py): the
API server's gunicorn processes, the worker beside it, the PostgreSQL
backends of the benchmark's database, PostgreSQL's own processes (WAL
writer, checkpointer, autovacuum...), the client (wrk) and the rest of the
machine, each in ms of CPU a cycle, with the machine's busy cores over the
round. A server's CPU a cycle alone cannot tell whether the cycles wait on
PostgreSQL or on Python: this can, on a machine whose cores they share.

The backends are read from /proc (psutil) by the pids pg_stat_activity
gives at the start and the end of the round; those that ended within the
round (pgbench's, at its end: the servers' pools keep theirs open) from the
postmaster's reaped children's times, whatever their database."""

from __future__ import annotations

import os
import resource
import statistics
import subprocess

import psutil
import psycopg

PARTS = ("API server (gunicorn), user", "API server (gunicorn), kernel", "worker (boardlog worker)",
         "PostgreSQL backends of the database", "PostgreSQL backends that ended (any database)",
         "PostgreSQL's own processes", "client (wrk or pgbench)",
         "everything else on the machine")


def _cpu(pid: int, part: slice = slice(0, 2)) -> float:
    """User + system seconds of a process (``part``: user alone is 0:1, system 1:2)."""
    try:
        return sum(psutil.Process(pid).cpu_times()[part])
    except psutil.Error:
        return 0.0


def _tree_cpu(pid: int, part: slice = slice(0, 2)) -> float:
    """A process's and its live descendants' CPU (``part`` of their times;
    0:4 counts the children each has reaped too: the worker's RQ work
    horses, a fork a job, which end within the round)."""
    try:
        parent = psutil.Process(pid)
        return sum(_cpu(each.pid, part) for each in [parent, *parent.children(recursive=True)])
    except psutil.Error:
        return 0.0


class CpuSplit:
    """Measures rounds between ``start`` and ``finish``, each of a kind (the
    command cycles, a pgbench round); ``summary`` prints their medians."""

    def __init__(self, url: str, server: subprocess.Popen, worker: subprocess.Popen | None):
        self.url, self.server, self.worker = url, server, worker
        self.rounds: dict[str, list[dict[str, float]]] = {}
        self.cores: dict[str, list[float]] = {}
        self.postmaster: int | None = None

    def _postgres(self) -> tuple[dict[int, float], dict[int, float], float]:
        """CPU seconds of the database's backends and of PostgreSQL's own
        processes, by pid, and of the postmaster's children it reaped."""
        with psycopg.connect(self.url, autocommit=True) as conn:
            rows = conn.execute("select pid, backend_type = 'client backend', datname = current_database()"
                                " from pg_stat_activity where pid <> pg_backend_pid()").fetchall()
            if self.postmaster is None:  # the parent of this connection's backend, while it lives
                self.postmaster = psutil.Process(conn.info.backend_pid).ppid()
        ours = {pid: _cpu(pid) for pid, client, here in rows if client and here}
        own = {pid: _cpu(pid) for pid, client, _ in rows if not client}
        return ours, own, sum(psutil.Process(self.postmaster).cpu_times()[2:4])

    def _snapshot(self) -> dict:
        ours, own, reaped = self._postgres()
        machine = psutil.cpu_times()
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return {"user": _tree_cpu(self.server.pid, slice(0, 1)), "system": _tree_cpu(self.server.pid, slice(1, 2)),
                "worker": _tree_cpu(self.worker.pid, slice(0, 4)) if self.worker else 0.0, "ours": ours, "reaped": reaped,
                "own": own, "client": children.ru_utime + children.ru_stime,
                "busy": sum(machine) - machine.idle - getattr(machine, "iowait", 0.0)}

    def start(self) -> None:
        self.before = self._snapshot()

    def finish(self, kind: str, done: int, seconds: float) -> None:
        """The round of ``kind`` just ended, ``done`` cycles or transactions in
        ``seconds`` (its client waited for: its CPU is in this process's children's)."""
        after, before = self._snapshot(), self.before

        def by_pid(name: str) -> float:
            return sum(cpu - before[name].get(pid, 0.0) for pid, cpu in after[name].items())

        spent = [after["user"] - before["user"], after["system"] - before["system"],
                 after["worker"] - before["worker"], by_pid("ours"), after["reaped"] - before["reaped"],
                 by_pid("own"), after["client"] - before["client"]]
        busy = after["busy"] - before["busy"]
        spent.append(max(0.0, busy - sum(spent)))
        self.rounds.setdefault(kind, []).append({part: 1000 * cpu / done for part, cpu in zip(PARTS, spent)})
        self.cores.setdefault(kind, []).append(busy / seconds)

    def summary(self) -> None:
        for kind, rounds in self.rounds.items():
            cores = ", ".join(f"{c:.2f}" for c in self.cores[kind])
            print(f"where the machine's CPU went in {kind}, ms each (median of {len(rounds)} rounds; "
                  f"the machine's {os.cpu_count()} cores busy: {cores}):")
            medians = {part: statistics.median(r[part] for r in rounds) for part in PARTS}
            total = sum(medians.values())
            for part in PARTS:
                each = ", ".join(f"{r[part]:.2f}" for r in rounds)
                print(f"  {medians[part]:6.3f} ms ({100 * medians[part] / total:4.1f}%)  {part}   rounds: {each}")
