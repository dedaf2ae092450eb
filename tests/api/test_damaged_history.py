"""A stored event changed behind the server's back (as a PostgreSQL
superuser can) no longer decodes: the audit names the first bad row from the
hash chain, checked before anything is decoded; the export still hands the
raw log over; every other door answers a problem document saying that the
game's history is damaged, never a 500."""

from __future__ import annotations

import random
import uuid

import pytest

from api.http.app import create_app
from api.service.games import GameService
from tests.api.conftest import Player, play_until_over, started_game
from tests.support.seeds import TEST_SEEDS


def _tamper(service, game_id, version: int, data: str) -> None:
    with service.pool.connection() as conn, conn.transaction():
        conn.execute("set local session_replication_role = replica")  # past the triggers that refuse UPDATE
        conn.execute("update events set data = %s::jsonb where stream_id = %s and version = %s",
                     (data, f"game-{game_id}", version))


@pytest.fixture
def fresh_client(event_store):
    """A client of a new API process: nothing of the game in its memory."""

    def make():
        return create_app({"RATE_LIMIT_PER_MINUTE": 0}, service=GameService(event_store, seeds=TEST_SEEDS)).test_client()

    return make


@pytest.fixture
def running_game(client, service):
    ada, bob = Player(client, "damaged-a"), Player(client, "damaged-b")
    game_id = started_game([ada, bob])
    return game_id, ada


@pytest.fixture
def finished_game(client, service):
    ada, bob = Player(client, "damaged-c"), Player(client, "damaged-d")
    game_id = started_game([ada, bob])
    play_until_over([ada, bob], game_id, random.Random(5))
    service.score(uuid.UUID(game_id))
    return game_id, ada


UNPARSEABLE = ['{"nonsense": true}', '{"seat": "p1"}', '[]', '"text"', 'null']


@pytest.mark.parametrize("data", UNPARSEABLE)
def test_the_view_of_a_game_with_an_unparseable_event_says_its_history_is_damaged(running_game, service, fresh_client, data):
    game_id, ada = running_game
    _tamper(service, game_id, 2, data)
    response = fresh_client().get(f"/v1/games/{game_id}/view", headers=ada.auth)
    assert response.status_code == 409, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    assert response.json["type"].endswith("/history-damaged")
    assert "version 2" in response.json["detail"]


@pytest.mark.parametrize("path", ["legal-commands", "events", ""])
def test_every_door_that_reads_the_game_answers_the_same_problem(running_game, service, fresh_client, path):
    game_id, ada = running_game
    _tamper(service, game_id, 2, UNPARSEABLE[0])
    response = fresh_client().get(f"/v1/games/{game_id}/{path}".rstrip("/"), headers=ada.auth)
    assert response.status_code in (200, 409), response.get_data(as_text=True)  # the summary is a read model
    if response.status_code == 409:
        assert response.json["type"].endswith("/history-damaged")


def test_the_audit_names_the_first_bad_row_before_decoding_anything(running_game, service, fresh_client):
    game_id, _ = running_game
    _tamper(service, game_id, 2, UNPARSEABLE[0])
    _tamper(service, game_id, 3, UNPARSEABLE[1])
    response = fresh_client().get(f"/v1/games/{game_id}/audit")
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.json["chain"]["ok"] is False
    assert response.json["chain"]["broken_at"] == 2
    assert response.json["status"] == "active"


def test_the_audit_and_export_of_a_finished_game_hand_over_the_damaged_log(finished_game, service, fresh_client):
    from api.audit.offline_audit import audit_lines

    game_id, _ = finished_game
    _tamper(service, game_id, 4, UNPARSEABLE[0])
    client = fresh_client()
    audit = client.get(f"/v1/games/{game_id}/audit")
    assert audit.status_code == 200, audit.get_data(as_text=True)
    assert audit.json["chain"]["broken_at"] == 4
    assert audit.json["log"][3]["data"] == {"nonsense": True}
    export = client.get(f"/v1/games/{game_id}/export")
    assert export.status_code == 200, export.get_data(as_text=True)
    ok, report = audit_lines(export.get_data(as_text=True).splitlines())
    assert not ok
    assert "BROKEN at version 4" in report[0]


def test_an_intact_chain_the_code_cannot_read_is_named_as_such(running_game, service, fresh_client, monkeypatch):
    from domain import session as sessions

    game_id, ada = running_game
    real = sessions.decode_event

    def refuse_seat_taken(rules, data):
        if data.get("type") == "SeatTaken":
            raise KeyError("seat")
        return real(rules, data)

    monkeypatch.setattr(sessions, "decode_event", refuse_seat_taken)
    response = fresh_client().get(f"/v1/games/{game_id}/view", headers=ada.auth)
    assert response.json["type"].endswith("/history-unreadable"), response.get_data(as_text=True)
    assert "intact" in response.json["detail"]
    audit = fresh_client().get(f"/v1/games/{game_id}/audit")
    assert audit.status_code == 200 and audit.json["chain"]["ok"] is True
