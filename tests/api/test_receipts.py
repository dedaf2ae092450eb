"""Receipts (openapi/verifying-a-game.md, section 6): every door that shows a
version carries the signed chain head after it, which verifies with a key
GET /v1/keys serves, names the hash stored at that version, and still
verifies once its key is retired."""

from __future__ import annotations

import random
import uuid

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from api.processes import cli
from api.service.games import stream_of
from domain import session as sessions
from eventstore.chain import canonical_json
from tests.api.conftest import started_game
from tests.api.test_salts import play_with_bots
from tests.support.sse import parse
from tests.support.seeds import TEST_SEEDS


def _keys(client) -> dict:
    response = client.get("/v1/keys")
    assert response.status_code == 200
    return {key["key_id"]: key for key in response.json["keys"]}


def _holds(receipt: dict, keys: dict) -> bool:
    """The check written from the specification, not with boardlog's helpers."""
    message = ("boardlog-head\n" + canonical_json(
        {"hash": receipt["hash"], "stream_id": receipt["stream_id"], "version": receipt["version"]})).encode()
    key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(keys[receipt["key_id"]]["public_key"]))
    try:
        key.verify(bytes.fromhex(receipt["signature"]), message)
    except Exception:
        return False
    return True


def _stored(service, game_id) -> dict:
    return {r.version: r.hash for r in service.store.read_stream(stream_of(uuid.UUID(str(game_id))))}


def test_every_door_gives_a_receipt_of_its_version_that_verifies_with_a_served_key(players, client, service):
    ada, bob, cy = players(3)
    game_id = ada.create("cronberg", {"players": 3})
    given = []  # (door, version the door shows, receipt)
    created = client.get(f"/v1/games/{game_id}").json
    for player in (bob, cy):
        answer = player.post(f"/v1/games/{game_id}/join", json={}).json
        given.append(("join", answer["version"], answer["receipt"]))
    answer = ada.post(f"/v1/games/{game_id}/start").json
    given.append(("start", answer["version"], answer["receipt"]))
    rng = random.Random(5)
    for _ in range(3):
        view = ada.view(game_id).json
        given.append(("view", view["version"], view["receipt"]))
        acting = next(p for p in (ada, bob, cy) if p.view(game_id).json["seat"] in view["to_act"])
        answer = acting.act(game_id, rng.choice(acting.legal(game_id))).json
        given.append(("command", answer["version"], answer["receipt"]))
        past = bob.view(game_id, query_string={"at": answer["version"]}).json
        given.append(("view ?at=", past["version"], past["receipt"]))
    answer = cy.post(f"/v1/games/{game_id}/resign").json
    given.append(("resign", answer["version"], answer["receipt"]))
    for event in client.get(f"/v1/games/{game_id}/events", query_string={"limit": 1000}).json["events"]:
        given.append(("feed", event["version"], event["receipt"]))
    messages, _, _ = parse(bob.get(f"/v1/games/{game_id}/stream?after=0").get_data(as_text=True))
    for message in messages:
        if message.event != "shutdown":
            data = message.json
            given.append((f"stream {message.event}", data["version"], data["receipt"]))
    keys, stored = _keys(client), _stored(service, game_id)
    assert {door for door, *_ in given} >= {"join", "start", "view", "command", "view ?at=", "resign", "feed",
                                              "stream message", "stream view"}
    assert created["version"] == 2
    for door, version, receipt in given:
        assert receipt["stream_id"] == f"game-{game_id}" and receipt["version"] == version, door
        assert receipt["hash"] == stored[version], door
        assert _holds(receipt, keys), door
    # A receipt that says another head does not verify: the check can fail.
    door, version, receipt = given[-1]
    assert not _holds({**receipt, "version": version - 1}, keys)


def test_the_answer_of_a_new_game_and_of_its_rematch_carry_their_first_head(players, client, service):
    ada, bob = players(2)
    answer = ada.post("/v1/games", json={"game": "cronberg", "options": {"players": 2}}).json
    assert answer["receipt"]["hash"] == _stored(service, answer["id"])[answer["version"]]
    game_id = answer["id"]
    assert bob.post(f"/v1/games/{game_id}/join", json={}).status_code == 200
    ada.post(f"/v1/games/{game_id}/start")
    play_with_bots(service, [ada, bob], uuid.UUID(game_id), random.Random(2))
    service.score(uuid.UUID(game_id))
    rematch = ada.post(f"/v1/games/{game_id}/rematch").json
    assert rematch["receipt"]["stream_id"] == f"game-{rematch['id']}"
    assert rematch["receipt"]["hash"] == _stored(service, rematch["id"])[rematch["version"]]
    assert _holds(rematch["receipt"], _keys(client))


