"""A herd of reconnecting browsers opens streams without queueing for the
database: with Redis, a stream ticket costs no PostgreSQL write, and a
stream opened with a fresh one reads nothing from PostgreSQL when the
process knows the game (its ticket says when its token was last checked,
the game's session and its channels' versions are what the process knows,
mutes are read when the first message comes). Revocation is as strong as
every token's: a token revoked here opens nothing at once, one revoked in
another process nothing once this one heard of it (or, while it cannot
hear revocations, once the token cache time has passed)."""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager

import pytest

from api.http.app import create_app
from api.service import readmodels
from api.service.games import stream_of
from api.service.ticket_tokens import TicketTokens
from tests.support.sse import parse, read_until
from tests.support.waiting import wait_until

from .conftest import Player, started_game


@pytest.fixture
def app(service, redis):
    return create_app({"RATE_LIMIT_PER_MINUTE": 0, "STREAMS": {"lifetime": 1.0, "heartbeat": 0.3}},
                      service=service, redis=redis)


@contextmanager
def pool_uses(service, monkeypatch):
    """The connections taken from the real pool meanwhile, by any thread."""
    real, taken = service.pool.connection, []

    def counted(*args, **kwargs):
        taken.append(threading.current_thread().name)
        return real(*args, **kwargs)

    monkeypatch.setattr(service.pool, "connection", counted)
    try:
        yield taken
    finally:
        monkeypatch.setattr(service.pool, "connection", real)


def opened(client, path: str, headers=None) -> str:
    """A stream's first messages (its retry hint and the view now), read here, then closed."""
    response = client.get(path, headers=headers or {}, buffered=False)
    assert response.status_code == 200, response.get_data(as_text=True)
    chunks = iter(response.response)
    text = read_until(chunks, "event: view")
    response.close()
    return text


def known(service, game_id) -> None:
    """Until the process knows the game's version and its table's without a
    query (a read confirms each while the LISTEN connection is in place)."""
    from domain.lifecycle.talk import stream_of as channel_stream

    store = service.store
    for name in (stream_of(game_id), channel_stream(game_id, "table")):
        wait_until(lambda: store.recent_version(name) is not None and store.known_version(name) is not None, 10,
                   f"{name}'s version known")


def test_a_seated_player_s_stream_opened_with_a_fresh_ticket_reads_nothing_from_postgresql(app, service,
                                                                                          monkeypatch):
    client = app.test_client()
    ada, bob = Player(client, "oc-ada"), Player(client, "oc-bob")
    game_id = started_game([ada, bob])
    opened(client, f"/v1/games/{game_id}/stream", bob.auth)  # the process follows the game and its table now
    ticket = ada.post("/v1/stream-tickets").json["ticket"]
    known(service, game_id)
    with pool_uses(service, monkeypatch) as taken:
        text = opened(client, f"/v1/games/{game_id}/stream?ticket={ticket}")
    assert taken == [], taken
    assert parse(text)[0][-1].json["seat"] in ("p1", "p2")  # ada's own view: the ticket opened it as her


@pytest.fixture
def own_process(database_url, redis_url):
    """An API process of its own: its own store (LISTEN connection, versions known) and Redis client."""
    app = create_app({"DATABASE_URL": database_url, "REDIS_URL": redis_url, "RATE_LIMIT_PER_MINUTE": 0,
                      "STREAMS": {"lifetime": 1.0, "heartbeat": 0.3}})
    try:
        yield app
    finally:
        app.extensions["boardlog"].service.store.close()


def test_ten_seated_streams_opening_at_once_on_a_game_read_it_and_its_channels_once_not_once_each(
        players, own_process, monkeypatch):
    ada, bob = players(2)
    game_id = started_game([ada, bob])  # by another process: this one has heard nothing of it
    client, service = own_process.test_client(), own_process.extensions["boardlog"].service
    service.store.watch([]).close()  # its LISTEN connection in place, as in a process that has run a while
    tickets = [client.post("/v1/stream-tickets", headers=p.auth).json["ticket"] for p in (ada, bob) * 5]
    with pool_uses(service, monkeypatch) as taken:
        herd = [threading.Thread(target=opened, args=(client, f"/v1/games/{game_id}/stream?ticket={t}"))
                for t in tickets]
        for thread in herd:
            thread.start()
        for thread in herd:
            thread.join(30)
    # At most: the game's version, its session (one load for all: its first event, its snapshot, the
    # rest), its one channel's version, and its players' names (once for the herd, then known to the
    # process); before, one query for the channels per stream besides.
    assert len(taken) <= 6, taken


def test_twenty_long_polls_arriving_at_once_on_a_game_read_it_once_not_once_each(players, own_process, monkeypatch):
    ada, bob = players(2)
    game_id = started_game([ada, bob])  # by another process: this one has heard nothing of it
    client, service = own_process.test_client(), own_process.extensions["boardlog"].service
    service.store.watch([]).close()  # its LISTEN connection in place, as in a process that has run a while
    answers = []

    def poll():
        answers.append(client.get(f"/v1/games/{game_id}/view?wait=1", headers={"If-None-Match": "*"}).status_code)

    with pool_uses(service, monkeypatch) as taken:
        herd = [threading.Thread(target=poll) for _ in range(20)]
        for thread in herd:
            thread.start()
        for thread in herd:
            thread.join(30)
    assert answers == [304] * 20
    # At most: the game's version and its session (one load for all: its first event, its snapshot, the
    # rest); before, each poll read the version, and loaded the game while it was not held yet.
    assert len(taken) <= 4, taken


