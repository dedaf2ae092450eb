import socket
import threading

import pytest
from flask import request

from api.http.app import create_app
from api.http.limits import RateLimiter, seconds_until_admitted


@pytest.fixture
def limited(service, redis):
    return create_app({"RATE_LIMIT_PER_MINUTE": 5, "CORS_ORIGINS": "https://play.example"}, service=service, redis=redis)


def test_a_client_over_its_rate_limit_gets_a_429_with_retry_after(limited):
    client = limited.test_client()
    codes = [client.get("/v1/rules").status_code for _ in range(7)]
    assert codes[:5] == [200] * 5 and codes[5:] == [429, 429]
    response = client.get("/v1/rules")
    assert response.mimetype == "application/problem+json"
    assert 1 <= int(response.headers["Retry-After"]) <= 120


def test_a_burst_across_a_minutes_boundary_is_still_limited(app, redis):
    now = [600.0 - 0.5]  # half a second before a minute's boundary
    # No background sync: a thread left running would write this test's counts into the next test's Redis.
    limiter = RateLimiter(redis, 5, clock=lambda: now[0], sync_every=None)
    with app.test_request_context("/v1/rules"):
        assert [limiter.check(request) for _ in range(5)] == [None] * 5
        now[0] = 600.5  # the first second of the next minute: the previous one still weighs almost fully
        refused = limiter.check(request)
    assert refused is not None and refused.status_code == 429
    assert refused.headers["Retry-After"] == "12"  # until a fifth of the previous minute has faded


def test_a_refused_client_is_told_the_exact_wait_until_one_more_request_fits():
    # within the window: the previous minute's weight must fade from 4 to 3 of 4
    assert seconds_until_admitted(5, previous=4, current=1, elapsed=0.0) == 15
    # the window is full: into the next, until four fifths of this one have faded
    assert seconds_until_admitted(5, previous=0, current=5, elapsed=0.5) == 30 + 12
    # never less than a second
    assert seconds_until_admitted(5, previous=0, current=5, elapsed=0.9999, window=60) >= 1


def _register(client, name, address="10.0.0.9"):
    response = client.post("/v1/players", json={"name": name}, environ_base={"REMOTE_ADDR": address})
    assert response.status_code == 201, response.json
    return {"Authorization": f"Bearer {response.json['token']}"}


def test_one_player_over_the_limit_does_not_lock_out_others_behind_the_same_address(limited):
    client = limited.test_client()
    behind_one_proxy = {"REMOTE_ADDR": "10.0.0.1"}
    ada = _register(client, "ada-limited", address="10.0.0.7")
    bob = _register(client, "bob-limited", address="10.0.0.8")
    codes = [client.get("/v1/rules", headers=ada, environ_base=behind_one_proxy).status_code for _ in range(7)]
    assert codes[5:] == [429, 429]
    assert client.get("/v1/rules", headers=bob, environ_base=behind_one_proxy).status_code == 200
    registration = client.post("/v1/players", json={"name": "carol"}, environ_base=behind_one_proxy)
    assert registration.status_code == 201, registration.json


def test_a_player_is_limited_per_token_from_any_address(limited):
    client = limited.test_client()
    ada = _register(client, "ada-roaming")
    for n in range(5):
        client.get("/v1/rules", headers=ada, environ_base={"REMOTE_ADDR": f"10.0.1.{n}"})
    assert client.get("/v1/rules", headers=ada, environ_base={"REMOTE_ADDR": "10.0.1.99"}).status_code == 429


def test_made_up_tokens_count_against_their_address(limited):
    client = limited.test_client()
    address = {"REMOTE_ADDR": "10.0.2.1"}
    codes = [client.get("/v1/rules", headers={"Authorization": f"Bearer made-up-{n}"}, environ_base=address).status_code
             for n in range(7)]
    assert codes[5:] == [429, 429]


def _anonymous_burst(client, forwarded_for):
    return [client.get("/v1/rules", headers={"X-Forwarded-For": f"203.0.113.{n}"} if forwarded_for else {},
                       environ_base={"REMOTE_ADDR": "10.0.3.1"}).status_code for n in range(7)]


def test_spoofing_x_forwarded_for_does_nothing_while_no_proxy_is_trusted(limited):
    assert limited.config["TRUSTED_PROXIES"] == 0  # the default
    assert _anonymous_burst(limited.test_client(), forwarded_for=True)[5:] == [429, 429]


def test_a_trusted_proxy_gives_each_forwarded_client_its_own_limit(service, redis):
    app = create_app({"RATE_LIMIT_PER_MINUTE": 5, "TRUSTED_PROXIES": 1}, service=service, redis=redis)
    assert _anonymous_burst(app.test_client(), forwarded_for=True) == [200] * 7