def test_a_retired_key_still_verifies_what_it_signed_and_the_new_key_signs_from_then_on(
        players, client, service, database_url, monkeypatch, capsys):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    last = lambda: ada.get(f"/v1/games/{game_id}/events").json["events"][-1]["receipt"]  # noqa: E731
    before = last()
    monkeypatch.setenv("DATABASE_URL", database_url)
    assert cli.main(["keys", "rotate"]) == 0
    assert "the current signing key is now" in capsys.readouterr().out
    service.signer._current = None  # as after refresh_seconds: a server picks the rotation up
    keys = _keys(client)
    after = last()  # (a view serialized before keeps its receipt: the retired key still verifies it)
    assert after["key_id"] != before["key_id"] and after["hash"] == before["hash"]
    assert keys[before["key_id"]]["retired_at"] is not None and keys[after["key_id"]]["retired_at"] is None
    assert [key for key in keys.values() if key["retired_at"] is None] == [keys[after["key_id"]]]
    assert _holds(before, keys) and _holds(after, keys)
    assert all(key["algorithm"] == "Ed25519" and len(key["public_key"]) == 64 for key in keys.values())
    assert cli.main(["keys", "list"]) == 0
    import json

    listed = json.loads(capsys.readouterr().out)["keys"]
    assert {key["key_id"]: key["public_key"] for key in listed} == {k: v["public_key"] for k, v in keys.items()}


def test_a_running_game_recorded_before_receipts_shows_none_until_it_is_over(players, client, service, monkeypatch):
    ada, bob = players(2)
    monkeypatch.setattr(sessions, "CHAIN_VERSION", 1)
    game_id = started_game([ada, bob])
    monkeypatch.undo()
    view = ada.view(game_id).json
    assert view["receipt"] is None
    assert all(event["receipt"] is None for event in ada.get(f"/v1/games/{game_id}/events").json["events"])
    play_with_bots(service, [ada, bob], uuid.UUID(game_id), random.Random(8))
    over = ada.view(game_id).json
    assert over["status"] != "active" and _holds(over["receipt"], _keys(client))
    assert _holds(ada.view(game_id, query_string={"at": view["version"]}).json["receipt"], _keys(client))


def test_an_operators_key_signs_and_is_served_but_its_private_half_stays_in_its_file(service, client, tmp_path):
    import pytest
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from api.service.receipts import Signer, SigningKeyError, key_id_of, raw_public

    private = Ed25519PrivateKey.generate()
    path = tmp_path / "boardlog.pem"
    path.write_bytes(private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    operator = Signer(service.pool, key_path=str(path))
    receipt = operator.receipt("game-x", 1, "ab" * 32)
    assert receipt["key_id"] == key_id_of(raw_public(private))
    keys = _keys(client)
    assert keys[receipt["key_id"]]["retired_at"] is None and _holds(receipt, keys)
    with service.pool.connection() as conn:
        assert conn.execute("select private_key from signing_keys where key_id = %s",
                            (receipt["key_id"],)).fetchone() == (None,)
    with pytest.raises(SigningKeyError, match="BOARDLOG_SIGNING_KEY"):
        operator.rotate()
    (tmp_path / "rsa.pem").write_text("not a key")
    with pytest.raises(SigningKeyError, match="cannot read"):
        Signer(service.pool, key_path=str(tmp_path / "rsa.pem")).current()
    # A server started without the file again retires the operator's key and makes its own.
    service.signer._current = None
    assert service.signer.current()[0] != receipt["key_id"]
    assert _keys(client)[receipt["key_id"]]["retired_at"] is not None


def test_another_process_knows_each_head_from_what_it_reads_and_what_it_appends(players, service):
    from api.service.games import GameService

    ada, bob = players(2)
    game_id = started_game([ada, bob])
    gid = uuid.UUID(game_id)
    other = GameService(service.store, signer=service.signer, snapshot_every=1, seeds=TEST_SEEDS)  # snapshots at every commit
    rules, session = other.load(gid)
    assert other.heads.receipt_for(gid, session)["hash"] == _stored(service, game_id)[session.version]
    seat = sorted(sessions.to_act(rules, session))[0]
    command = rules.legal_commands(session.state, seat)[0]
    answer = other.act(gid, session.players[seat], command.to_json(),
                       respond=lambda s, events, seat: {"receipt": other.heads.receipt_for(gid, s)})
    assert answer["receipt"]["hash"] == _stored(service, game_id)[answer["receipt"]["version"]]
    # A third process starts from the snapshot, with nothing after it to read: one row gives the head.
    third = GameService(service.store, signer=service.signer, seeds=TEST_SEEDS)
    _, latest = third.load(gid)
    assert third.heads.receipt_for(gid, latest)["hash"] == _stored(service, game_id)[latest.version]
