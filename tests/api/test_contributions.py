"""Randomness version 2 through the real service: contributions in the lobby,
draw lists in every decision's metadata, and re-runs that check them
(openapi/verifying-a-game.md, sections 4.2 to 4.4)."""

from __future__ import annotations

import json
import random
import uuid
from types import SimpleNamespace

import pytest

from api.audit.offline_audit import audit_lines, audit_records, read_export
from api.service.seeds import FixedSeeds
from domain import games, randomness
from domain.engine import UnreadableHistory
from eventstore.chain import canonical_json, event_document, link_hash
from tests.api.conftest import play_until_over
from tests.api.test_whole_games import options_for


def _put(player, game_id, contribution):
    return player.client.put(f"/v1/games/{game_id}/contribution", json={"contribution": contribution},
                             headers=player.auth)


def _lobby(players, game="cronberg", options=None) -> str:
    host, *others = players
    game_id = host.create(game, options if options is not None else {"players": len(players)})
    for player in others:
        assert player.post(f"/v1/games/{game_id}/join", json={}).status_code == 200
    return game_id


def _start(host, game_id):
    response = host.post(f"/v1/games/{game_id}/start")
    assert response.status_code == 200, response.json
    return response


def _records(service, game_id):
    return service.store.read_stream(f"game-{game_id}")


def _decisions_draws(records):
    """(decided_at, seat, draws) of every event that lists draws."""
    return [(r.metadata["decided_at"], r.metadata.get("seat"), r.metadata["draws"])
            for r in records if r.metadata.get("draws")]


def _check_draw_lists(records, seed: bytes, contributions: dict) -> int:
    """What a verifier does with section 4.4 alone: each label's draws come
    from below(n) on that label's stream, and each label is the decision's."""
    key = randomness.key(seed, contributions)
    checked = 0
    for decided_at, seat, draws in _decisions_draws(records):
        for label, listed in draws.items():
            assert label in (f"game/{decided_at}", f"timeout/{decided_at}", f"bot/{seat}/{decided_at}")
            stream = randomness.Stream(key, label)
            assert [[n, stream.below(n)] for n, _ in listed] == listed
            checked += len(listed)
    return checked


def _export(client, game_id, head: bool = True) -> list[str]:
    """``head=False``: the event lines alone, without the signed head (the
    forgeries below are caught by the re-run, whether or not the server also
    signs them)."""
    response = client.get(f"/v1/games/{game_id}/export")
    assert response.status_code == 200
    lines = response.get_data(as_text=True).splitlines()
    return lines if head else [line for line in lines if not line.startswith('{"head"')]


def _rehashed(entries) -> list[str]:
    """What an evil server does after changing a line: the whole chain again."""
    previous = None
    for entry in entries:
        entry["hash"] = link_hash(previous, canonical_json(event_document(SimpleNamespace(**entry))))
        previous = entry["hash"]
    return [json.dumps(entry) for entry in entries]


def test_a_new_game_draws_under_randomness_version_2_and_lists_the_draws_of_its_start(players, service):
    ada, bob = players(2)
    game_id = _lobby([ada, bob])
    _start(ada, game_id)
    records = _records(service, game_id)
    assert records[0].type == "GameCreated" and records[0].data["randomness_version"] == 2
    start = [r for r in records if r.metadata["command"]["type"] == "StartGame"]
    draws = start[0].metadata["draws"]
    label = f"game/{start[0].metadata['decided_at']}"
    assert list(draws) == [label] and draws[label]
    assert all(r.metadata["draws"] == draws for r in start)  # every event of the decision lists them


def test_the_draw_list_of_a_decision_is_exactly_the_generators_output_for_its_label(players, service):
    ada, bob = players(2)
    game_id = _lobby([ada, bob], "runebound", options_for("runebound", 2))
    assert _put(ada, game_id, "c0ffee").status_code == 200
    _start(ada, game_id)
    play_until_over([ada, bob], game_id, random.Random(3), max_steps=20_000)
    records = _records(service, game_id)
    assert _check_draw_lists(records, service.seed(uuid.UUID(game_id)), {"p1": "c0ffee"}) > 0
    # the start's draws, and those of commands that drew (a turn rolls the movement die)
    assert len({decided_at for decided_at, _, _ in _decisions_draws(records)}) > 1


