import pytest

from api.app import create_app


@pytest.fixture
def limited(service, redis):
    return create_app({"RATE_LIMIT_PER_MINUTE": 5, "CORS_ORIGINS": "https://play.example"}, service=service, redis=redis)


def test_a_client_over_its_rate_limit_gets_a_429_with_retry_after(limited):
    client = limited.test_client()
    codes = [client.get("/v1/rules").status_code for _ in range(7)]
    assert codes[:5] == [200] * 5 and codes[5:] == [429, 429]
    response = client.get("/v1/rules")
    assert response.mimetype == "application/problem+json"
    assert 1 <= int(response.headers["Retry-After"]) <= 60


def test_limits_count_per_token_as_well_as_per_address(limited, redis):
    client = limited.test_client()
    for _ in range(5):
        client.get("/v1/rules", headers={"Authorization": "Bearer one"}, environ_base={"REMOTE_ADDR": "10.0.0.1"})
    other_address = client.get("/v1/rules", headers={"Authorization": "Bearer one"}, environ_base={"REMOTE_ADDR": "10.0.0.2"})
    assert other_address.status_code == 429
    other_token = client.get("/v1/rules", headers={"Authorization": "Bearer two"}, environ_base={"REMOTE_ADDR": "10.0.0.3"})
    assert other_token.status_code == 200


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