def test_an_allowed_origin_may_call_the_api_from_a_browser(limited):
    client = limited.test_client()
    response = client.get("/v1/rules", headers={"Origin": "https://play.example"})
    assert response.headers["Access-Control-Allow-Origin"] == "https://play.example"
    assert "ETag" in response.headers["Access-Control-Expose-Headers"]
    preflight = client.options("/v1/games", headers={"Origin": "https://play.example", "Access-Control-Request-Method": "POST"})
    assert preflight.status_code == 200
    assert "Idempotency-Key" in preflight.headers["Access-Control-Allow-Headers"]


def test_another_origin_gets_no_cors_headers(limited):
    response = limited.test_client().get("/v1/rules", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in response.headers


def test_health_probes_are_never_rate_limited(limited):
    client = limited.test_client()
    for _ in range(8):
        client.get("/v1/rules")
    assert client.get("/v1/rules").status_code == 429
    assert client.get("/healthz").status_code == 200
    assert client.get("/readyz").status_code == 200


def test_a_redis_that_hangs_instead_of_refusing_does_not_hold_requests(database_url):
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(16)  # accepts connections and never says a word
    try:
        app = create_app({"DATABASE_URL": database_url, "REDIS_URL": f"redis://127.0.0.1:{silent.getsockname()[1]}/0",
                          "RATE_LIMIT_PER_MINUTE": 5})
        answers = []
        asking = threading.Thread(target=lambda: answers.append(app.test_client().get("/v1/rules").status_code),
                                  daemon=True)
        asking.start()
        asking.join(60)
        assert answers == [200], "the request was held by a Redis that never answers"
        app.extensions["boardlog"].service.store.close()
    finally:
        silent.close()


def _keys(redis, minute: int = 630 // 60):
    """The counts kept for the minute these tests' clocks stand at (630 s): the apps of other tests in
    this process go on exchanging their own counts, at the real time's minute, in the same database."""
    return {key.decode(): int(redis.get(key)) for key in redis.keys(f"boardlog:rate:*:{minute}")}


def test_a_request_is_admitted_without_a_redis_round_trip_and_counted_in_redis_at_the_next_exchange(app, redis):
    limiter = RateLimiter(redis, 5, clock=lambda: 630.0, sync_every=None)
    with app.test_request_context("/v1/rules"):
        assert [limiter.check(request) for _ in range(3)] == [None] * 3
        assert _keys(redis) == {}, "nothing was sent while admitting"
        limiter.sync()
    assert list(_keys(redis).values()) == [3]


def test_two_processes_share_one_limit_once_they_have_exchanged_counts(app, redis):
    first, second = (RateLimiter(redis, 5, clock=lambda: 630.0, sync_every=None) for _ in range(2))
    with app.test_request_context("/v1/rules"):
        assert [first.check(request) for _ in range(3)] == [None] * 3
        first.sync()
        assert second.check(request) is None  # second has not heard of first's three yet
        second.sync()  # now it has: 4 of 5 are spent
        assert second.check(request) is None
        refused = second.check(request)
        assert refused is not None and refused.status_code == 429
        second.sync()
        first.sync()
        assert first.check(request).status_code == 429, "first has learnt what second let in"
    assert list(_keys(redis).values()) == [5]


def test_while_redis_is_unreachable_a_process_still_limits_on_its_own_counts(app):
    from redis import Redis

    unreachable = Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.2, socket_timeout=0.2)
    limiter = RateLimiter(unreachable, 5, clock=lambda: 630.0, sync_every=None)
    with app.test_request_context("/v1/rules"):
        assert [limiter.check(request) for _ in range(5)] == [None] * 5
        limiter.sync()  # fails, and keeps the counts
        refused = limiter.check(request)
    assert refused is not None and refused.status_code == 429


def test_an_exchange_that_fails_after_a_quiet_spell_keeps_the_counts_and_raises_nothing(app, redis):
    from redis import Redis

    limiter = RateLimiter(redis, 5, clock=lambda: 630.0, sync_every=None)
    with app.test_request_context("/v1/rules"):
        assert [limiter.check(request) for _ in range(4)] == [None] * 4
        limiter.sync()  # sent: nothing is left unsent
        limiter.redis = Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.2, socket_timeout=0.2)
        limiter.sync()  # nothing to send, only the others' counts to learn, and Redis is away
        assert limiter.check(request) is None
        assert limiter.check(request).status_code == 429, "the counts still limit while Redis is away"