@pytest.mark.parametrize("name", sorted(games.REGISTRY))
def test_a_whole_game_with_a_contribution_from_every_seat_plays_to_the_end_and_audits(players, client, service, name):
    seated = players(2)
    options = options_for(name, 2)
    game_id = _lobby(seated, name, options)
    for n, player in enumerate(seated):
        response = _put(player, game_id, f"{n + 1:02x}" * (n + 8))
        assert response.status_code == 200, response.json
        assert response.json["status"] == "lobby"
    _start(seated[0], game_id)
    play_until_over(seated, game_id, random.Random(name), max_steps=20_000)
    service.score(uuid.UUID(game_id))
    records = _records(service, game_id)
    contributions = {r.data["seat"]: r.data["contribution"] for r in records if r.type == "SeedContributed"}
    assert len(contributions) == 2
    assert _check_draw_lists(records, service.seed(uuid.UUID(game_id)), contributions) > 0
    audit = client.get(f"/v1/games/{game_id}/audit").json
    assert audit["status"] == "finished" and audit["chain"]["ok"]
    assert audit["rerun"] == {"ok": True, "batches": audit["rerun"]["batches"], "problems": []}
    ok, report = audit_lines(_export(client, game_id))
    assert ok, report


def test_one_changed_contribution_changes_the_deal_of_the_same_seed(players, service, monkeypatch):
    seed, tables = bytes(range(32)), [players(2) for _ in range(3)]
    monkeypatch.setattr(service, "seeds", FixedSeeds(seed))  # every new game gets this seed
    deals = []
    for contribution, (ada, bob) in zip(("00", "01", "01"), tables):
        game_id = _lobby([ada, bob])
        assert _put(bob, game_id, contribution).status_code == 200
        _start(ada, game_id)
        records = _records(service, game_id)
        start = next(r for r in records if r.metadata["command"]["type"] == "StartGame")
        [draws] = start.metadata["draws"].values()
        deal = [(r.type, r.data) for r in records if r.metadata["command"]["type"] == "StartGame"
                and r.type != "PlayersSeated"]  # who sits where differs: other players
        deals.append((draws[0], deal))
    assert deals[0][0] != deals[1][0]  # the first draw already differs
    assert deals[0][1] != deals[1][1]
    assert deals[1] == deals[2]  # same seed, same contribution: the same deal


@pytest.mark.parametrize("contribution, why", [
    ("ab" * 65, "1 to 64 bytes"),
    ("xyz0", "written in hex"),
    ("abc", "written in hex"),
    ("", "1 to 64 bytes"),
    (1234, "Not a valid string"),
])
def test_a_malformed_contribution_is_refused_with_a_sentence_and_changes_nothing(players, service, contribution, why):
    ada, bob = players(2)
    game_id = _lobby([ada, bob])
    before = len(_records(service, game_id))
    response = _put(ada, game_id, contribution)
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    assert why in response.json["detail"], response.json
    assert len(_records(service, game_id)) == before


def test_contributions_are_fixed_before_the_start(players, service):
    ada, bob = players(2)
    game_id = _lobby([ada, bob])
    _start(ada, game_id)
    before = len(_records(service, game_id))
    response = _put(bob, game_id, "ff")
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    assert response.json["detail"].startswith("the game has started: contributions are fixed before the start")
    assert len(_records(service, game_id)) == before


def test_only_a_seated_player_contributes_and_only_once(players, service):
    ada, bob, eve = players(3)
    game_id = _lobby([ada, bob], options={"players": 3})
    response = _put(eve, game_id, "ee")
    assert response.status_code == 403 and response.json["type"].endswith("/seat-required")
    assert _put(bob, game_id, "AB").status_code == 200
    before = len(_records(service, game_id))
    assert _put(bob, game_id, "ab").status_code == 200  # the same contribution again: nothing new
    response = _put(bob, game_id, "cd")
    assert response.status_code == 409 and response.json["type"].endswith("/contribution-made")
    records = _records(service, game_id)
    assert len(records) == before
    assert [r.data for r in records if r.type == "SeedContributed"] == [{"seat": "p2", "contribution": "ab"}]


