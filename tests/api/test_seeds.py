"""Reproducible games in tests: the service draws each new game's seed from
the source it is given, so two services with the same source create the same
games, and a failing test says which seeds its games had."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path

from api.service.games import GameService, stream_of
from api.service.seeds import DerivedSeeds, FixedSeeds

ROOT = Path(__file__).resolve().parents[2]


def _started_game(service) -> uuid.UUID:
    tag = uuid.uuid4().hex[:6]
    ada, _ = service.players.register(f"seeds-{tag}-a")
    bob, _ = service.players.register(f"seeds-{tag}-b")
    game_id = service.create(ada, "cronberg", {"players": 2}, "p1")
    service.join(game_id, bob, "p2")
    service.start(game_id, ada)
    return game_id


def _game_events(service, game_id) -> list:
    """The game's own events (the deal), without the lobby's, which name the players."""
    return [(r.type, r.data) for r in service.store.read_stream(stream_of(game_id)) if r.type not in
            {"GameCreated", "SeatTaken", "PlayersSeated"}]


def test_two_services_with_the_same_seed_source_create_games_with_the_same_seeds_and_deal(event_store):
    one = GameService(event_store, seeds=DerivedSeeds("same"))
    other = GameService(event_store, seeds=DerivedSeeds("same"))
    first, second = _started_game(one), _started_game(other)
    assert one.seed(first) == other.seed(second)
    created = [service.store.read_stream(stream_of(gid), 1, 1)[0].data["seed_sha256"]
               for service, gid in ((one, first), (other, second))]
    assert created[0] == created[1]
    assert _game_events(one, first) == _game_events(other, second) != []
    assert one.load(first)[1].state == other.load(second)[1].state


def test_another_seed_source_deals_another_game(event_store):
    one = GameService(event_store, seeds=DerivedSeeds("one"))
    other = GameService(event_store, seeds=DerivedSeeds("other"))
    first, second = _started_game(one), _started_game(other)
    assert one.seed(first) != other.seed(second)
    assert _game_events(one, first) != _game_events(other, second)


def test_a_seed_a_failing_test_reported_plays_that_game_again(event_store):
    reported = DerivedSeeds("a failing test")
    original = GameService(event_store, seeds=reported)
    game_id = _started_game(original)
    again = GameService(event_store, seeds=FixedSeeds(reported.drawn[0].hex()))
    replayed = _started_game(again)
    assert again.seed(replayed) == original.seed(game_id)
    assert _game_events(again, replayed) == _game_events(original, game_id)


def _run_pytest(tmp_path, test_source: str, seed_base: str):
    (tmp_path / "test_inner.py").write_text(textwrap.dedent(test_source))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BOARDLOG_TEST_SEED": seed_base}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.support.seeds", "-p", "no:cacheprovider", "-q", "test_inner.py"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)


INNER = """
    from tests.support.seeds import TEST_SEEDS

    def test_that_fails():
        TEST_SEEDS(), TEST_SEEDS()  # two games created
        assert False

    def test_that_passes():
        TEST_SEEDS()
"""


def test_a_failing_test_reports_the_seeds_of_its_games_and_how_to_play_them_again(tmp_path):
    run = _run_pytest(tmp_path, INNER, "run-7")
    assert run.returncode == 1, run.stdout + run.stderr
    expected = DerivedSeeds("run-7\ntest_inner.py::test_that_fails")
    seeds = [expected(), expected()]
    report = run.stdout
    assert "boardlog seeds" in report
    assert f"game 1: {seeds[0].hex()}" in report and f"game 2: {seeds[1].hex()}" in report
    assert "BOARDLOG_TEST_SEED=run-7 python -m pytest 'test_inner.py::test_that_fails'" in report
    assert report.count("boardlog seeds") == 1  # the passing test reports nothing


def test_a_test_plays_the_same_games_run_after_run_and_others_with_another_base(tmp_path):
    source = """
        from tests.support.seeds import TEST_SEEDS

        def test_prints_its_seed():
            print("SEED", TEST_SEEDS().hex())
            assert False
    """

    def seed_of(run):
        return next(line.split()[1] for line in run.stdout.splitlines() if line.startswith("SEED "))

    first, second = _run_pytest(tmp_path, source, "a"), _run_pytest(tmp_path, source, "a")
    assert seed_of(first) == seed_of(second)
    assert seed_of(_run_pytest(tmp_path, source, "b")) != seed_of(first)
