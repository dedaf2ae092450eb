"""Overload degrades, never destroys: with its database pool exhausted a
process keeps the streams it holds (heartbeats need no database), ends one
that cannot go on with a retry hint and a problem message rather than an
exception, never answers a long-poll before its wait unless the game moved,
refuses NEW waiters with 503 and Retry-After, and says so on /readyz while
/healthz stays true."""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager

import pytest

from api.http.app import create_app
from tests.support.open_stream import HeldStream
from tests.support.waiting import wait_until

from .conftest import Player, started_game

HEARTBEAT = 0.3


@pytest.fixture
def small(database_url):
    """A process of its own with a pool of 2 connections that gives up after 0.5 s."""
    app = create_app({"DATABASE_URL": database_url, "REDIS_URL": None, "RATE_LIMIT_PER_MINUTE": 0,
                      "POOL_SIZE": 2, "POOL_TIMEOUT": 0.5,
                      "STREAMS": {"lifetime": 5.0, "heartbeat": HEARTBEAT, "saturated_waiting": 1}})
    try:
        yield app
    finally:
        app.extensions["boardlog"].service.store.close()


@contextmanager
def exhausted(app, queued: int = 0):
    """Every connection of the app's pool held, as if by other requests; and
    ``queued`` more requests waiting for one."""
    pool = app.extensions["boardlog"].service.pool
    held = [pool.getconn() for _ in range(pool.max_size)]
    release = threading.Event()

    def queue():
        try:
            with pool.connection(timeout=30):
                release.wait(30)
        except Exception:
            pass  # noqa

    queues = [threading.Thread(target=queue, daemon=True) for _ in range(queued)]
    for thread in queues:
        thread.start()
    wait_until(lambda: pool.get_stats().get("requests_waiting", 0) >= queued, 5, "the queued requests")
    try:
        yield pool
    finally:
        release.set()
        for conn in held:
            pool.putconn(conn)
        for thread in queues:
            thread.join(10)


def known_etag(app, client, game_id, player) -> str:
    """The player's ETag of the game once the process knows its version
    without a query (its LISTEN connection in place, its sweeps coming)."""
    from api.service.games import stream_of

    store = app.extensions["boardlog"].service.store
    wait_until(lambda: client.get(f"/v1/games/{game_id}/view", headers=player.auth) and
               store.known_version(stream_of(game_id)) is not None, 10, "the version known to the process")
    return client.get(f"/v1/games/{game_id}/view", headers=player.auth).headers["ETag"]


def _gaps(stream: HeldStream, start: float, end: float) -> list[float]:
    times = [start] + [when for when, _ in stream.chunks if start <= when <= end] + [end]
    return [later - earlier for earlier, later in zip(times, times[1:])]


def test_a_held_stream_keeps_its_heartbeats_while_the_pool_is_exhausted(client, small):
    ada, bob = Player(client, "ov-hb-ada"), Player(client, "ov-hb-bob")
    game_id = started_game([ada, bob])
    stream = HeldStream(small.test_client(), f"/v1/games/{game_id}/stream", ada.auth).started()
    # Nothing known of the game's version any more: the quiet check would need the database.
    small.extensions["boardlog"].service.store.recent.forget_all()
    with exhausted(small):
        start = time.monotonic()
        assert not stream.ends_within(2.5), stream.text
        end = time.monotonic()
    assert max(_gaps(stream, start, end)) < 1.5, "heartbeats went on"
    assert stream.ends_within(10)
    messages = stream.messages()
    assert [m.event for m in messages][-1] == "shutdown", "the stream ended at its lifetime, not by an error"