def _finished(players, service, contributions=("0a", "0b")) -> str:
    ada, bob = players(2)
    game_id = _lobby([ada, bob])
    for player, contribution in zip((ada, bob), contributions):
        assert _put(player, game_id, contribution).status_code == 200
    _start(ada, game_id)
    play_until_over([ada, bob], game_id, random.Random(8))
    service.score(uuid.UUID(game_id))
    return game_id


def test_the_rerun_refuses_a_forged_draw_list_even_with_a_rehashed_chain(players, client, service):
    entries = [json.loads(line) for line in _export(client, _finished(players, service), head=False)]
    for entry in entries:
        for listed in (entry["metadata"].get("draws") or {}).values():
            listed[0][1] = (listed[0][1] + 1) % listed[0][0] if listed[0][0] > 1 else listed[0][1]
    ok, report = audit_lines(_rehashed(entries))
    assert not ok and report[0].startswith("hash chain: ok")
    assert any("draws recorded" in line for line in report), report


def test_the_rerun_refuses_a_changed_contribution_even_with_a_rehashed_chain(players, client, service):
    entries = [json.loads(line) for line in _export(client, _finished(players, service), head=False)]
    contributed = next(e for e in entries if e["type"] == "SeedContributed")
    contributed["data"]["contribution"] = "ff"
    contributed["metadata"]["command"]["contribution"] = "ff"
    ok, report = audit_lines(_rehashed(entries))
    assert not ok and report[0].startswith("hash chain: ok")
    assert any("draws recorded" in line for line in report), report


def test_an_export_of_an_unknown_randomness_version_is_not_audited(players, client, service):
    entries = [json.loads(line) for line in _export(client, _finished(players, service), head=False)]
    entries[0]["data"]["randomness_version"] = 3
    with pytest.raises(UnreadableHistory, match="randomness version 3"):
        audit_records(read_export(_rehashed(entries)))


def test_an_export_of_an_unknown_chain_version_is_not_audited(players, client, service):
    entries = [json.loads(line) for line in _export(client, _finished(players, service), head=False)]
    entries[0]["data"]["chain_version"] = 3
    with pytest.raises(UnreadableHistory, match="chain version 3"):
        audit_records(read_export(_rehashed(entries)))


def test_timeouts_and_bots_list_their_own_labels_and_the_game_audits(players, client, service):
    [ada] = players(1)
    gid = service.create(ada.id, "cronberg", {"players": 2, "bots": {"p2": "random"}}, None)
    service.seat_life.contribute(gid, ada.id, "a1")
    service.start(gid, ada.id)
    for _ in range(500):
        rules, session = service.load(gid)
        if session.status != "active":
            break
        [seat] = sorted(rules.to_act(session.state))
        moved = service.bots.play_bots(gid, session.version) if session.life.plays(seat) else \
            service.fire_deadline(gid, session.version)  # ada lets every deadline pass
        assert moved
    service.score(gid)
    records = _records(service, gid)
    assert _check_draw_lists(records, service.seed(gid), {"p1": "a1"}) > 0
    labels = {label.rsplit("/", 1)[0] for _, _, draws in _decisions_draws(records) for label in draws}
    assert {"game", "timeout", "bot/p2"} <= labels
    audit = client.get(f"/v1/games/{gid}/audit").json
    assert audit["status"] == "finished" and audit["rerun"]["ok"], audit["rerun"]


def test_every_seat_sees_each_recorded_contribution_hashed_in_the_lobby_view_before_the_start(players):
    """A contributor refused by the server (its contribution never recorded)
    must be able to tell before he agrees to start: the view shows each
    seat's recorded contribution as the SHA-256 of its bytes, to every seat."""
    import hashlib

    ada, bob, cy = players(3)
    game_id = _lobby([ada, bob, cy])
    assert ada.view(game_id).json["contributions"] == {}
    sent = {"p1": "00ff" * 8, "p2": "c0ffee"}
    for player, contribution in ((ada, sent["p1"]), (bob, sent["p2"])):
        assert _put(player, game_id, contribution).status_code == 200
    expected = {seat: hashlib.sha256(bytes.fromhex(hex_)).hexdigest() for seat, hex_ in sent.items()}
    for player in (ada, bob, cy):
        assert player.view(game_id).json["contributions"] == expected, "cy sees that he has not contributed"
    _start(ada, game_id)
    assert cy.view(game_id).json["contributions"] == expected
