"""History that survives change, on a real PostgreSQL: games stored in older
shapes and under older rules are read, continued and audited under the rules
they were created with; what this installation lacks is a clear error; and
`boardlog check-history` finds every game the installed code no longer
replays as it was played."""

from __future__ import annotations

import dataclasses
import json
import random
import types
import uuid
from pathlib import Path

import psycopg
import pytest

from api.audit import history_check, offline_audit
from api.http.app import create_app
from api.service.games import GameService, stream_of
from domain import games as registry
from domain import session as sessions
from domain.games.cronberg import RULES as CRONBERG
from eventstore import NewEvent, PostgresEventStore, migrate
from eventstore.chain import canonical_json, event_document, link_hash
from eventstore.servers import temporary_database
from tests.api.conftest import Player, play_until_over, started_game
from tests.support.stored_games import golden_files, read_export, store_game
from tests.support.seeds import TEST_SEEDS


@pytest.fixture(scope="module")
def history(database_url):
    """A database of its own: check-history reads every game in it."""
    with temporary_database(database_url, prefix="boardlog_history") as url:
        migrate(url)
        store = PostgresEventStore.connect(url, min_size=1, max_size=4)
        service = GameService(store, seeds=TEST_SEEDS)
        app = create_app({"RATE_LIMIT_PER_MINUTE": 0}, service=service)
        yield types.SimpleNamespace(url=url, service=service, client=app.test_client())
        store.close()


def _players(client, count, name):
    return [Player(client, f"{name}-{i}") for i in range(count)]


def _old_shape_lobby(game: str, options: dict, seats: list[str]) -> list[dict]:
    """A lobby as the release before rules versions stored it: GameCreated
    at schema version 1, with neither rules_version nor data_files."""
    host = str(uuid.uuid4())
    meta = {"actor": host, "seat": None, "command": {"type": "CreateGame", "game": game, "seat": None}, "decided_at": 0}
    created = {"game": game, "options": options, "seats": seats, "host": host, "seed_sha256": ""}
    return [
        {"type": "GameCreated", "schema_version": 1, "data": created, "metadata": meta},
        {"type": "SeatTaken", "schema_version": 1, "data": {"seat": seats[0], "player": host}, "metadata": meta},
    ]


@pytest.fixture(scope="module")
def stored(history):
    """Games of every kind: played now (finished, running, in the lobby) and
    golden games stored as the earlier release stored them."""
    client, service = history.client, history.service
    rng = random.Random(14)
    finished = _players(client, 2, "finisher")
    finished_id = started_game(finished)
    play_until_over(finished, finished_id, rng)
    service.score(uuid.UUID(finished_id))
    running = _players(client, 3, "runner")
    running_id = started_game(running, "court-of-miracles", {"players": 3})
    for _ in range(6):
        for player in running:
            commands = player.legal(running_id)
            if commands:
                assert player.act(running_id, rng.choice(commands)).status_code == 200
    lobby = _players(client, 1, "lobbyist")[0]
    lobby_id = lobby.create("coronation", {"detective_seats": 2})
    golden = [store_game(service, read_export(path)) for path in golden_files()[::3]]
    return types.SimpleNamespace(finished=finished_id, running=running_id, lobby=lobby_id, golden=golden)


def test_check_history_passes_games_played_now_and_golden_games_stored_by_the_earlier_release(history, stored):
    report = history_check.check_history(history.url)
    assert [(g.stream_id, g.divergences) for g in report.divergent] == []
    streams = {g.stream_id: g for g in report.checked}
    assert {stream_of(stored.finished), stream_of(stored.running), stream_of(stored.lobby)} <= set(streams)
    assert {stream_of(gid) for gid in stored.golden} <= set(streams)
    assert streams[stream_of(stored.running)].status == "active" and streams[stream_of(stored.lobby)].status == "lobby"
    assert report.events == sum(g.events for g in report.checked) > 0


def test_golden_games_stored_by_the_earlier_release_are_viewed_and_audited_online_under_version_1(history, stored):
    for game_id in stored.golden:
        view = history.client.get(f"/v1/games/{game_id}/view").json
        assert view["status"] == "finished" and view["rules_version"] == 1
        assert history.client.get(f"/v1/games/{game_id}").json["rules_version"] == 1, "the summary says so too"
        audit = history.client.get(f"/v1/games/{game_id}/audit").json
        assert audit["chain"]["ok"] and audit["rerun"]["ok"], audit["rerun"]["problems"]


def test_check_history_in_parallel_processes_finds_the_same(history, stored):
    single = history_check.check_history(history.url, jobs=1)
    parallel = history_check.check_history(history.url, jobs=2)
    assert sorted((g.stream_id, g.status, g.events) for g in parallel.checked) == sorted(
        (g.stream_id, g.status, g.events) for g in single.checked)


