"""While PostgreSQL is away no connection comes back to the pool: a request
waits at most BOARDLOG_POOL_TIMEOUT for one, then answers 503 with
Retry-After, instead of hanging for psycopg_pool's default 30 s."""

from __future__ import annotations

import threading

from api.http.app import create_app


def test_a_request_that_finds_no_free_connection_fails_fast_with_a_503(database_url):
    app = create_app({"DATABASE_URL": database_url, "REDIS_URL": None, "POOL_SIZE": 1, "POOL_TIMEOUT": 0.5})
    service = app.extensions["boardlog"].service
    held = service.pool.getconn()  # the pool's only connection, as if every other request held it
    answered = threading.Event()
    responses = []

    def ask():
        responses.append(app.test_client().get("/v1/games"))
        answered.set()

    try:
        threading.Thread(target=ask, daemon=True).start()
        # Far longer than the bound and shorter than the old 30 s wait: the
        # request must have given up while the connection is still held.
        assert answered.wait(15), "the request still waits for a connection"
    finally:
        service.pool.putconn(held)
        answered.wait(30)
        service.store.close()
    response = responses[0]
    assert response.status_code == 503, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    assert int(response.headers["Retry-After"]) > 0


def test_the_pool_wait_is_a_setting(monkeypatch):
    from api.http.app import settings

    monkeypatch.setenv("BOARDLOG_POOL_TIMEOUT", "1.5")
    assert settings()["POOL_TIMEOUT"] == 1.5
