"""Golden games: finished games exported by earlier releases. Every one must
replay and audit as VERIFIED under the installed code, and rest exactly where
it rested when it was recorded (final view, outcome, standings). They are only
ever added: MANIFEST.sha256 pins each file, so a regenerated or edited golden
file fails here. (Record new ones with tests/golden/record.py.)"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from api.audit.offline_audit import audit_lines
from domain import games
from domain import session as sessions
from domain.engine import EVERYONE

HERE = Path(__file__).resolve().parent
MANIFEST = HERE / "MANIFEST.sha256"
GOLDEN = sorted(HERE.glob("*/*.jsonl"))


def _manifest() -> dict[str, str]:
    entries = {}
    for line in MANIFEST.read_text().splitlines():
        if line.strip():
            digest, name = line.split(maxsplit=1)
            entries[name] = digest
    return entries


def _golden_files() -> list[Path]:
    return sorted(p for p in HERE.glob("*/*") if p.is_file() and p.suffix in (".jsonl", ".json"))


def test_there_are_several_golden_games_of_every_game():
    for name, rules in games.REGISTRY.items():
        assert len(list((HERE / name).glob("*.jsonl"))) >= 2, f"{name} has fewer than two golden games"
        assert len(rules.golden) >= 2, (f"{name} declares fewer than two golden games: declare them in GOLDEN in "
                                        f"domain/games/{name.replace('-', '_')}/golden.py")


@pytest.mark.parametrize("game", list(games.REGISTRY), ids=list(games.REGISTRY))
def test_every_golden_game_a_package_declares_is_recorded(game):
    missing = [golden.name for golden in games.get(game).golden if not (HERE / game / f"{golden.name}.jsonl").exists()]
    assert not missing, (f"{game} declares golden games not recorded yet: {', '.join(missing)}; record them with "
                         f"DATABASE_URL=... python tests/golden/record.py {game} {' '.join(missing)}")


def test_golden_files_are_only_ever_added_never_changed():
    pinned = _manifest()
    present = {str(p.relative_to(HERE)): hashlib.sha256(p.read_bytes()).hexdigest() for p in _golden_files()}
    assert sorted(set(pinned) - set(present)) == [], "a golden file was removed"
    assert sorted(set(present) - set(pinned)) == [], "a new golden file is not in MANIFEST.sha256 yet"
    changed = sorted(name for name in pinned if pinned[name] != present[name])
    assert changed == [], f"golden files changed (they are only ever added, never regenerated): {changed}"


def _records(path: Path) -> list[SimpleNamespace]:
    """The export's events; its last line, the signed head of newer exports, is none."""
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [SimpleNamespace(**line) for line in lines if "head" not in line]


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_golden_game_audits_as_verified(path):
    with path.open() as lines:
        ok, report = audit_lines(lines)
    assert ok, "\n".join(report)


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_golden_game_replays_to_the_view_and_standings_recorded_beside_it(path):
    check_replays_as_recorded(path)


def check_replays_as_recorded(path: Path) -> None:
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    records = _records(path)
    created = sessions.created_from_stored(records[0].schema_version, records[0].data)
    rules = games.rules_for(created)
    session = None
    for record in records:
        session = sessions.evolve(rules, session, sessions.decode_stored(rules, record.type, record.schema_version,
                                                                        record.data))
    assert (session.version, session.status, session.outcome) == (
        expected["version"], expected["status"], expected["outcome"])
    def by_rank(standings):  # the API lists them by rank since 2026-12; older recordings, in seat order
        return sorted(standings, key=lambda standing: (standing["rank"], standing["seat"]))

    assert by_rank(json.loads(json.dumps(list(session.standings)))) == by_rank(expected["standings"])
    view = json.loads(json.dumps(rules.view(session.state, EVERYONE)))
    recorded = expected["final_view"]
    # Every key the view had when recorded is as it was; a key a later release
    # added to the view (the hand declared for composing clients) is an addition.
    assert {key: view.get(key, "(gone)") for key in recorded} == recorded
