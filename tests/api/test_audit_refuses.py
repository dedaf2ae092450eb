"""`boardlog audit` refuses what the live server refuses: for each of the
five games, a game played through the real service and exported verifies,
and each tampered copy of it (tests/verifier/tampering.py, the hash chain
recomputed after the edit) is refused with a sentence naming the version."""

from __future__ import annotations

import random
import uuid
from types import SimpleNamespace

import pytest
from psycopg.types.json import Jsonb

from api.audit import offline_audit
from tests.api.conftest import Player, started_game
from tests.support.hosted import HOSTED, seats_of, short
from tests.verifier import tampering

# Every hosted game at two seats; the seat that resigns, which ends a two-seat game.
GAMES = {game: (short(game, 2), seats_of(game, short(game, 2))[-1]) for game in HOSTED}


def play_and_resign(client, service, game: str, seed: int = 5) -> str:
    """A game with a deadline: some random moves, one deadline that passes,
    then a resignation ends it; scored. Its id."""
    options, resigner = GAMES[game]
    tag = uuid.uuid4().hex[:6]
    players = [Player(client, f"refuser-{tag}-{n}") for n in (1, 2)]
    game_id = started_game(players, game, {**options, "turn_seconds": 3600, "deadline_per_seat": False})
    rng = random.Random(seed)
    for step in range(8):
        views = [(player, player.view(game_id).json) for player in players]
        if views[0][1]["status"] != "active":
            break
        if step == 2:
            assert service.fire_deadline(uuid.UUID(game_id), views[0][1]["version"])
            continue
        player = rng.choice([p for p, view in views if view["seat"] in view["to_act"]])
        assert player.act(game_id, rng.choice(player.legal(game_id))).status_code == 200
    holder = next(p for p in players if p.view(game_id).json["seat"] == resigner)
    answer = holder.post(f"/v1/games/{game_id}/resign")
    assert answer.status_code == 200, answer.json
    for _ in range(500):  # should a resignation hand the seat to a bot, play on to the end
        if players[0].view(game_id).json["status"] != "active":
            break
        version = players[0].view(game_id).json["version"]
        if not service.bots.play_bots(uuid.UUID(game_id), version):
            other = next(p for p in players if p is not holder)
            assert other.act(game_id, rng.choice(other.legal(game_id))).status_code == 200
    assert service.score(uuid.UUID(game_id))
    return game_id


@pytest.fixture(scope="module")
def exports(app, service):
    client = app.test_client()
    return {game: client.get(f"/v1/games/{play_and_resign(client, service, game)}/export").get_data(as_text=True)
            for game in GAMES}


def audit(text: str, tmp_path) -> tuple[int, list[str]]:
    """``boardlog audit FILE``, in this process: its exit status and printed lines."""
    import contextlib
    import io

    path = tmp_path / "game.jsonl"
    path.write_text(text)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = offline_audit.main(SimpleNamespace(file=str(path)))
    return status, out.getvalue().splitlines()


@pytest.mark.parametrize("game", GAMES)
def test_a_game_ended_by_a_resignation_audits_verified_and_its_standings_are_printed(exports, game, tmp_path):
    status, report = audit(exports[game], tmp_path)
    assert (status, report[-1]) == (0, "VERIFIED"), "\n".join(report)
    after = report[report.index("standings checked:") + 1:]
    printed = [line for line in after if line.startswith("  ") and line.strip()[:1].isdigit()]
    assert len(printed) == 2 and any("resigned" in line for line in printed), printed


@pytest.mark.parametrize("case", tampering.CASES, ids=[name for name, _ in tampering.CASES])
@pytest.mark.parametrize("game", GAMES)
def test_boardlog_audit_refuses_a_tampered_export_naming_the_version(exports, game, case, tmp_path):
    tamper = case[1]
    tampered, version = tamper(tampering.read(exports[game]))
    status, report = audit(tampering.write(tampered), tmp_path)
    assert (status, report[-1]) == (1, "NOT VERIFIED"), "\n".join(report)
    assert report[0].startswith("hash chain: ok"), "the chain was recomputed: only the audit's rules may catch it"
    assert any(f"at version {version}:" in line for line in report), "\n".join(report)


def store_instead(service, game_id: str, lines: list[dict]) -> None:
    """What a PostgreSQL superuser can do: the game's rows replaced by
    ``lines`` (triggers off), the stream head moved to their last link."""
    stream = f"game-{game_id}"
    events = [line for line in lines if "version" in line]
    with service.pool.connection() as conn, conn.transaction():
        conn.execute("set local session_replication_role = replica")
        conn.execute("delete from events where stream_id = %s", (stream,))
        for event in events:
            conn.execute(
                "insert into events (stream_id, version, event_id, type, schema_version, data, metadata, recorded_at,"
                " hash) values (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                (stream, event["version"], event["event_id"], event["type"], event["schema_version"],
                 Jsonb(event["data"]), Jsonb(event["metadata"]), event["recorded_at"], bytes.fromhex(event["hash"])))
        conn.execute("update streams set version = %s, last_hash = %s where stream_id = %s",
                     (len(events), bytes.fromhex(events[-1]["hash"]), stream))
    service.history.forget(uuid.UUID(game_id))  # this process's copy of the game, as a restart would drop it


@pytest.mark.parametrize("case", tampering.CASES, ids=[name for name, _ in tampering.CASES])
@pytest.mark.parametrize("game", GAMES)
def test_the_api_audit_reports_what_boardlog_audit_reports_of_a_game_tampered_with_in_postgresql(
        app, service, game, case, tmp_path):
    tamper = case[1]
    client = app.test_client()
    game_id = play_and_resign(client, service, game, seed=6)
    tampered, version = tamper(tampering.read(client.get(f"/v1/games/{game_id}/export").get_data(as_text=True)))
    store_instead(service, game_id, tampered)
    audit_answer = client.get(f"/v1/games/{game_id}/audit")
    assert audit_answer.status_code == 200, audit_answer.json
    answer = audit_answer.json
    assert answer["chain"]["ok"] is True and answer["rerun"]["ok"] is False
    assert any(f"at version {version}:" in problem for problem in answer["rerun"]["problems"])
    _, report = audit(tampering.write(tampered), tmp_path)
    assert answer["rerun"]["problems"] == [line.removeprefix("  - ") for line in report if line.startswith("  - ")]


def test_the_api_audit_gives_the_standings_it_checked_with_who_held_each_seat(exports, app, service):
    client = app.test_client()
    game_id = play_and_resign(client, service, "cronberg", seed=7)
    answer = client.get(f"/v1/games/{game_id}/audit").json
    assert answer["rerun"]["ok"] is True, answer["rerun"]
    seated = answer["log"][-1]["metadata"]["seated"]
    assert sorted((s["seat"], s["player"]) for s in answer["standings"]) == sorted(seated.items())
    assert [s["detail"].get("resigned", False) for s in answer["standings"]].count(True) == 1


def test_a_game_whose_standings_are_not_recorded_yet_is_not_exported(app, players):
    ada, bob = players(2)
    game_id = started_game([ada, bob], "cronberg", {"players": 2, "rounds": 1})
    assert ada.post(f"/v1/games/{game_id}/resign").status_code == 200
    assert ada.view(game_id).json["status"] == "scoring"
    answer = ada.get(f"/v1/games/{game_id}/export")
    assert answer.status_code == 409 and answer.json["type"].endswith("/game-not-over")
    assert "standings" in answer.json["detail"]
