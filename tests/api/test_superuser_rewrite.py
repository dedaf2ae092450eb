"""The operator rewrites a finished game as the PostgreSQL superuser: the
events after some version are replaced by a resignation that never
happened, the chain is recomputed and the stream head moved. The chain
alone cannot tell (GET /audit says ok), but the receipts the players kept
from the answers they were given contradict the new history, and both
GET /audit?receipt= and `boardlog audit --receipts` name the first version
where it disagrees. Also: an export cut off at its end is refused offline,
and receipts that cannot be judged are named as such."""

from __future__ import annotations

import json
import random
import types
import uuid

import psycopg
import pytest

from api.audit import offline_audit
from api.service import decisions
from api.service.games import stream_of
from domain import session as sessions
from domain.lifecycle import decide as lifecycle
from eventstore.chain import canonical_json, link_hash
from eventstore.types import event_body
from tests.api.conftest import Player, started_game


def _play_keeping_receipts(client, service, seed: int):
    """A two-player Cronberg game played to its standings through the API;
    each player keeps the receipt of every answer they were given."""
    ada, bob = Player(client, f"rw-ada-{seed}"), Player(client, f"rw-bob-{seed}")
    game_id = started_game([ada, bob], options={"players": 2, "rounds": 2})
    kept = {ada.id: [], bob.id: []}
    rng = random.Random(seed)
    for _ in range(2000):
        view = ada.view(game_id).json
        if view["status"] != "active":
            break
        acting = ada if view["seat"] in view["to_act"] else bob
        answer = acting.act(game_id, rng.choice(acting.legal(game_id)))
        assert answer.status_code == 200, answer.json
        kept[acting.id].append(answer.json["receipt"])
    service.score(uuid.UUID(game_id))
    assert client.get(f"/v1/games/{game_id}").json["status"] == "finished"
    return uuid.UUID(game_id), ada, bob, kept


def _forged_tail(service, gid, at: int, resigner: str) -> list:
    """What the operator writes after version ``at``: ``resigner`` resigned
    there (decided as the server decides, with the game's seed and salts),
    then the standings."""
    rules, session = service.load_at(gid, at)
    seed = service.seed(gid)
    out = []
    for player, seat, command, events in (
        (resigner, session.seat_of(resigner), {"type": "ResignSeat"}, lifecycle.resign(rules, session, resigner, seed)),
        (sessions.SYSTEM, None, {"type": "ScoreGame"}, None),
    ):
        if events is None:
            events = lifecycle.scored(rules, session)
        meta = {**decisions.metadata(player, seat, command, session.version),
                **({"lifecycle": True} if command["type"] == "ResignSeat" else {})}
        after = sessions.replay(rules, events, session)
        metadata = decisions.with_notice_facts(events, [meta] * len(events), after, sessions.to_act(rules, session),
                                               sessions.to_act(rules, after))
        metadata = decisions.with_salts(metadata, after, seed, session.version + 1)
        out += [decisions.new_event(event, m) for event, m in zip(events, metadata)]
        session = after
    return out


def _rewrite_as_superuser(service, database_url: str, gid, at: int, forged) -> None:
    stream = stream_of(gid)
    previous = service.store.read_stream(stream, at, at)[0].hash
    with psycopg.connect(database_url) as conn, conn.transaction():
        conn.execute("set local session_replication_role = replica")  # the triggers that refuse DELETE sleep
        conn.execute("delete from events where stream_id = %s and version > %s", (stream, at))
        conn.execute("delete from snapshots where stream_id = %s", (stream,))
        for version, event in enumerate(forged, at + 1):
            previous = link_hash(previous, event_body(stream, event) + f',"version":{version}}}')
            conn.execute("insert into events (stream_id, version, event_id, type, schema_version, data, metadata, hash)"
                         " values (%s, %s, %s, %s, %s, %s, %s, %s)",
                         (stream, version, event.event_id, event.type, event.schema_version,
                          psycopg.types.json.Jsonb(event.data), psycopg.types.json.Jsonb(event.metadata),
                          bytes.fromhex(previous)))
        conn.execute("update streams set version = %s, last_hash = %s where stream_id = %s",
                     (at + len(forged), bytes.fromhex(previous), stream))
    # The operator restarts the server: nothing of the true game is left in memory.
    service.history.forget(gid)
    service.heads.forget_heads(gid, range(1, 100_000))


