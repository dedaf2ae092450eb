"""Admission: a process refuses newcomers, never those it holds, at its
limits, each refusal a problem document with Retry-After. One client
cannot fill a process (long-polls per token, waiters without a token per
address: 429); the workers of one server refuse at their total together,
not each at its own (503); a process above its memory bound refuses
newcomers and says so on /readyz; memory goes back to the system once the
waiters fell to half their peak."""

from __future__ import annotations

import threading

import pytest

from api.http import waiter_board
from api.http.app import create_app
from api.http.memory_return import MIN_SPIKE, MemoryReturn
from tests.support.open_stream import HeldStream
from tests.support.waiting import wait_until

from .conftest import Player, started_game


def process(service, **limits):
    return create_app({"RATE_LIMIT_PER_MINUTE": 0, "STREAMS": {"lifetime": 2.0, "heartbeat": 0.3, **limits}},
                      service=service)


def long_polls(client, path: str, headers: dict, count: int) -> list:
    """``count`` long-polls sent at once; their answers once they all came back."""
    answers, lock = [], threading.Lock()

    def poll():
        response = client.get(path, headers=headers)
        with lock:
            answers.append(response)

    threads = [threading.Thread(target=poll) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return answers


def refused_politely(response, status: int, kind: str) -> bool:
    return (response.status_code == status and response.mimetype == "application/problem+json"
            and response.json["type"].endswith(f"/{kind}") and int(response.headers["Retry-After"]) > 0)


def test_one_token_holds_at_most_its_long_polls_and_other_players_still_wait(service):
    app = process(service, long_polls_per_token=3)
    client = app.test_client()
    ada, bob = Player(client, "ad-tk-ada"), Player(client, "ad-tk-bob")
    game_id = started_game([ada, bob])
    path = f"/v1/games/{game_id}/view?wait="
    streams = app.extensions["boardlog"].streams
    flood = threading.Thread(target=lambda: answers.extend(
        long_polls(client, path + "3", {**ada.auth, "If-None-Match": "*"}, 8)))
    answers: list = []
    flood.start()
    wait_until(lambda: streams.count() == 3, 10, "three of ada's long-polls waiting")
    assert client.get(path + "1", headers={**bob.auth, "If-None-Match": "*"}).status_code == 304, "bob waits"
    flood.join(30)
    refused = [a for a in answers if a.status_code == 429]
    assert len(refused) == 5 and all(refused_politely(a, 429, "too-many-waiters") for a in refused)
    assert "this token" in refused[0].json["detail"]
    assert sorted(a.status_code for a in answers) == [304] * 3 + [429] * 5


def test_waiters_without_a_token_from_one_address_are_capped_streams_and_long_polls_together(service):
    app = process(service, waiters_per_address=3)
    client = app.test_client()
    ada, bob = Player(client, "ad-ad-ada"), Player(client, "ad-ad-bob")
    game_id = started_game([ada, bob])
    spectators = [HeldStream(client, f"/v1/games/{game_id}/stream").started() for _ in range(2)]
    answers = long_polls(client, f"/v1/games/{game_id}/view?wait=1", {"If-None-Match": "*"}, 3)
    refused = [a for a in answers if a.status_code == 429]
    assert len(refused) >= 2 and all(refused_politely(a, 429, "too-many-waiters") for a in refused)
    seated = HeldStream(client, f"/v1/games/{game_id}/stream", ada.auth)
    assert seated.status == 200, "a player's own stream is capped per player, not per address"
    for stream in spectators + [seated]:
        stream.close()


def test_the_workers_of_one_server_refuse_at_their_total_not_each_at_its_own(service):
    board = waiter_board.WaiterBoard(slots=4)
    first, second = process(service, total=3), process(service, total=3)
    for slot, app in enumerate((first, second)):
        app.extensions["boardlog"].streams.board = waiter_board.WorkerCount(board, slot)
    ada, bob = Player(first.test_client(), "ad-bd-ada"), Player(first.test_client(), "ad-bd-bob")
    game_id = started_game([ada, bob])
    path = f"/v1/games/{game_id}/stream"
    held = [HeldStream(first.test_client(), path).started() for _ in range(2)]
    held.append(HeldStream(second.test_client(), path).started())
    assert board.total() == 3
    for app in (first, second):
        assert refused_politely(app.test_client().get(path), 503, "server-busy")
    ready = second.test_client().get("/readyz")
    assert ready.status_code == 503 and ready.json["saturation"]["server_waiters"] == 3
    assert ready.json["saturation"]["waiters"] == 1
    for stream in held:
        stream.close()
    assert board.total() == 0


def test_a_worker_that_exited_counts_none_of_its_waiters_and_its_slot_serves_the_next(monkeypatch):
    board = waiter_board.WaiterBoard(slots=2)
    monkeypatch.setattr(waiter_board, "_board", board)
    first = waiter_board.assign(set())
    second = waiter_board.assign({first})
    assert (first, second) == (0, 1) and waiter_board.assign({first, second}) is None
    board.set(first, 120)
    board.set(second, 80)
    waiter_board.release(first)  # the master reaped it
    assert board.total() == 80
    assert waiter_board.assign({second}) == first and board.total() == 80


def test_a_process_above_its_memory_bound_refuses_new_waiters_and_keeps_those_it_holds(service):
    app = process(service)
    client = app.test_client()
    ada, bob = Player(client, "ad-mem-ada"), Player(client, "ad-mem-bob")
    game_id = started_game([ada, bob])
    held = HeldStream(client, f"/v1/games/{game_id}/stream", ada.auth).started()
    app.extensions["boardlog"].streams.max_memory_mb = 1  # any process is above that
    assert refused_politely(client.get(f"/v1/games/{game_id}/stream", headers=bob.auth), 503, "server-busy")
    poll = client.get(f"/v1/games/{game_id}/view?wait=1", headers={**bob.auth, "If-None-Match": "*"})
    assert refused_politely(poll, 503, "server-busy")
    ready, alive = client.get("/readyz"), client.get("/healthz")
    assert ready.status_code == 503 and ready.json["saturation"]["memory_over_limit"] is True
    assert alive.status_code == 200
    assert held.ends_within(10) and held.messages()[-1].event == "shutdown", "the held stream ran its life"


class CountedTrim:
    """Stands for glibc's malloc_trim (no storage here): how often memory was handed back."""

    def __init__(self):
        self.calls = 0

    def __call__(self, pad):
        self.calls += 1
        return 1


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


@pytest.fixture
def memory():
    clock = Clock()
    memory = MemoryReturn(clock)
    memory._trim = CountedTrim()
    return memory, clock


def test_memory_is_given_back_once_the_waiters_fell_to_half_their_peak_and_no_more_often_than_its_interval(memory):
    memory, clock = memory
    memory.held(4 * MIN_SPIKE)
    memory.held(3 * MIN_SPIKE)
    memory.tick()
    assert memory._trim.calls == 0, "three quarters of the peak: not yet"
    memory.held(2 * MIN_SPIKE)
    memory.tick()
    assert memory._trim.calls == 1
    memory.held(0)
    memory.tick()
    assert memory._trim.calls == 1, "not again within the interval"
    clock.now += 60
    memory.tick()
    assert memory._trim.calls == 2, "the rest, once the interval passed"
    clock.now += 60
    memory.tick()
    assert memory._trim.calls == 2, "nothing left since"


def test_a_few_waiters_leaving_give_nothing_back(memory):
    memory, clock = memory
    memory.held(MIN_SPIKE - 1)
    memory.held(0)
    clock.now += 60
    memory.tick()
    assert memory._trim.calls == 0


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_a_full_server_keeps_its_pollers_places_for_their_next_wait_and_refuses_newcomers(service):
    app = process(service, total=2)
    client = app.test_client()
    ada, bob, cyd = (Player(client, f"ad-kp-{name}") for name in ("ada", "bob", "cyd"))
    game_id = started_game([ada, bob])
    path = f"/v1/games/{game_id}/view?wait=1"
    streams = app.extensions["boardlog"].streams
    streams._clock = clock = Clock()
    for player in (ada, bob):  # two pollers fill the server; each waits, is answered, and will come back
        assert client.get(path, headers={**player.auth, "If-None-Match": "*"}).status_code == 304
    assert streams.kept() == 2 and streams.count() == 0
    refused = client.get(path, headers={**cyd.auth, "If-None-Match": "*"})
    assert refused_politely(refused, 503, "server-busy"), "a newcomer takes no place kept for a poller"
    for player in (ada, bob):
        assert client.get(path, headers={**player.auth, "If-None-Match": "*"}).status_code == 304, "came back"
    clock.now += 11  # a poller that does not come back within RETURN_SECONDS gives its place up
    assert streams.kept() == 0
    assert client.get(path, headers={**cyd.auth, "If-None-Match": "*"}).status_code == 304


def test_a_newcomer_from_a_pollers_address_cannot_take_the_place_kept_for_that_pollers_connection(service):
    app = process(service, total=2)
    client = app.test_client()
    ada, bob = Player(client, "ad-kc-ada"), Player(client, "ad-kc-bob")
    path = f"/v1/games/{started_game([ada, bob])}/view?wait=1"
    streams = app.extensions["boardlog"].streams
    streams._clock = clock = Clock()

    def poll_from_port(port: int):  # a spectator without a token, all from one address, each on its own connection
        return client.get(path, headers={"If-None-Match": "*"},
                          environ_overrides={"REMOTE_ADDR": "192.0.2.7", "REMOTE_PORT": str(port)})

    for port in (40001, 40002):  # two pollers fill the server; each waits, is answered, and will come back
        assert poll_from_port(port).status_code == 304
    assert streams.kept() == 2
    assert refused_politely(poll_from_port(40003), 503, "server-busy"), "a newcomer from the same address is refused"
    for port in (40001, 40002):
        assert poll_from_port(port).status_code == 304, "each poller came back to its own place"
    clock.now += 11
    assert streams.kept() == 0 and poll_from_port(40003).status_code == 304
