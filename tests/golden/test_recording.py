"""The golden tooling works on today's defaults: a timed game (per-seat
clocks, abandonment on) records, audits as VERIFIED and replays to what was
recorded beside it; a spec the server refuses, or a name no spec has, fails
with a sentence that says what to do."""

from __future__ import annotations

import json

import pytest

from api.audit.offline_audit import audit_lines
from tests.golden import record
from tests.golden.test_golden_games import check_replays_as_recorded


@pytest.fixture
def recorder(database_url):
    with record.recorder(database_url) as tools:
        yield tools


def test_a_timed_game_whose_seats_are_abandoned_records_audits_and_replays(recorder, tmp_path):
    client, service, clock = recorder
    spec = record.Spec("timed-and-abandoned", "cronberg", {"players": 2, "rounds": 1, "turn_seconds": 60,
                                                          "abandon_after": 2}, timeouts=0.5, seeds=range(1, 4))
    path = record.record(client, service, spec, clock, into=tmp_path)
    lines = path.read_text().splitlines()
    assert any(json.loads(line).get("type") == "SeatAbandoned" for line in lines), "no seat was abandoned"
    assert any((json.loads(line).get("metadata") or {}).get("bot") for line in lines), "no bot played a turn"
    ok, report = audit_lines(iter(lines))
    assert ok, "\n".join(report)
    check_replays_as_recorded(path)


def test_options_the_server_refuses_fail_in_a_sentence(recorder, tmp_path):
    client, service, clock = recorder
    spec = record.Spec("too-many", "cronberg", {"players": 9})
    with pytest.raises(SystemExit, match="the server refused its options .*fix the spec"):
        record.record(client, service, spec, clock, into=tmp_path)


def test_a_spec_name_no_game_has_fails_naming_the_specs_there_are():
    with pytest.raises(SystemExit, match="cronberg has no golden spec nine-players; its specs are two-players"):
        record.chosen_specs(["cronberg", "nine-players"])
    with pytest.raises(SystemExit, match="usage: .*GAME one of coronation"):
        record.chosen_specs(["chess"])