@pytest.fixture(scope="module")
def rewritten(app, service, database_url):
    client = app.test_client()
    gid, ada, bob, kept = _play_keeping_receipts(client, service, seed=31)
    true_end = client.get(f"/v1/games/{gid}").json["version"]
    at = sorted(r["version"] for r in kept[ada.id])[len(kept[ada.id]) // 3]  # a version ada was answered at
    _rewrite_as_superuser(service, database_url, gid, at, _forged_tail(service, gid, at, bob.id))
    return gid, ada, bob, kept, at, true_end


def _first_kept_after(kept, at: int) -> int:
    return min(r["version"] for receipts in kept.values() for r in receipts if r["version"] > at)


def test_the_rewritten_history_has_an_intact_chain_and_a_resignation_that_never_happened(rewritten, client, service):
    gid, ada, bob, kept, at, true_end = rewritten
    audit = client.get(f"/v1/games/{gid}/audit").json
    assert audit["chain"]["ok"] is True and audit["receipts"] is None
    types_after = [e["type"] for e in audit["log"][at:]]
    assert types_after[0] == "SeatResigned" and audit["log"][at]["data"]["player"] == bob.id
    assert audit["version"] == at + len(types_after) < true_end


def test_get_audit_with_the_players_receipts_names_the_first_version_where_the_history_disagrees(rewritten, client):
    gid, ada, bob, kept, at, _ = rewritten
    for player in (ada, bob):
        receipts = [f"{r['version']}:{r['hash']}" for r in kept[player.id]]
        audit = client.get(f"/v1/games/{gid}/audit", query_string={"receipt": receipts}).json
        first = _first_kept_after({player.id: kept[player.id]}, at)
        assert audit["chain"]["ok"] is True
        assert audit["receipts"]["ok"] is False and audit["receipts"]["disagrees_at"] == first, audit["receipts"]
        assert audit["receipts"]["agrees_up_to"] == max(r["version"] for r in kept[player.id] if r["version"] <= at)
        assert f"version {first}" in audit["receipts"]["reason"]
    # Signed receipts are checked as the server's, and say the same.
    signed = [f"{r['version']}:{r['hash']}:{r['key_id']}:{r['signature']}" for r in kept[ada.id]]
    audit = client.get(f"/v1/games/{gid}/audit", query_string={"receipt": signed}).json
    assert audit["receipts"]["disagrees_at"] == _first_kept_after({ada.id: kept[ada.id]}, at)
    # The receipts up to the rewrite agree: the check names a disagreement only where there is one.
    before = [f"{r['version']}:{r['hash']}" for r in kept[ada.id] if r["version"] <= at]
    assert client.get(f"/v1/games/{gid}/audit", query_string={"receipt": before}).json["receipts"] == {
        "ok": True, "checked": len(before), "disagrees_at": None, "agrees_up_to": at, "reason": None}


def _files(tmp_path, client, gid, receipts, lines=None):
    export = tmp_path / "game.jsonl"
    lines = client.get(f"/v1/games/{gid}/export").get_data(as_text=True).splitlines() if lines is None else lines
    export.write_text("\n".join(lines) + "\n")
    (tmp_path / "receipts.json").write_text(json.dumps(receipts))
    (tmp_path / "keys.json").write_text(json.dumps(client.get("/v1/keys").json))
    return types.SimpleNamespace(file=str(export), receipts=str(tmp_path / "receipts.json"),
                                 keys=str(tmp_path / "keys.json"))


def test_boardlog_audit_with_the_receipts_names_the_first_version_where_the_history_disagrees(
        rewritten, client, tmp_path, capsys):
    gid, ada, bob, kept, at, _ = rewritten
    args = _files(tmp_path, client, gid, kept[bob.id])
    assert offline_audit.main(args) == 1
    out = capsys.readouterr().out
    assert "hash chain: ok" in out and "signed head: ok" in out  # the operator signs the head it rewrote
    assert f"receipts: DISAGREE at version {_first_kept_after({bob.id: kept[bob.id]}, at)}" in out
    assert out.rstrip().endswith("NOT VERIFIED")
    # Without receipts nothing outside the database contradicts the operator, who
    # decided the forgery as the server decides: it verifies.
    assert offline_audit.main(types.SimpleNamespace(file=args.file, receipts=None, keys=args.keys)) == 0
    assert capsys.readouterr().out.rstrip().endswith("\nVERIFIED")


def test_a_true_game_audits_verified_against_its_receipts(app, service, client, tmp_path, capsys):
    gid, ada, bob, kept = _play_keeping_receipts(app.test_client(), service, seed=32)
    assert offline_audit.main(_files(tmp_path, client, gid, kept[ada.id] + kept[bob.id])) == 0, capsys.readouterr()
    out = capsys.readouterr().out
    assert "salts: ok" in out and "signed head: ok" in out and "receipts: ok" in out
    assert out.rstrip().endswith("VERIFIED")


@pytest.fixture(scope="module")
def honest(app, service):
    return _play_keeping_receipts(app.test_client(), service, seed=33)


def test_an_export_cut_off_at_its_end_is_refused_offline(honest, client, tmp_path, capsys):
    gid, ada, bob, kept = honest
    lines = client.get(f"/v1/games/{gid}/export").get_data(as_text=True).splitlines()
    assert json.loads(lines[-1]).keys() == {"head"}
    for cut, says in ((lines[:-1], "MISSING: the export is cut off or unsigned"),
                      (lines[:-2], "MISSING: the export is cut off or unsigned"),
                      (lines[:-2] + lines[-1:], "not of the last event")):
        args = _files(tmp_path, client, gid, kept[ada.id], cut)
        args.receipts = None
        assert offline_audit.main(args) == 1
        out = capsys.readouterr().out
        assert says in out and out.rstrip().endswith("NOT VERIFIED"), out


def _bad(tmp_path, client, gid, receipts, capsys) -> str:
    assert offline_audit.main(_files(tmp_path, client, gid, receipts)) == 2
    captured = capsys.readouterr()
    assert "VERIFIED" not in captured.out
    return captured.err


def test_receipts_that_cannot_be_judged_are_named_offline_and_by_get_audit(honest, app, service, client, tmp_path,
                                                                             capsys):
    gid, ada, bob, kept = honest
    other, *_ = _play_keeping_receipts(app.test_client(), service, seed=34)
    other_receipt = client.get(f"/v1/games/{other}/view").json["receipt"]
    mine = kept[ada.id][0]
    unknown = {**mine, "key_id": "0123456789abcdef"}
    forged = {**mine, "signature": "00" * 64}
    assert "receipt 1 has no hash" in _bad(tmp_path, client, gid, [{**mine, "hash": "xyz"}], capsys)
    assert f"is of game-{other}, not of this game" in _bad(tmp_path, client, gid, [other_receipt], capsys)
    assert "signed by key 0123456789abcdef, which is not one of the server's keys" in _bad(
        tmp_path, client, gid, [unknown], capsys)
    assert "signature does not hold" in _bad(tmp_path, client, gid, [forged], capsys)
    assert "not a non-empty JSON list" in _bad(tmp_path, client, gid, {"receipts": []}, capsys)

    def problem(*texts):
        response = client.get(f"/v1/games/{gid}/audit", query_string={"receipt": list(texts)})
        assert response.status_code == 422 and response.json["type"].endswith("/receipt-invalid"), response.json
        return response.json["detail"]

    assert "is not <version>:<hash>" in problem("12:nothex")
    assert "not one of the server's keys" in problem(
        f"{mine['version']}:{mine['hash']}:{unknown['key_id']}:{mine['signature']}")
    assert "does not hold" in problem(
        f"{other_receipt['version']}:{other_receipt['hash']}:{other_receipt['key_id']}:{other_receipt['signature']}")


def test_receipts_keep_their_public_key_so_a_replaced_key_list_does_not_silence_them(rewritten, client, tmp_path,
                                                                                       capsys):
    """The operator rewrote the game and now serves a key list without the
    key that signed the players' receipts. A receipt carries its public key,
    so it is still checked, and the forged history is NOT VERIFIED (not
    "cannot judge", which a frontend might read as nothing to say)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from api.service.receipts import key_id_of, raw_public

    gid, ada, bob, kept, at, _ = rewritten
    assert all(r["public_key"] and key_id_of(bytes.fromhex(r["public_key"])) == r["key_id"] for r in kept[ada.id])
    args = _files(tmp_path, client, gid, kept[ada.id])
    other = raw_public(Ed25519PrivateKey.generate())
    (tmp_path / "keys.json").write_text(json.dumps({"keys": [
        {"key_id": key_id_of(other), "algorithm": "Ed25519", "public_key": other.hex()}]}))
    assert offline_audit.main(types.SimpleNamespace(file=args.file, receipts=args.receipts, keys=None)) == 1
    out = capsys.readouterr().out
    assert f"receipts: DISAGREE at version {_first_kept_after({ada.id: kept[ada.id]}, at)}" in out
    assert "the public key each carries" not in out  # the export's head key signed them: listed
    assert offline_audit.main(args) == 1, "with the replaced list, the receipts still speak"
    out = capsys.readouterr().out
    assert "receipts: DISAGREE" in out and "the public key each carries" in out
    assert out.rstrip().endswith("NOT VERIFIED")
