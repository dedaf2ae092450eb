"""Genuine games that go through every seat-life decision the server
takes (invites in a private lobby, leaving, bots, abandonment, a
replacement, a resignation a bot plays on, clocks, a rematch, an abort)
audit VERIFIED: the audit decides each again with the server's own
functions and finds what the server found."""

from __future__ import annotations

import random
import uuid

from domain import games as registry
from domain.audit import rerun
from tests.api.conftest import Player
from tests.api.test_audit_refuses import audit
from tests.verifier import tampering


def _summary(player, game_id):
    return player.get(f"/v1/games/{game_id}").json


def _play(service, game_id, holders, rng, until=lambda summary: False, steps=3000):
    """Bots move through the bot job, players by random legal commands,
    until the game is not active or ``until(summary)``."""
    anyone = next(iter(holders.values()))
    gid = uuid.UUID(game_id)
    for _ in range(steps):
        summary = _summary(anyone, game_id)
        if summary["status"] != "active" or until(summary):
            return summary
        if service.bots.play_bots(gid, summary["version"]):
            continue
        player = holders[sorted(summary["to_act"])[0]]
        answer = player.act(game_id, rng.choice(player.legal(game_id)))
        assert answer.status_code == 200, answer.json
    raise AssertionError("the game did not end")


def _rerun_stored(service, game_id):
    records = service.store.read_stream(f"game-{game_id}")
    rules, _ = service.load(uuid.UUID(game_id))
    return rerun(rules, [{"type": r.type, "schema_version": r.schema_version, "data": r.data, "metadata": r.metadata}
                         for r in records], secret_seed=service.seed(uuid.UUID(game_id)))


def test_a_game_through_invites_leaving_bots_abandonment_replacement_resignation_and_rematch_audits_verified(
        client, service, tmp_path):
    tag = uuid.uuid4().hex[:6]
    ada, bob, cy, dan, eve = (Player(client, f"life-{tag}-{name}") for name in ("ada", "bob", "cy", "dan", "eve"))
    rng = random.Random(4)
    game_id = ada.create("cronberg", {"players": 4, "rounds": 1, "visibility": "private", "abandon_after": 1,
                                      "turn_seconds": 3600, "deadline_per_seat": False, "bots": {"p4": "random"}})
    for player in (bob, cy):
        code = ada.post(f"/v1/games/{game_id}/invites", json={}).json["code"]
        assert player.post(f"/v1/games/{game_id}/invites/redeem", json={"code": code}).status_code == 200
    assert cy.post(f"/v1/games/{game_id}/leave").status_code == 200
    code = ada.post(f"/v1/games/{game_id}/invites", json={"seat": "p3"}).json["code"]
    assert dan.post(f"/v1/games/{game_id}/invites/redeem", json={"code": code}).status_code == 200
    assert ada.post(f"/v1/games/{game_id}/start").status_code == 200
    holders = {"p1": ada, "p2": bob, "p3": dan}

    summary = _play(service, game_id, holders, rng, until=lambda s: s["to_act"] == ["p2"])
    assert service.fire_deadline(uuid.UUID(game_id), summary["version"])  # bob's one timeout abandons p2
    assert _summary(ada, game_id)["bots"].get("p2")
    code = ada.post(f"/v1/games/{game_id}/invites", json={"seat": "p2"}).json["code"]
    assert eve.post(f"/v1/games/{game_id}/invites/redeem", json={"code": code}).status_code == 200
    holders["p2"] = eve
    _play(service, game_id, holders, rng, until=lambda s: "p3" not in s["to_act"])
    assert dan.post(f"/v1/games/{game_id}/resign").status_code == 200  # a bot plays p3 on
    assert _play(service, game_id, holders, rng)["status"] == "scoring"
    assert service.score(uuid.UUID(game_id))
    rematch = ada.post(f"/v1/games/{game_id}/rematch")
    assert rematch.status_code == 201, rematch.json

    export = tampering.read(ada.get(f"/v1/games/{game_id}/export").get_data(as_text=True))  # private: its players'
    events, _ = tampering.split(export)
    kinds = {line["metadata"]["command"]["type"] for line in events if line["metadata"].get("lifecycle")}
    assert {"IssueInvite", "RedeemInvite", "AbandonSeat", "ResignSeat", "CreateRematch"} <= kinds
    assert [line["type"] for line in events[-2:]] == ["GameScored", "RematchCreated"]
    status, report = audit(tampering.write(export), tmp_path)
    assert (status, report[-1]) == (0, "VERIFIED"), "\n".join(report)
    assert ada.get(f"/v1/games/{game_id}/audit").json["rerun"]["ok"] is True

    # The rematch: its seats kept for their players, then aborted before anyone acted.
    new_id = rematch.json["id"]
    for player in (eve, dan):
        assert player.post(f"/v1/games/{new_id}/join", json={}).status_code == 200
    assert ada.post(f"/v1/games/{new_id}/start").status_code == 200
    assert ada.post(f"/v1/games/{new_id}/abort").status_code == 200
    result = _rerun_stored(service, new_id)
    assert result.ok, result.problems


