import json
import random
import uuid

import pytest

from api.audit.offline_audit import audit_lines
from eventstore.chain import canonical_json, event_document, link_hash
from tests.api.conftest import play_until_over, started_game
from types import SimpleNamespace


def _finish(app, service, seed=11):
    from tests.api.conftest import Player

    client = app.test_client()
    ada, bob = Player(client, "auditor-a"), Player(client, "auditor-b")
    game_id = started_game([ada, bob])
    play_until_over([ada, bob], game_id, random.Random(seed))
    service.score(uuid.UUID(game_id))
    return game_id, ada


@pytest.fixture(scope="module")
def finished_game(app, service):
    """Read-only: tests that tamper with a game finish their own."""
    return _finish(app, service)


def test_the_audit_of_a_running_game_checks_the_chain_but_keeps_the_seed(players, client):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    audit = client.get(f"/v1/games/{game_id}/audit").json
    assert audit["chain"]["ok"] is True and audit["chain"]["checked"] == audit["version"]
    assert audit["seed"] is None and audit["log"] is None and audit["rerun"] is None


def test_the_audit_of_a_finished_game_reruns_every_decision_from_the_seed(finished_game, client):
    game_id, _ = finished_game
    audit = client.get(f"/v1/games/{game_id}/audit").json
    assert audit["status"] == "finished"
    assert audit["chain"]["ok"] is True
    assert audit["rerun"] == {"ok": True, "batches": audit["rerun"]["batches"], "problems": []}
    assert audit["rerun"]["batches"] > 5
    assert len(audit["log"]) == audit["version"]


def test_a_running_game_cannot_be_exported(players, client):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    assert client.get(f"/v1/games/{game_id}/export").status_code == 409


def _export(client, game_id) -> list[str]:
    response = client.get(f"/v1/games/{game_id}/export")
    assert response.status_code == 200
    assert response.mimetype == "application/x-ndjson"
    return response.get_data(as_text=True).splitlines()


def test_an_exported_game_verifies_offline(finished_game, client):
    ok, report = audit_lines(_export(client, finished_game[0]))
    assert ok, report


def test_offline_audit_catches_an_edited_event(finished_game, client):
    lines = _export(client, finished_game[0])
    entry = json.loads(lines[5])
    entry["metadata"]["actor"] = "someone-else"
    lines[5] = json.dumps(entry)
    ok, report = audit_lines(lines)
    assert not ok and "BROKEN at version 6" in report[0]


def test_offline_audit_catches_a_forged_shuffle_even_with_a_rehashed_chain(finished_game, client, service):
    *lines, head = [json.loads(line) for line in _export(client, finished_game[0])]
    assert set(head) == {"head"}
    setup = next(i for i, e in enumerate(lines) if e["type"] not in ("GameCreated", "SeatTaken", "PlayersSeated"))
    forged = json.loads(json.dumps(lines[setup]["data"]))
    stack_key = next(k for k, v in forged.items() if isinstance(v, list) and len(v) > 1)
    forged[stack_key] = list(reversed(forged[stack_key]))
    lines[setup]["data"] = forged
    previous = None
    for entry in lines:  # an evil server re-hashes the whole chain
        entry["hash"] = link_hash(previous, canonical_json(event_document(SimpleNamespace(**entry))))
        previous = entry["hash"]
    # ... and signs the new head with its own key, which it holds
    head = {"head": service.heads.signed_head(uuid.UUID(finished_game[0]), lines[-1]["version"], previous)}
    ok, report = audit_lines([json.dumps(e) for e in [*lines, head]])
    assert not ok
    assert report[0].startswith("hash chain: ok")
    assert any(line.startswith("signed head: ok") for line in report)
    assert any("not what the command gives" in line for line in report)


def test_the_audit_names_a_row_tampered_with_in_the_database(app, client, service):
    game_id, _ = _finish(app, service, seed=12)
    with service.pool.connection() as conn, conn.transaction():
        conn.execute("set local session_replication_role = replica")
        conn.execute(
            "update events set data = jsonb_set(data, '{tampered}', 'true') where stream_id = %s and version = 3",
            (f"game-{game_id}",),
        )
    chain = client.get(f"/v1/games/{game_id}/audit").json["chain"]
    assert chain["ok"] is False and chain["broken_at"] == 3


def test_boardlog_audit_verifies_an_exported_file_from_the_command_line(finished_game, client, tmp_path):
    import subprocess
    import sys

    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(_export(client, finished_game[0])) + "\n")
    done = subprocess.run([sys.executable, "-m", "api.processes.cli", "audit", str(path)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith("VERIFIED")

    lines = path.read_text().splitlines()
    lines[3] = lines[3].replace('"p2"', '"p1"', 1) if '"p2"' in lines[3] else lines[3].replace("}", ', "x": 1}', 1)
    path.write_text("\n".join(lines) + "\n")
    done = subprocess.run([sys.executable, "-m", "api.processes.cli", "audit", str(path)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 1
    assert "NOT VERIFIED" in done.stdout