def test_a_stream_that_cannot_read_a_move_ends_with_a_retry_hint_and_a_problem(client, small):
    ada, bob = Player(client, "ov-mv-ada"), Player(client, "ov-mv-bob")
    game_id = started_game([ada, bob])
    stream = HeldStream(small.test_client(), f"/v1/games/{game_id}/stream", ada.auth).started()
    with exhausted(small):
        mover = next(p for p in (ada, bob) if p.view(game_id).json["seat"] in p.view(game_id).json["to_act"])
        assert mover.act(game_id, mover.legal(game_id)[0]).status_code == 200  # through another process
        assert stream.ends_within(10), "the stream heard the move and could not read it"
    last = stream.messages()[-1]
    assert last.event == "problem"
    assert last.json["status"] == 503 and last.json["type"].endswith("database-unavailable")
    assert "retry: " in stream.chunks[-1][1], "told when to come back"


def test_a_long_poll_waits_its_whole_wait_while_the_pool_is_exhausted(client, small):
    ada, bob = Player(client, "ov-lp-ada"), Player(client, "ov-lp-bob")
    game_id = started_game([ada, bob])
    poller = small.test_client()
    etag = known_etag(small, poller, game_id, ada)
    with exhausted(small):
        start = time.monotonic()
        response = poller.get(f"/v1/games/{game_id}/view?wait=2", headers={**ada.auth, "If-None-Match": etag})
        took = time.monotonic() - start
    assert response.status_code == 304 and took >= 2.0, (response.status_code, took)


def test_a_long_poll_that_cannot_know_the_version_answers_503_not_304(client, small):
    ada, bob = Player(client, "ov-uk-ada"), Player(client, "ov-uk-bob")
    game_id = started_game([ada, bob])
    poller = small.test_client()
    etag = poller.get(f"/v1/games/{game_id}/view", headers=ada.auth).headers["ETag"]
    small.extensions["boardlog"].service.store.recent.forget_all()
    with exhausted(small):
        start = time.monotonic()
        response = poller.get(f"/v1/games/{game_id}/view?wait=2", headers={**ada.auth, "If-None-Match": etag})
        took = time.monotonic() - start
    assert response.status_code == 503, (response.status_code, took)
    assert int(response.headers["Retry-After"]) > 0


def test_a_saturated_process_refuses_new_waiters_and_keeps_those_it_holds(client, small):
    ada, bob = Player(client, "ov-sat-ada"), Player(client, "ov-sat-bob")
    game_id = started_game([ada, bob])
    newcomer = small.test_client()
    etag = known_etag(small, newcomer, game_id, bob)
    held = HeldStream(small.test_client(), f"/v1/games/{game_id}/stream", ada.auth).started()
    with exhausted(small, queued=1):
        start = time.monotonic()
        poll = newcomer.get(f"/v1/games/{game_id}/view?wait=5", headers={**bob.auth, "If-None-Match": etag})
        stream = newcomer.get(f"/v1/games/{game_id}/stream", headers=bob.auth)
        refused_in = time.monotonic() - start
        ready = newcomer.get("/readyz")
        alive = newcomer.get("/healthz")
        assert not held.ends_within(1.0), "the stream held is served on"
    for response in (poll, stream):
        assert response.status_code == 503, response.get_data(as_text=True)
        assert response.json["type"].endswith("server-busy")
        assert int(response.headers["Retry-After"]) > 0
    assert refused_in < 1.0, "refused at once, not after queueing for the pool"
    assert ready.status_code == 503 and ready.json["saturation"]["pool_saturated"] is True
    assert alive.status_code == 200
    wait_until(lambda: newcomer.get("/readyz").status_code == 200, 5, "ready again once the pool is free")
    assert held.ends_within(10)
    assert held.messages()[-1].event == "shutdown"


def test_readyz_reports_waiters_near_their_limit(client, database_url):
    app = create_app({"DATABASE_URL": database_url, "REDIS_URL": None, "RATE_LIMIT_PER_MINUTE": 0,
                      "STREAMS": {"lifetime": 3.0, "heartbeat": HEARTBEAT, "total": 2}})
    try:
        ada, bob = Player(client, "ov-nr-ada"), Player(client, "ov-nr-bob")
        game_id = started_game([ada, bob])
        probe = app.test_client()
        assert probe.get("/readyz").status_code == 200
        streams = [HeldStream(app.test_client(), f"/v1/games/{game_id}/stream", p.auth).started() for p in (ada, bob)]
        ready = probe.get("/readyz")
        assert ready.status_code == 503
        assert ready.json["saturation"]["waiters"] == 2 and ready.json["saturation"]["waiters_near_limit"]
        assert probe.get("/healthz").status_code == 200
        for stream in streams:
            stream.close()
    finally:
        app.extensions["boardlog"].service.store.close()


