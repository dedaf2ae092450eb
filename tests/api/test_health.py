from api.http.app import create_app


def test_healthz_says_the_process_is_alive(client):
    assert client.get("/healthz").json == {"status": "ok"}


def test_readyz_checks_postgres_and_redis(service, redis):
    app = create_app({"RATE_LIMIT_PER_MINUTE": 0}, service=service, redis=redis)
    response = app.test_client().get("/readyz")
    assert response.status_code == 200
    assert response.json["status"] == "ready"
    assert response.json["checks"] == {"postgres": "ok", "redis": "ok"}


def test_readyz_is_a_503_when_redis_is_unreachable(service):
    from redis import Redis

    unreachable = Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.5)
    app = create_app({"RATE_LIMIT_PER_MINUTE": 0}, service=service, redis=unreachable)
    response = app.test_client().get("/readyz")
    assert response.status_code == 503
    assert response.json["checks"]["redis"].startswith("unreachable")
    assert response.json["checks"]["postgres"] == "ok"
