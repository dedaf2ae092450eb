"""The seeds of the games tests create, the same each run, and told when a
test fails.

Every service the fixtures make draws its games' seeds from ``TEST_SEEDS``,
which hands each test its own ``DerivedSeeds``, labelled with the test's node
id and ``BOARDLOG_TEST_SEED`` (default "0"): a test plays the same games run
after run, and whether other tests ran before it does not change them. Set
``BOARDLOG_TEST_SEED`` to something else to play other games. A failing test
gets a report section "boardlog seeds" that says how to play its games again.
"""

from __future__ import annotations

import os
import threading

import pytest

from api.service.seeds import DerivedSeeds

ENV = "BOARDLOG_TEST_SEED"
SECTION = "boardlog seeds"


def base() -> str:
    return os.environ.get(ENV, "0")


class SeedsOfTheRunningTest:
    """A seed source that draws from the seeds of the test running now
    (a session's services outlive each test; the seeds belong to the test)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._current = DerivedSeeds(f"{base()}\noutside any test")

    def begin(self, nodeid: str) -> DerivedSeeds:
        with self._lock:
            self._current = DerivedSeeds(f"{base()}\n{nodeid}")
            return self._current

    def __call__(self) -> bytes:
        with self._lock:
            current = self._current
        return current()


TEST_SEEDS = SeedsOfTheRunningTest()
_KEY = pytest.StashKey[DerivedSeeds]()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    item.stash[_KEY] = TEST_SEEDS.begin(item.nodeid)
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    seeds = item.stash.get(_KEY, None)
    if report.failed and seeds is not None and seeds.drawn:
        games = "\n".join(f"  game {n}: {seed.hex()}" for n, seed in enumerate(seeds.drawn, 1))
        report.sections.append((SECTION, (
            f"the games this test created had these seeds ({ENV}={base()}):\n{games}\n"
            f"the same games again: {ENV}={base()} python -m pytest '{item.nodeid}'\n"
            "one of them in a test of its own: GameService(store, seeds=FixedSeeds('<seed>'))"
            " (api/service/seeds.py)")))