def _balance_fixed_score(state):
    """A release that changed Cronberg version 1 in place, as in the issue:
    a 'balance fix' worth one more point per player."""
    return [dataclasses.replace(standing, score=standing.score + 1) for standing in CRONBERG.score(state)]


def test_check_history_reports_every_game_a_change_in_place_breaks_and_exits_non_zero(history, stored, monkeypatch,
                                                                                      capsys):
    monkeypatch.setitem(registry.VERSIONS["cronberg"], 1, dataclasses.replace(CRONBERG, score=_balance_fixed_score).at(1))
    report = history_check.check_history(history.url, game="cronberg")
    finished = [g for g in report.checked if g.status == "finished"]
    assert len(finished) >= 2 and all(g in report.divergent for g in finished)
    assert all(any("are not what the command gives" in d for d in g.divergences) for g in finished)
    monkeypatch.setenv("DATABASE_URL", history.url)
    assert history_check.main(types.SimpleNamespace(jobs=1, game="cronberg")) == 1
    out = capsys.readouterr().out
    assert "are not what the command gives" in out and f"{len(report.checked)} diverge" in out


def _moved_turns(state):
    """A release whose turn order changed: games rest elsewhere."""
    return frozenset(state.seats) if hasattr(state, "seats") else CRONBERG.to_act(state)


def test_check_history_reports_a_game_that_no_longer_rests_where_it_did(history, stored, monkeypatch):
    players = _players(history.client, 2, "mover")
    game_id = started_game(players)
    monkeypatch.setitem(registry.VERSIONS["cronberg"], 1, dataclasses.replace(CRONBERG, to_act=_moved_turns).at(1))
    report = history_check.check_history(history.url, game="cronberg")
    mine = next(g for g in report.checked if g.stream_id == stream_of(game_id))
    assert any("no longer rests where it did: to_act" in d for d in mine.divergences), mine.divergences


def test_a_game_stored_before_rules_versions_is_read_in_the_current_shape_and_continued_under_version_1(history):
    records = _old_shape_lobby("court-of-miracles", {"players": 2, "first_player": 0, "turn_seconds": None},
                               ["p1", "p2"])
    host_seed = b"h" * 32
    records[0]["data"]["seed_sha256"] = __import__("hashlib").sha256(host_seed).hexdigest()
    game_id = store_game(history.service, records, seed=host_seed)
    stored_rows = history.service.store.read_stream(stream_of(game_id))
    assert stored_rows[0].schema_version == 1 and "rules_version" not in stored_rows[0].data
    rules, session = history.service.load(game_id)
    assert rules.version == 1 and session.rules_version == 1

    guest = Player(history.client, "guest")
    assert guest.post(f"/v1/games/{game_id}/join", json={}).status_code == 200
    host_id = records[0]["data"]["host"]
    history.service.start(game_id, host_id)
    rules, session = history.service.load(game_id)
    assert rules.version == 1 and session.state.plot_any_moment is False, "continued under version 1"
    assert history.service.store.read_stream(stream_of(game_id))[0].data == records[0]["data"], "rows never change"
    view = guest.view(str(game_id))
    assert view.status_code == 200 and view.json["rules_version"] == 1


def test_the_catalogue_names_every_rules_version_and_a_new_game_gets_the_newest(history):
    rules = history.client.get("/v1/rules/court-of-miracles").json
    assert rules["rules_version"] == 2
    assert [v["version"] for v in rules["rules_versions"]] == [1, 2]
    assert "Plot card" in rules["rules_versions"][1]["change"]
    host = Player(history.client, "newest")
    game_id = host.create("court-of-miracles", {"players": 2})
    assert host.view(game_id).json["rules_version"] == 2
    assert host.get(f"/v1/games/{game_id}").json["rules_version"] == 2


def test_games_stored_before_summaries_showed_rules_versions_take_theirs_from_their_first_event(history):
    old = store_game(history.service, _old_shape_lobby("court-of-miracles", {"players": 2, "first_player": 0,
                                                                           "turn_seconds": None}, ["p1", "p2"]))
    new = Player(history.client, "backfilled").create("court-of-miracles", {"players": 2})
    backfill = (Path(__file__).parents[2] / "eventstore" / "migrations" / "0075_rules_version_in_summary.sql").read_text()
    with psycopg.connect(history.url, autocommit=True) as conn:
        conn.execute("update games set rules_version = 0 where id in (%s, %s)", (old, new))
        conn.execute(backfill.split(";")[1])  # the migration's update, as it ran on games stored before it
        found = dict(conn.execute("select id::text, rules_version from games where id in (%s, %s)", (old, new)))
    assert found == {str(old): 1, str(new): 2}


