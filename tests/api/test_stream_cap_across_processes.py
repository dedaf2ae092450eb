"""The per-player cap on open streams holds across the API processes of a
deployment: two apps (two processes' Streams) on one Redis share it. Leases
expire on a clock the tests move by hand, never by sleeping."""

from __future__ import annotations

import logging
import threading
import uuid

import pytest
from redis import Redis

from api.http.app import create_app
from api.http.stream_leases import KEY, LEASE_HEARTBEATS
from api.http.streaming import StreamLimit, Streams
from tests.support.private_redis import free_port

from .conftest import started_game, watch_declared_problems

HEARTBEAT = 0.2  # real seconds between heartbeats; leases run on the tests' clock
LEASE = LEASE_HEARTBEATS * HEARTBEAT


class Clock:
    def __init__(self, now: float = 1_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


def process(service, redis, clock, per_player=2):
    """One API process: an app of its own (its own Streams) on the shared Redis."""
    app = create_app({"RATE_LIMIT_PER_MINUTE": 0,
                      "STREAMS": {"per_player": per_player, "lifetime": 60, "heartbeat": HEARTBEAT, "clock": clock}},
                     service=service, redis=redis)
    watch_declared_problems(app)
    return app.test_client()


def open_stream(client, path, player):
    response = client.get(path, headers=player.auth, buffered=False)
    assert response.status_code == 200, response.get_data(as_text=True)
    return response


def test_two_processes_on_one_redis_hold_a_player_to_one_cap_together(players, service, redis):
    clock = Clock()
    first, second = process(service, redis, clock), process(service, redis, clock)
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    held = [open_stream(first, f"/v1/games/{game_id}/stream", ada), open_stream(second, "/v1/players/me/stream", ada)]
    try:
        for client in (first, second):
            refused = client.get(f"/v1/games/{game_id}/stream", headers=ada.auth)
            assert refused.status_code == 429 and refused.json["type"].endswith("/too-many-streams")
            assert int(refused.headers["Retry-After"]) > 0
            assert "2 streams open" in refused.json["detail"] and "close one" in refused.json["detail"]
        open_stream(second, f"/v1/games/{game_id}/stream", bob).close()  # another player is not refused
    finally:
        for response in held:
            response.close()


def test_a_stream_closed_in_one_process_frees_its_slot_for_another(players, service, redis):
    clock = Clock()
    first, second = process(service, redis, clock, per_player=1), process(service, redis, clock, per_player=1)
    ada = players(1)[0]
    game_id = ada.create()
    held = open_stream(first, f"/v1/games/{game_id}/stream", ada)
    assert second.get("/v1/players/me/stream", headers=ada.auth).status_code == 429
    held.close()
    open_stream(second, "/v1/players/me/stream", ada).close()
    assert redis.zcard(KEY.format(ada.id)) == 0  # every lease released: nothing waits to expire


def test_a_lease_nobody_renews_stops_counting_once_it_expires(service, redis):
    clock = Clock()
    dead = Streams(service, per_player=1, heartbeat=HEARTBEAT, redis=redis, clock=clock)
    alive = Streams(service, per_player=1, heartbeat=HEARTBEAT, redis=redis, clock=clock)
    player = str(uuid.uuid4())
    dead.open(player)  # and that process dies: it never renews nor releases the lease
    with pytest.raises(StreamLimit) as refused:
        alive.open(player)
    assert refused.value.status == 429
    clock.now += LEASE * 0.9
    with pytest.raises(StreamLimit):
        alive.open(player)
    clock.now += LEASE * 0.2  # past the lease's expiry
    slot = alive.open(player)
    assert redis.zcard(KEY.format(player)) == 1  # the dead process's lease was pruned
    alive.close(slot)


def test_a_live_stream_renews_its_lease_and_keeps_its_slot_past_the_first_expiry(players, service, redis):
    clock = Clock()
    first = process(service, redis, clock, per_player=1)
    other = Streams(service, per_player=1, heartbeat=HEARTBEAT, redis=redis, clock=clock)
    ada = players(1)[0]
    game_id = ada.create()
    response = open_stream(first, f"/v1/games/{game_id}/stream", ada)
    chunks = iter(response.response)
    try:
        assert b"retry:" in next(chunks) and b"event: view" in next(chunks)
        clock.now += LEASE * 0.5  # a renewal is due
        assert b"heartbeat" in next(chunks)  # the stream's loop came round: it renewed the lease
        clock.now += LEASE * 0.9  # past the lease as first taken, within the renewed one
        with pytest.raises(StreamLimit):
            other.open(ada.id)
    finally:
        response.close()
    other.close(other.open(ada.id))


def test_two_processes_racing_for_the_last_slots_take_no_more_than_the_cap(service, redis):
    clock = Clock()
    processes = [Streams(service, per_player=3, heartbeat=HEARTBEAT, redis=redis, clock=clock) for _ in range(12)]
    player, start = str(uuid.uuid4()), threading.Barrier(len(processes))
    opened, refused = [], []

    def open_one(streams):
        start.wait()
        try:
            opened.append(streams.open(player))
        except StreamLimit:
            refused.append(streams)

    threads = [threading.Thread(target=open_one, args=(streams,)) for streams in processes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert (len(opened), len(refused)) == (3, 9)
    assert redis.zcard(KEY.format(player)) == 3
    for slot in opened:
        slot.registry.close(slot)


def test_long_polls_are_not_counted_per_player(service, redis):
    streams = Streams(service, per_player=1, heartbeat=HEARTBEAT, redis=redis, clock=Clock())
    player = str(uuid.uuid4())
    slot = streams.open(player)
    with streams.waiting(player), streams.waiting(player):
        assert streams.leases.held(player) == 1 and streams.count() == 3
    streams.close(slot)


def test_with_redis_unreachable_streams_still_open_and_each_process_keeps_its_own_cap(players, service, caplog):
    unreachable = Redis(host="127.0.0.1", port=free_port(), socket_connect_timeout=1)  # nothing listens there
    client = process(service, unreachable, Clock(), per_player=2)
    ada = players(1)[0]
    game_id = ada.create()
    with caplog.at_level(logging.WARNING, logger="boardlog.streams"):
        held = [open_stream(client, f"/v1/games/{game_id}/stream", ada) for _ in range(2)]
    try:
        assert any("Redis unreachable" in record.getMessage() for record in caplog.records)
        refused = client.get(f"/v1/games/{game_id}/stream", headers=ada.auth)
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    finally:
        for response in held:
            response.close()
    open_stream(client, f"/v1/games/{game_id}/stream", ada).close()