def test_a_player_muted_after_a_stream_opened_before_anything_was_said_is_silent_on_it(players, client):
    ada, bob, cid = players(3)
    game_id = started_game([ada, bob, cid])
    stream = client.get(f"/v1/games/{game_id}/stream", headers=ada.auth, buffered=False)
    chunks = iter(stream.response)
    text = read_until(chunks, "event: view")
    assert ada.client.put(f"/v1/games/{game_id}/mutes/{bob.id}", headers=ada.auth).status_code == 200
    for player, words in ((bob, "words ada muted"), (cid, "words ada hears")):
        said = player.post(f"/v1/games/{game_id}/channels/table/messages", json={"text": words})
        assert said.status_code == 201
    text = read_until(chunks, "words ada hears", text)
    stream.close()
    assert [m.json["text"] for m in parse(text)[0] if m.event == "talk"] == ["words ada hears"]


def test_a_token_revoked_in_another_process_opens_nothing_as_soon_as_this_one_hears_of_it(app, service):
    client = app.test_client()
    ada, bob = Player(client, "oc-hr-ada"), Player(client, "oc-hr-bob")
    game_id = started_game([ada, bob])
    ticket = ada.post("/v1/stream-tickets").json["ticket"]
    with service.pool.connection() as conn:  # as another process revokes it: its notice is committed with it
        readmodels.revoke_tokens(conn, ada.id)
    wait_until(lambda: client.get(f"/v1/games/{game_id}/stream?ticket={ticket}").status_code == 401, timeout=30,
               what="the revoked token's ticket refused")
    refused = client.get(f"/v1/games/{game_id}/stream?ticket={ticket}")
    assert "revoked" in refused.json["detail"]


def test_a_token_revoked_where_this_process_cannot_hear_it_opens_nothing_once_the_token_cache_time_passed(
        app, service):
    client = app.test_client()
    ada, bob = Player(client, "oc-rv-ada"), Player(client, "oc-rv-bob")
    game_id = started_game([ada, bob])
    first, second = (ada.post("/v1/stream-tickets").json["ticket"] for _ in range(2))
    ticket_tokens = app.extensions["boardlog"].streams.ticket_tokens
    ticket_tokens._listening_since = None  # this process hears no revocations (its LISTEN connection is down)
    with service.pool.connection() as conn:  # as another process revokes it: this one is not told
        conn.execute("update player_tokens set revoked_at = now() where player_id = %s", (ada.id,))
    # Within the token cache time this process trusts the token as it trusts its bearer's requests...
    opened(client, f"/v1/games/{game_id}/stream?ticket={first}")
    cache = service.players.cache_seconds
    ticket_tokens.clock = lambda: time.time() + cache + 1
    refused = client.get(f"/v1/games/{game_id}/stream?ticket={second}")
    assert refused.status_code == 401 and "revoked" in refused.json["detail"]  # ...and no longer after


class Hearing:
    """Since when the process has heard every revocation (what the event store's LISTEN connection says)."""

    def __init__(self, since):
        self.since = since

    def listening_since(self, channel):
        return self.since


def test_a_ticket_whose_token_was_read_since_this_process_hears_revocations_is_trusted_without_a_read(
        players, service):
    ada = players(1)[0]
    token_id = next(t["id"] for t in ada.get("/v1/players/me/tokens").json["tokens"] if t["current"])
    now = time.time()
    tokens = TicketTokens(service.pool, cache_seconds=10, ticket_seconds=60, hears=Hearing(since=now - 3600))
    read_long_ago = now - 1800  # past the token cache time, but heard since
    assert tokens.stands(token_id, read_long_ago) and tokens.reads == 0
    tokens.revoked([token_id])
    assert not tokens.stands(token_id, read_long_ago), "a revocation heard since the read: refused"
    deaf_then = TicketTokens(service.pool, cache_seconds=10, ticket_seconds=60, hears=Hearing(since=now - 60))
    assert deaf_then.stands(token_id, read_long_ago) and deaf_then.reads == 1, "read before hearing began: asked"


def test_a_ticket_whose_token_check_is_older_than_the_token_cache_is_checked_once_then_trusted_as_long(
        players, service):
    ada = players(1)[0]
    token_id = next(t["id"] for t in ada.get("/v1/players/me/tokens").json["tokens"] if t["current"])
    tokens = TicketTokens(service.pool, cache_seconds=10)
    stale = time.time() - 11
    assert tokens.stands(token_id, stale) and tokens.reads == 1
    assert tokens.stands(token_id, stale) and tokens.reads == 1, "the read is trusted for the token cache time"
    assert tokens.stands(token_id, time.time()) and tokens.reads == 1
    tokens.revoked([token_id])
    assert not tokens.stands(token_id, time.time()), "revoked in this process: at once, whatever the ticket says"


def test_tickets_issued_in_a_burst_read_the_ticket_secret_from_redis_once_at_most(app, monkeypatch):
    client = app.test_client()
    ada = Player(client, "oc-sec-ada")
    redis = app.extensions["boardlog"].redis
    real, reads = redis.get, []
    monkeypatch.setattr(redis, "get", lambda key: reads.append(key) or real(key))
    for _ in range(20):
        assert ada.post("/v1/stream-tickets").status_code == 201
    assert len(reads) <= 1, reads
