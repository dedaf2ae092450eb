"""The second verifier judges a game in which a player gave another seat
time as VERIFIED, as ``boardlog audit`` does, and refuses its tampered
copies (a gift beyond the bound among them)."""

from __future__ import annotations

import json
import uuid

from tests.verifier.harness import boardlog_audit, first_failure, refuse_every_tampered_copy, second_verifier


def _game_with_a_gift(app, service) -> list[str]:
    """A Coronation with clocks: the detective gives Lind an hour, Lind resigns, the game is scored."""
    from tests.api.conftest import Player, started_game

    client = app.test_client()
    tag = uuid.uuid4().hex[:6]
    ada, bob = Player(client, f"gift-{tag}-ada"), Player(client, f"gift-{tag}-bob")
    game_id = started_game([ada, bob], "coronation", {"detective_seats": 1, "time_bank_seconds": 86400})
    by_seat = {ada.view(game_id).json["seat"]: ada, bob.view(game_id).json["seat"]: bob}
    for _ in range(40):  # until Lind is to act, with its clock running
        to_act = ada.view(game_id).json["to_act"]
        if to_act == ["lind"]:
            break
        mover = by_seat[to_act[0]]
        assert mover.act(game_id, mover.legal(game_id)[0]).status_code == 200
    giver = next(p for s, p in by_seat.items() if s != "lind")
    given = giver.post(f"/v1/games/{game_id}/time-gifts", json={"seat": "lind", "seconds": 3600})
    assert given.status_code == 200, given.json
    assert by_seat["lind"].post(f"/v1/games/{game_id}/resign").status_code == 200
    assert service.score(uuid.UUID(game_id))
    return client.get(f"/v1/games/{game_id}/export").get_data(as_text=True).splitlines()


def test_the_second_verifier_and_the_audit_verify_a_game_with_time_given(node, app, service, tmp_path):
    lines = _game_with_a_gift(app, service)
    kinds = {entry["metadata"]["command"]["type"] for entry in map(json.loads, lines) if "metadata" in entry}
    assert "GiveTime" in kinds
    answer = second_verifier(lines, tmp_path)
    assert answer["verdict"] == "VERIFIED", answer
    ok, report = boardlog_audit(lines)
    assert ok, report
    refuse_every_tampered_copy("coronation with time given", lines, tmp_path)


def test_the_second_verifier_refuses_a_gift_beyond_the_day_a_seat_may_give(node, app, service, tmp_path):
    from tests.verifier.harness import rehash

    entries = [json.loads(line) for line in _game_with_a_gift(app, service)]
    gift = next(e for e in entries if e.get("type") == "TimeGiven")
    gift["data"]["seconds"] = 86401
    gift["metadata"]["command"]["seconds"] = 86401
    rehash([e for e in entries if "metadata" in e])
    answer = second_verifier([json.dumps(e) for e in entries], tmp_path)
    assert answer["verdict"] != "VERIFIED"
    assert first_failure(answer).startswith("seats")
    assert "beyond the day a seat may give" in next(c for c in answer["checks"] if not c["ok"])["reason"]
    ok, why = boardlog_audit([json.dumps(e) for e in entries])
    assert not ok and why.startswith("seed and decisions: FAILED"), why
