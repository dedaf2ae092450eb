"""With Redis a stream ticket costs no PostgreSQL write: it is signed, and
its single use kept in Redis; as strong as a stored one (single use, 60 s,
revocable, unforgeable), and stored as before when Redis is unreachable."""

from __future__ import annotations

import pytest

from api.http.app import create_app
from tests.support.open_stream import HeldStream

from .conftest import Player, started_game


@pytest.fixture
def with_redis(service, redis):
    app = create_app({"RATE_LIMIT_PER_MINUTE": 0, "STREAMS": {"lifetime": 1.0, "heartbeat": 0.3}},
                     service=service, redis=redis)
    return app.test_client()


def _stored_tickets(service, player) -> int:
    with service.pool.connection() as conn:
        return conn.execute("select count(*) from stream_tickets where player_id = %s", (player.id,)).fetchone()[0]


def _opens(client, path) -> int:
    stream = HeldStream(client, path)
    stream.close()
    return stream.status


def test_a_ticket_issued_with_redis_writes_nothing_to_postgresql_and_opens_one_stream(with_redis, service):
    ada, bob = Player(with_redis, "sg-ada"), Player(with_redis, "sg-bob")
    game_id = started_game([ada, bob])
    answer = ada.post("/v1/stream-tickets")
    assert answer.status_code == 201 and answer.json["expires_in"] == 60
    assert _stored_tickets(service, ada) == 0
    ticket = answer.json["ticket"]
    assert _opens(with_redis, f"/v1/games/{game_id}/stream?ticket={ticket}") == 200
    again = with_redis.get(f"/v1/games/{game_id}/stream?ticket={ticket}")
    assert again.status_code == 401 and again.json["type"].endswith("ticket-invalid")


def test_a_signed_ticket_cannot_be_forged_or_altered(with_redis):
    ada, bob = Player(with_redis, "sf-ada"), Player(with_redis, "sf-bob")
    game_id = started_game([ada, bob])
    ticket = ada.post("/v1/stream-tickets").json["ticket"]
    body, _, mac = ticket.rpartition(".")
    player_hex = body.split(".")[1]
    for forged in (body + "." + ("A" * len(mac)), ticket.replace(player_hex, bob.id.replace("-", ""))):
        response = with_redis.get(f"/v1/players/me/stream?ticket={forged}")
        assert response.status_code == 401, forged
    assert _opens(with_redis, f"/v1/games/{game_id}/stream?ticket={ticket}") == 200


def test_a_signed_ticket_expires_after_60_seconds(with_redis, monkeypatch):
    import time as clock

    ada = Player(with_redis, "se-ada")
    ticket = ada.post("/v1/stream-tickets").json["ticket"]
    later = clock.time() + 61
    monkeypatch.setattr("api.service.tickets.time.time", lambda: later)
    response = with_redis.get(f"/v1/players/me/stream?ticket={ticket}")
    assert response.status_code == 401 and "expired" in response.json["detail"]


def test_a_signed_ticket_opens_nothing_once_its_token_is_revoked(with_redis):
    ada = Player(with_redis, "sr-ada")
    ticket = ada.post("/v1/stream-tickets").json["ticket"]
    listed = ada.get("/v1/players/me/tokens").json["tokens"]
    current = next(t["id"] for t in listed if t["current"])
    assert with_redis.delete(f"/v1/players/me/tokens/{current}", headers=ada.auth).status_code == 204
    response = with_redis.get(f"/v1/players/me/stream?ticket={ticket}")
    assert response.status_code == 401 and "revoked" in response.json["detail"]


def test_a_ticket_is_stored_as_before_when_redis_is_unreachable(service):
    from redis import Redis

    unreachable = Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.3)
    client = create_app({"RATE_LIMIT_PER_MINUTE": 0, "STREAMS": {"lifetime": 1.0, "heartbeat": 0.3}},
                        service=service, redis=unreachable).test_client()
    ada, bob = Player(client, "su-ada"), Player(client, "su-bob")
    game_id = started_game([ada, bob])
    ticket = ada.post("/v1/stream-tickets").json["ticket"]
    assert _stored_tickets(service, ada) == 1
    assert _opens(client, f"/v1/games/{game_id}/stream?ticket={ticket}") == 200
    assert client.get(f"/v1/games/{game_id}/stream?ticket={ticket}").status_code == 401


def test_more_commands_at_once_than_the_api_s_redis_client_holds_connections_wait_for_one_instead_of_failing(
        redis_url):
    """redis-py 8 caps a client's pool at 100 connections and then raises
    "Too many connections": under a herd of reconnecting browsers that
    refused stream tickets (401) while Redis was fine."""
    import threading

    from api.http.app import REDIS_TIMEOUT
    from api.service.redis_connection import MAX_CONNECTIONS, redis_client

    client = redis_client(redis_url, socket_connect_timeout=REDIS_TIMEOUT, socket_timeout=REDIS_TIMEOUT)
    failures, lock = [], threading.Lock()

    def blocked_a_moment():
        try:
            client.blpop(["boardlog-test:never-pushed"], timeout=0.3)  # holds its connection that long
        except Exception as error:
            with lock:
                failures.append(repr(error))

    herd = [threading.Thread(target=blocked_a_moment) for _ in range(MAX_CONNECTIONS + 50)]
    for thread in herd:
        thread.start()
    for thread in herd:
        thread.join(30)
    client.close()
    assert failures == []