def _newer_release_lobby(service, version=9) -> uuid.UUID:
    created = sessions.create(registry.get("coronation"), str(uuid.uuid4()), {}, b"n" * 32, None)
    records = []
    for event in created:
        data = {k: v for k, v in event.to_json().items() if k != "type"}
        records.append({"type": event.type_name(), "schema_version": event.schema_version, "data": data,
                        "metadata": {"actor": created[0].host, "seat": None, "decided_at": 0,
                                     "command": {"type": "CreateGame"}}})
    records[0]["data"]["rules_version"] = version
    return store_game(service, records, rules=registry.get("coronation"))


def test_a_game_under_a_rules_version_this_installation_lacks_is_a_problem_naming_both_versions(history, stored):
    game_id = _newer_release_lobby(history.service)
    guest = Player(history.client, "newer-guest")
    for response in (*(guest.get(f"/v1/games/{game_id}{path}") for path in ("/view", "/audit", "/events")),
                     guest.post(f"/v1/games/{game_id}/join", json={})):
        path = response.request.path
        assert response.status_code == 501, (path, response.status_code)
        assert response.mimetype == "application/problem+json"
        assert response.json["type"].endswith("/rules-version-unknown")
        assert "coronation rules version 9" in response.json["detail"] and "newest 2" in response.json["detail"]
    report = history_check.check_history(history.url, game="coronation")
    mine = next(g for g in report.checked if g.stream_id == stream_of(game_id))
    assert mine.divergences and "rules version 9" in mine.divergences[0]


def _chained(records: list[dict]) -> list[dict]:
    """An export as a newer release would write it: its hash chain intact
    (a broken chain is a finding about the file, not about this installation)."""
    previous = None
    for record in records:
        record["hash"] = previous = link_hash(previous, canonical_json(event_document(types.SimpleNamespace(**record))))
    return records


def test_the_offline_audit_of_a_newer_export_names_both_versions_and_neither_verifies_nor_accuses(tmp_path, capsys):
    lines = golden_files("coronation")[0].read_text().splitlines()
    first = json.loads(lines[0])
    first["schema_version"], first["data"] = 2, {**first["data"], "rules_version": 3, "data_files": {}}
    path = tmp_path / "newer.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in _chained([first, *map(json.loads, lines[1:])])))
    assert offline_audit.main(types.SimpleNamespace(file=str(path))) == 2
    captured = capsys.readouterr()
    assert "NOT AUDITED" in captured.out and "VERIFIED" not in captured.out.replace("NOT AUDITED", "")
    assert "coronation rules version 3" in captured.err and "newest 2" in captured.err


def test_the_offline_audit_of_an_event_shape_without_upcaster_names_the_event(tmp_path, capsys):
    lines = golden_files("cronberg")[0].read_text().splitlines()
    records = [json.loads(line) for line in lines]
    records[5]["schema_version"] = 7
    path = tmp_path / "future-shape.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in _chained(records)))
    assert offline_audit.main(types.SimpleNamespace(file=str(path))) == 2
    assert f"{records[5]['type']} has schema version 7" in capsys.readouterr().err


def test_a_stored_event_of_a_type_the_installed_rules_lack_is_a_problem_naming_it(history):
    players = _players(history.client, 2, "teleporter")
    game_id = started_game(players)
    store = history.service.store
    version = store.stream_version(stream_of(uuid.UUID(game_id)))
    store.append(stream_of(uuid.UUID(game_id)), [NewEvent("Teleported", {"seat": "p1"}, {"decided_at": version})],
                 version)
    response = players[0].view(game_id)
    assert response.status_code == 501 and response.json["type"].endswith("/event-type-unknown")
    assert "'Teleported' is not an event of cronberg rules version 1" in response.json["detail"]


def test_the_issue_s_balance_fix_in_place_is_named_as_a_changed_data_file_not_as_tampering(history, stored,
                                                                                           monkeypatch, tmp_path,
                                                                                           capsys):
    export = history.client.get(f"/v1/games/{stored.finished}/export")
    path = tmp_path / "cronberg.jsonl"
    path.write_bytes(export.get_data())
    assert offline_audit.main(types.SimpleNamespace(file=str(path))) == 0
    rules = registry.VERSIONS["cronberg"][1]
    edited = tmp_path / "edited-cronberg"
    edited.mkdir()
    for name, source in rules.data_paths().items():
        text = source.read_text()
        if name == "tiles.json":  # every positive corner number raised by one, in place
            text = text.replace("1", "2")
        (edited / name).write_text(text)
    monkeypatch.setitem(registry.VERSIONS["cronberg"], 1, dataclasses.replace(rules, data=edited))
    assert offline_audit.main(types.SimpleNamespace(file=str(path))) == 2
    captured = capsys.readouterr()
    assert "NOT AUDITED" in captured.out and "tiles.json" in captured.err and "changed in place" in captured.err
