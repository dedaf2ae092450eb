"""The second verifier judges a game its players ended by agreement, in each
of the five games, as VERIFIED, as ``boardlog audit`` does; both refuse a
copy whose standings do not follow the scores as they stood, and one whose
game ends before every player accepted."""

from __future__ import annotations

import json
import uuid

import pytest

from tests.api.test_end_by_agreement import GAMES
from tests.verifier.harness import boardlog_audit, first_failure, rehash, second_verifier



def _ended_by_agreement(app, service, game: str, steps: int = 3) -> list[str]:
    """Two players play a few moves, one proposes ending the game as it stands, the other accepts; scored."""
    from tests.api.conftest import Player, started_game

    client = app.test_client()
    tag = uuid.uuid4().hex[:6]
    ada, bob = Player(client, f"agree-{tag}-ada"), Player(client, f"agree-{tag}-bob")
    game_id = started_game([ada, bob], game, GAMES[game])
    by_seat = {ada.view(game_id).json["seat"]: ada, bob.view(game_id).json["seat"]: bob}
    for _ in range(steps):
        to_act = ada.view(game_id).json["to_act"]
        mover = by_seat[to_act[0]]
        assert mover.act(game_id, mover.legal(game_id)[0]).status_code == 200
    assert ada.post(f"/v1/games/{game_id}/end-proposal", json={"ending": "as-it-stands"}).status_code == 200
    assert bob.post(f"/v1/games/{game_id}/end-proposal/accept", json={}).status_code == 200
    assert service.score(uuid.UUID(game_id))
    return client.get(f"/v1/games/{game_id}/export").get_data(as_text=True).splitlines()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_second_verifier_and_the_audit_verify_a_game_ended_by_agreement(node, app, service, tmp_path, game):
    lines = _ended_by_agreement(app, service, game)
    kinds = [entry["metadata"]["command"]["type"] for entry in map(json.loads, lines) if "metadata" in entry]
    assert "ProposeEnd" in kinds and "AcceptEnd" in kinds
    answer = second_verifier(lines, tmp_path)
    assert answer["verdict"] == "VERIFIED", answer
    ok, report = boardlog_audit(lines)
    assert ok, report


def test_both_verifiers_refuse_standings_that_do_not_follow_the_scores_as_they_stood(node, app, service, tmp_path):
    entries = [json.loads(line) for line in _ended_by_agreement(app, service, "cronberg")]
    scored = next(e for e in entries if e.get("type") == "GameScored")
    standings = scored["data"]["standings"]
    standings[-1]["rank"] = 1 if standings[-1]["rank"] != 1 else 2  # a place the scores do not give
    rehash([e for e in entries if "metadata" in e])
    answer = second_verifier([json.dumps(e) for e in entries], tmp_path)
    assert answer["verdict"] != "VERIFIED"
    assert first_failure(answer).startswith("end"), answer
    ok, why = boardlog_audit([json.dumps(e) for e in entries])
    assert not ok, why


def test_both_verifiers_refuse_a_game_ended_before_every_player_accepted(node, app, service, tmp_path):
    """The acceptance is credited to the proposer himself: the other player never agreed."""
    entries = [json.loads(line) for line in _ended_by_agreement(app, service, "cronberg")]
    proposed = next(e for e in entries if e.get("type") == "EndProposed")
    for entry in entries:
        if entry.get("type") == "EndAccepted":
            entry["data"]["seat"], entry["data"]["player"] = proposed["data"]["seat"], proposed["data"]["player"]
            entry["metadata"]["seat"], entry["metadata"]["actor"] = proposed["data"]["seat"], proposed["data"]["player"]
        elif entry.get("metadata", {}).get("command", {}).get("type") == "AcceptEnd":
            entry["metadata"]["seat"], entry["metadata"]["actor"] = proposed["data"]["seat"], proposed["data"]["player"]
    rehash([e for e in entries if "metadata" in e])
    answer = second_verifier([json.dumps(e) for e in entries], tmp_path)
    assert answer["verdict"] != "VERIFIED"
    assert first_failure(answer).startswith("seats"), answer
    assert "accepts a proposal it made" in next(c for c in answer["checks"] if not c["ok"])["reason"]
    ok, why = boardlog_audit([json.dumps(e) for e in entries])
    assert not ok, why
