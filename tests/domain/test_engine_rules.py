"""The rules every game obeys (openapi/verifying-a-game.md, section 5),
checked from the engine's events and the metadata alone: a golden game
breaks none, and each edit below breaks the rule it names."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from domain.engine_rules import check

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "cronberg" / "four-players-with-timeouts.jsonl"


def _log() -> list[dict]:
    return [json.loads(line) for line in GOLDEN.read_text().splitlines() if line.strip()]


def _where(log, test):
    return next(i for i, event in enumerate(log) if test(event))


def _key(event) -> str:
    return json.dumps({k: event["metadata"].get(k) for k in ("decided_at", "seat", "timeout", "command")})


def _batch(log, index):
    """The indexes of the events decided with the event at ``index``."""
    start, end = index, index
    while start > 0 and _key(log[start - 1]) == _key(log[index]):
        start -= 1
    while end + 1 < len(log) and _key(log[end + 1]) == _key(log[index]):
        end += 1
    return range(start, end + 1)


def _is_move(event):
    meta = event["metadata"]
    return meta["seat"] is not None and not meta.get("timeout") and event["version"] > 10


def timeout_by_a_player(log):
    i = _where(log, lambda e: e["metadata"].get("timeout"))
    for j in _batch(log, i):
        log[j]["metadata"]["actor"] = log[0]["data"]["host"]


def bot_move_for_a_seat_no_bot_plays(log):
    for j in _batch(log, _where(log, _is_move)):
        log[j]["metadata"].update(bot="random", actor="bot:random")


def move_decided_on_another_version(log):
    for j in _batch(log, _where(log, _is_move)):
        log[j]["metadata"]["decided_at"] -= 1


def game_over_before_the_last_event_of_its_batch(log):
    i = _where(log, lambda e: e["type"] == "GameOver")
    log[i - 1], log[i] = log[i], log[i - 1]


def start_by_a_player_who_is_not_the_host(log):
    i = _where(log, lambda e: e["type"] == "PlayersSeated")
    other = next(p for p in log[i]["data"]["players"].values() if p != log[0]["data"]["host"])
    for j in _batch(log, i):
        log[j]["metadata"]["actor"] = other


def join_by_a_player_who_holds_a_seat(log):
    i = _where(log, lambda e: e["type"] == "SeatTaken" and e["version"] > 2)
    log[i]["data"]["player"] = log[i]["metadata"]["actor"] = log[0]["data"]["host"]


def move_after_the_end(log):
    i = _where(log, lambda e: e["type"] == "GameOver")
    move = copy.deepcopy(log[_where(log, _is_move)])
    move["metadata"]["decided_at"] = i + 1
    log.insert(i + 1, move)
    log[-1]["metadata"]["decided_at"] = len(log) - 1


def standings_without_a_seat(log):
    log[-1]["data"]["standings"] = log[-1]["data"]["standings"][1:]


def resignation_without_the_seat(log):
    i = _where(log, _is_move)
    seat, stranger = log[i]["metadata"]["seat"], "00000000-0000-4000-8000-00000000dead"
    log[i:i] = [{"type": "SeatResigned", "data": {"seat": seat, "player": stranger, "bot": "random"},
                 "metadata": {"actor": stranger, "seat": seat, "command": {"type": "ResignSeat"}, "lifecycle": True,
                              "decided_at": i}}]


EDITS = [
    (timeout_by_a_player, "5.5"),
    (bot_move_for_a_seat_no_bot_plays, "5.5"),
    (move_decided_on_another_version, "5.2"),
    (game_over_before_the_last_event_of_its_batch, "5.3"),
    (start_by_a_player_who_is_not_the_host, "5.5"),
    (join_by_a_player_who_holds_a_seat, "5.5"),
    (move_after_the_end, "5.4"),
    (standings_without_a_seat, "5.8"),
    (resignation_without_the_seat, "5.5"),
]


def test_a_golden_game_breaks_none_of_the_rules():
    assert check(_log(), complete=True) == []


@pytest.mark.parametrize("edit, rule", EDITS, ids=[edit.__name__ for edit, _ in EDITS])
def test_each_edit_breaks_the_rule_it_names(edit, rule):
    log = _log()
    edit(log)
    problems = check(log, complete=True)
    assert any(problem.endswith(f"(rule {rule})") and problem.startswith("at version ") for problem in problems), \
        problems


def test_a_finished_log_without_its_standings_is_refused_but_a_running_one_is_not():
    log = _log()[:-1]
    assert check(log) == []
    assert check(log, complete=True) == [
        f"at version {len(log)}: the game ended at version {len(log)} (GameOver) but the log holds no GameScored: "
        "its standings are cut off (rule 5.8)"]


def test_metadata_of_the_wrong_type_is_named_and_nothing_else_is_checked():
    log = _log()
    log[4]["metadata"]["seat"] = {"not": "a seat"}
    assert check(log) == ["at version 5: the metadata's seat is not a string or null (rule 5.0)"]