def test_a_game_with_time_banks_audits_verified(client, service, tmp_path):
    tag = uuid.uuid4().hex[:6]
    ada, bob = Player(client, f"clock-{tag}-ada"), Player(client, f"clock-{tag}-bob")
    game_id = ada.create("the-coil", {"players": 2, "time_bank_seconds": 3600, "turn_seconds": 600})
    assert bob.post(f"/v1/games/{game_id}/join", json={}).status_code == 200
    assert ada.post(f"/v1/games/{game_id}/start").status_code == 200
    rng = random.Random(2)
    _play(service, game_id, {"p1": ada, "p2": bob}, rng, until=lambda s: s["version"] > 20)
    assert bob.post(f"/v1/games/{game_id}/resign").status_code == 200
    assert service.score(uuid.UUID(game_id))
    export = tampering.read(client.get(f"/v1/games/{game_id}/export").get_data(as_text=True))
    assert any(line["type"] == "ClocksComputed" for line in export)
    status, report = audit(tampering.write(export), tmp_path)
    assert (status, report[-1]) == (0, "VERIFIED"), "\n".join(report)


def test_an_abandonment_the_timeouts_do_not_justify_is_refused(client, service, tmp_path):
    tag = uuid.uuid4().hex[:6]
    ada, bob = Player(client, f"aband-{tag}-ada"), Player(client, f"aband-{tag}-bob")
    game_id = ada.create("cronberg", {"players": 2, "rounds": 1, "abandon_after": 1, "turn_seconds": 3600,
                                      "deadline_per_seat": False})
    assert bob.post(f"/v1/games/{game_id}/join", json={}).status_code == 200
    assert ada.post(f"/v1/games/{game_id}/start").status_code == 200
    rng = random.Random(9)
    summary = _play(service, game_id, {"p1": ada, "p2": bob}, rng, until=lambda s: s["version"] > 6)
    assert service.fire_deadline(uuid.UUID(game_id), summary["version"])
    assert _play(service, game_id, {"p1": ada, "p2": bob}, rng)["status"] == "scoring"
    assert service.score(uuid.UUID(game_id))
    events, _ = tampering.split(tampering.read(client.get(f"/v1/games/{game_id}/export").get_data(as_text=True)))
    abandoned = next(e for e in events if e["type"] == "SeatAbandoned")
    # abandon_after raised to 2 in GameCreated: one timeout no longer abandons the seat.
    events[0]["data"]["options"]["abandon_after"] = 2
    status, report = audit(tampering.write(tampering.rechain(events)), tmp_path)
    assert status == 1 and report[0].startswith("hash chain: ok")
    assert any(f"at version {abandoned['version']}:" in line and "abandon" in line for line in report), report
    assert registry.get("cronberg") is not None