def test_a_held_player_stream_keeps_its_heartbeats_while_the_pool_is_exhausted(client, small):
    ada, bob = Player(client, "ov-ps-ada"), Player(client, "ov-ps-bob")
    started_game([ada, bob])
    stream = HeldStream(small.test_client(), "/v1/players/me/stream", ada.auth).started()
    with exhausted(small):
        start = time.monotonic()
        assert not stream.ends_within(2.5), stream.text
        end = time.monotonic()
    assert max(_gaps(stream, start, end)) < 1.5, "heartbeats went on"
    assert stream.ends_within(10)
    assert stream.messages()[-1].event == "shutdown"


def test_reconnection_hints_are_jittered_so_that_clients_do_not_come_back_together(client, service):
    ada, bob = Player(client, "ov-jt-ada"), Player(client, "ov-jt-bob")
    game_id = started_game([ada, bob])
    # Streams of half a second: each is read to its end, and only its first message matters.
    brief = create_app({"RATE_LIMIT_PER_MINUTE": 0, "STREAMS": {"lifetime": 0.5, "heartbeat": HEARTBEAT}},
                       service=service)
    retry_ms = brief.extensions["boardlog"].streams.retry_ms
    hints = set()
    for _ in range(6):
        stream = HeldStream(brief.test_client(), f"/v1/games/{game_id}/stream", ada.auth).started()
        stream.close()
        hints.update(int(line.split(": ")[1]) for line in stream.text.splitlines() if line.startswith("retry: "))
    assert len(hints) > 1, hints
    assert all(retry_ms <= hint <= 2 * retry_ms for hint in hints), hints


def test_a_herd_of_streams_opening_on_one_game_costs_one_load_at_most(client, small, monkeypatch):
    ada, bob = Player(client, "ov-herd-ada"), Player(client, "ov-herd-bob")
    game_id = started_game([ada, bob])
    service = small.extensions["boardlog"].service
    known_etag(small, small.test_client(), game_id, ada)  # the process holds the game at the version it knows
    real_load, loads = service.load, []

    def counted(gid, trust_known=False, **kwargs):
        loads.append(gid)
        return real_load(gid, trust_known, **kwargs)

    monkeypatch.setattr(service, "load", counted)
    herd = [threading.Thread(target=lambda: HeldStream(small.test_client(), f"/v1/games/{game_id}/stream").close())
            for _ in range(20)]
    for thread in herd:
        thread.start()
    for thread in herd:
        thread.join(30)
    assert len(loads) <= 1, f"{len(loads)} loads for 20 newcomers"


def test_a_held_player_stream_woken_while_the_pool_is_exhausted_reads_later_instead_of_ending(client, small):
    """Something moves for the player while no connection is free (a notice
    arriving late, a game joined): the stream keeps its heartbeats, reads
    once a connection is free again, and ends at its lifetime, not with a 503."""
    from api.service.games import player_channel

    ada, bob = Player(client, "ov-pw-ada"), Player(client, "ov-pw-bob")
    started_game([ada, bob])
    stream = HeldStream(small.test_client(), "/v1/players/me/stream", ada.auth).started()
    store = small.extensions["boardlog"].service.store
    with exhausted(small):
        store.announce(player_channel(ada.id), 1)  # wakes the stream: its games and notices are read again
        assert not stream.ends_within(2.5), stream.text
    assert stream.ends_within(10)
    assert stream.messages()[-1].event == "shutdown", stream.text
