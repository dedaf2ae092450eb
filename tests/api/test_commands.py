import random
import uuid

from tests.api.conftest import race, started_game


def _turn(players, game_id):
    """The player to act, and another one."""
    to_act = players[0].view(game_id).json["to_act"]
    acting = next(p for p in players if p.view(game_id).json["seat"] in to_act)
    other = next(p for p in players if p is not acting)
    return acting, other


def _events(service, game_id):
    return service.store.stream_version(f"game-{game_id}")


def test_a_legal_command_appends_events_and_answers_the_new_version(players):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    acting, _ = _turn([ada, bob], game_id)
    before = acting.view(game_id).json["version"]
    response = acting.act(game_id, acting.legal(game_id)[0])
    assert response.status_code == 200
    assert response.json["version"] > before
    assert response.json["events"]


def test_a_command_out_of_turn_is_a_409_naming_who_is_to_act(players, service):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    acting, waiting = _turn([ada, bob], game_id)
    before = _events(service, game_id)
    response = waiting.act(game_id, acting.legal(game_id)[0])
    assert response.status_code == 409
    seat = acting.view(game_id).json["seat"]
    assert response.json["detail"] == f"it is not your turn: {seat} is to act"
    assert _events(service, game_id) == before


def test_an_illegal_move_is_a_422_with_the_rules_reason_and_changes_nothing(players, service):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    acting, _ = _turn([ada, bob], game_id)
    before = _events(service, game_id)
    response = acting.act(game_id, {"type": "PlaceMember", "crossing": "nowhere"})
    assert response.status_code == 422
    assert response.mimetype == "application/problem+json"
    assert "nowhere" in response.json["detail"]
    assert _events(service, game_id) == before


def test_a_command_of_the_wrong_shape_gets_field_level_messages(players):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    acting, _ = _turn([ada, bob], game_id)
    response = acting.act(game_id, {"type": "PlaceMember", "crossing": 7, "extra": True})
    assert response.status_code == 422
    assert set(response.json["errors"]) == {"crossing", "extra"}
    response = acting.act(game_id, {"type": "CastleEverything"})
    assert "type" in response.json["errors"]


def test_a_spectator_cannot_send_commands(players):
    ada, bob, eve = players(3)
    game_id = started_game([ada, bob])
    response = eve.act(game_id, {"type": "DrawBuilding"})
    assert response.status_code == 403
    assert "no seat" in response.json["detail"]


def test_a_stale_if_match_is_a_412_and_changes_nothing(players, service):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    acting, _ = _turn([ada, bob], game_id)
    version = acting.view(game_id).json["version"]
    response = acting.act(game_id, acting.legal(game_id)[0], headers={"If-Match": f'"{version - 1}"'})
    assert response.status_code == 412
    assert response.json["version"] == version
    assert _events(service, game_id) == version
    assert acting.act(game_id, acting.legal(game_id)[0], headers={"If-Match": f'"{version}"'}).status_code == 200


def test_an_if_match_at_the_version_this_process_holds_is_a_412_when_another_process_moved_the_game(
        players, service, database_url, monkeypatch):
    from api.http.app import create_app
    from api.service.games import GameService
    from eventstore import PostgresEventStore

    ada, bob = players(2)
    game_id = started_game([ada, bob])
    acting, _ = _turn([ada, bob], game_id)
    version = acting.view(game_id).json["version"]  # this process holds the game at it
    command = acting.legal(game_id)[0]
    other_store = PostgresEventStore.connect(database_url, min_size=1, max_size=2)
    try:
        elsewhere = create_app({"RATE_LIMIT_PER_MINUTE": 0}, service=GameService(other_store, seeds=service.seeds))
        moved = elsewhere.test_client().post(f"/v1/games/{game_id}/commands", json=command, headers=acting.auth)
    finally:
        other_store.close()
    assert moved.status_code == 200 and moved.json["version"] > version
    # This process has not heard of that move: it holds the game at the version it knows.
    stream = f"game-{game_id}"
    monkeypatch.setattr(service.store, "known_version", lambda s: version if s == stream else None)
    assert service.cached(uuid.UUID(game_id))[1].version == version
    response = acting.act(game_id, command, headers={"If-Match": f'"{version}"'})
    assert response.status_code == 412
    assert response.json["version"] == moved.json["version"]
    assert _events(service, game_id) == moved.json["version"]


def test_the_same_idempotency_key_and_body_act_once_and_answer_the_same(players, service):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    acting, _ = _turn([ada, bob], game_id)
    command = acting.legal(game_id)[0]
    key = {"Idempotency-Key": uuid.uuid4().hex}
    first = acting.act(game_id, command, headers=key)
    after_first = _events(service, game_id)
    second = acting.act(game_id, command, headers=key)
    assert first.status_code == second.status_code == 200
    assert first.json == second.json
    assert _events(service, game_id) == after_first


def test_the_same_idempotency_key_with_another_body_is_a_422(players, service):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    acting, _ = _turn([ada, bob], game_id)
    commands = acting.legal(game_id)
    key = {"Idempotency-Key": uuid.uuid4().hex}
    assert acting.act(game_id, commands[0], headers=key).status_code == 200
    before = _events(service, game_id)
    response = acting.act(game_id, commands[-1] if commands[-1] != commands[0] else {"type": "X"}, headers=key)
    assert response.status_code == 422
    assert "Idempotency-Key" in response.json["detail"]
    assert _events(service, game_id) == before


