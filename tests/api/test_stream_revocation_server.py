"""Revocation ends streams under the production server too (gunicorn's
gevent worker, real sockets): two API processes on one PostgreSQL and
Redis, the token revoked on one, its stream held by the other, which finds
out by its own look for revoked tokens (half the token cache time)."""

from __future__ import annotations

import time

import requests

from tests.support.sse import parse

from .test_waiting_server import Client, Gunicorn, new_game, raw_request, read_until

CACHE_SECONDS = 2


def test_a_stream_on_one_server_process_ends_when_its_token_is_revoked_on_another(database_url, redis_url, tmp_path):
    first = Gunicorn(database_url, redis_url, tmp_path / "first.log", BOARDLOG_TOKEN_CACHE_SECONDS=str(CACHE_SECONDS))
    second = Gunicorn(database_url, redis_url, tmp_path / "second.log", BOARDLOG_TOKEN_CACHE_SECONDS=str(CACHE_SECONDS))
    try:
        game_id, (ada, _) = new_game(first.base)
        phone = ada.call("POST", "/v1/players/me/tokens", json={"label": "phone"}).json()
        streams = [raw_request(second.port, f"/v1/games/{game_id}/stream",
                               {"Authorization": f"Bearer {phone['token']}"}),
                   raw_request(second.port, "/v1/players/me/stream", {"Authorization": f"Bearer {phone['token']}"})]
        seen = [read_until(streams[0], b"event: view"), read_until(streams[1], b"id: ")]
        revoked_at = time.monotonic()
        assert ada.call("DELETE", f"/v1/players/me/tokens/{phone['id']}").status_code == 204
        for n, sock in enumerate(streams):
            seen[n] = read_until(sock, b"event: problem", seen[n], timeout=CACHE_SECONDS + 5)
            assert time.monotonic() - revoked_at < CACHE_SECONDS + 1, "later than the revocation bound"
            body = seen[n].split(b"\r\n\r\n", 1)[1].decode(errors="replace")
            problem = [m for m in parse(body)[0] if m.event == "problem"]
            assert problem and problem[0].json["type"].endswith("/token-revoked")
            sock.close()
        assert requests.get(f"{second.base}/v1/players/me/stream", timeout=10,
                            headers={"Authorization": f"Bearer {phone['token']}"}).status_code == 401
    finally:
        first.stop()
        second.stop()