def test_two_racing_commands_from_the_same_seat_are_decided_one_after_the_other(players, service, app):
    import threading

    ada, bob = players(2)
    game_id = started_game([ada, bob])
    acting, _ = _turn([ada, bob], game_id)
    command = acting.legal(game_id)[0]
    before = _events(service, game_id)
    results = []

    def send():
        results.append(app.test_client().post(
            f"/v1/games/{game_id}/commands", json=command, headers=acting.auth).status_code)

    threads = [threading.Thread(target=send) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results.count(200) >= 1
    assert all(code in (200, 409, 422) for code in results)
    records = service.store.read_stream(f"game-{game_id}")
    assert [r.version for r in records] == list(range(1, len(records) + 1))
    assert len(records) > before


def test_every_command_records_who_sent_it_and_the_version_it_was_decided_at(players, service):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    acting, _ = _turn([ada, bob], game_id)
    version = acting.view(game_id).json["version"]
    command = acting.legal(game_id)[0]
    acting.act(game_id, command)
    record = service.store.read_stream(f"game-{game_id}", version + 1)[0]
    assert record.metadata["actor"] == acting.id
    assert record.metadata["command"] == command
    assert record.metadata["decided_at"] == version


def test_an_idempotency_key_is_scoped_to_the_player_and_the_game_so_keys_numbered_per_game_work_in_the_next_game(players, service):
    ada, bob = players(2)
    first, second = started_game([ada, bob]), started_game([ada, bob])
    key = {"Idempotency-Key": "move-1"}
    answers = {}
    for game_id in (first, second):
        acting, _ = _turn([ada, bob], game_id)
        before = _events(service, game_id)
        answers[game_id] = acting.act(game_id, acting.legal(game_id)[0], headers=key)
        assert answers[game_id].status_code == 200, answers[game_id].json
        assert _events(service, game_id) > before
        assert answers[game_id].json["version"] == _events(service, game_id)  # this game's answer, not the first's


def test_a_key_reused_in_the_same_game_with_another_body_says_keys_are_scoped_to_player_and_game(players, service):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    acting, _ = _turn([ada, bob], game_id)
    key = {"Idempotency-Key": "move-1"}
    assert acting.act(game_id, acting.legal(game_id)[0], headers=key).status_code == 200
    response = acting.act(game_id, {"type": "PlaceMember", "crossing": "nowhere"}, headers=key)
    assert response.status_code == 422
    assert response.json["type"] == "https://boardlog.dev/problems/idempotency-key-reused"
    assert response.json["detail"] == (
        "this Idempotency-Key was already used by you in this game with another request (another endpoint or "
        "body): a key is scoped to (player, game), so use a new key for each new request in this game")


def test_a_retry_that_raced_its_original_gets_the_original_answer_not_a_409(players, service, monkeypatch):
    # The retry decided on the state the original had already moved on from.
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    acting, _ = _turn([ada, bob], game_id)
    command = acting.legal(game_id)[0]
    key = {"Idempotency-Key": uuid.uuid4().hex}
    stale = service.load(uuid.UUID(game_id))
    original = acting.act(game_id, command, headers=key)
    assert original.status_code == 200
    after = _events(service, game_id)

    calls = race(monkeypatch, service, stale)
    retry = acting.act(game_id, command, headers=key)
    assert retry.status_code == 200, retry.json
    assert retry.json == original.json
    assert calls == {"load": 2, "earlier": 1}  # conflicted, refused on the fresh state, answered from the key
    assert _events(service, game_id) == after


def test_an_idempotency_key_with_a_control_character_is_a_422_not_a_500_and_acts_nothing(players, service):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    acting, _ = _turn([ada, bob], game_id)
    command = acting.legal(game_id)[0]
    before = _events(service, game_id)
    for key in ("nul\x00inside", "bell\x07", "\udcff", "x" * 201):
        response = acting.act(game_id, command, headers={"Idempotency-Key": key})
        assert response.status_code == 422, (key, response.json)
        assert response.mimetype == "application/problem+json"
        assert "Idempotency-Key" in response.json["detail"]
    assert _events(service, game_id) == before


def test_a_key_remembered_before_keys_were_scoped_to_a_game_still_answers_its_repeat(players, service):
    import hashlib

    from psycopg.types.json import Jsonb

    from api.service import decisions, readmodels

    ada, bob = players(2)
    game_id = started_game([ada, bob])
    acting, _ = _turn([ada, bob], game_id)
    command = acting.legal(game_id)[0]
    digest = hashlib.sha256(decisions.canonical([game_id, command]).encode()).digest()  # as migration 0119 left it
    remembered = {"game": "cronberg", "version": 999, "status": "active", "to_act": [], "events": []}
    with service.pool.connection() as conn:
        conn.execute("insert into idempotency_keys (player_id, key, request_sha256, status, response)"
                     " values (%s, 'legacy-1', %s, 200, %s)", (acting.id, digest, Jsonb(remembered)))
        assert conn.execute("select game_id::text from idempotency_keys where key = 'legacy-1'").fetchone()[0] \
            == readmodels.UNSCOPED
    before = _events(service, game_id)
    answer = acting.act(game_id, command, headers={"Idempotency-Key": "legacy-1"})
    assert answer.status_code == 200 and answer.json == remembered
    assert _events(service, game_id) == before
