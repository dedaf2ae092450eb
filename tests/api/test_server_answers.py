"""What the HTTP servers answer themselves, before the app sees a request,
is a problem document too: through real gunicorn (api/processes/gunicorn_conf.py)
and through the gevent server of ``boardlog serve``."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time

import pytest
import requests

from tests.api.test_waiting_server import ROOT, Gunicorn, free_port


@pytest.fixture(scope="module")
def gunicorn(database_url, redis_url, tmp_path_factory):
    server = Gunicorn(database_url, redis_url, tmp_path_factory.mktemp("gunicorn") / "log")
    yield server
    server.stop()


def raw(port: int, request: bytes) -> tuple[int, dict, dict]:
    """Send bytes, read the whole answer: (status, headers, JSON body)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(request)
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), {k.lower(): v for k, v in headers.items()}, json.loads(body)


def test_a_mail_link_with_a_5000_character_token_reaches_the_app_and_gets_its_problem(gunicorn):
    response = requests.get(f"{gunicorn.base}/v1/notifications/confirm", params={"token": "t" * 5000}, timeout=10)
    assert response.status_code == 422, response.text[:300]
    assert response.headers["content-type"] == "application/problem+json"
    assert "token" in response.json()["errors"]


def test_a_request_line_past_gunicorns_limit_is_a_414_problem_document(gunicorn):
    status, headers, body = raw(gunicorn.port, b"GET /v1/games?x=" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    assert status == 414 and headers["content-type"] == "application/problem+json"
    assert body["type"].endswith("/uri-too-long") and body["status"] == 414
    assert "longer than this server reads" in body["detail"]


def test_a_header_past_gunicorns_limit_is_a_431_problem_document(gunicorn):
    status, headers, body = raw(gunicorn.port, b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 9000 + b"\r\n\r\n")
    assert status == 431 and headers["content-type"] == "application/problem+json"
    assert body["type"].endswith("/headers-too-large")


def test_a_request_that_is_not_http_is_a_400_problem_document(gunicorn):
    status, headers, body = raw(gunicorn.port, b"THIS IS NOT HTTP\r\n\r\n")
    assert status == 400 and headers["content-type"] == "application/problem+json"
    assert body["type"].endswith("/bad-request")


SERVE_SCRIPT = """
import sys, time
from gevent import monkey
monkey.patch_all()
from api.processes.serving import ApiServer

def app(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"ok"]

ApiServer(app, "127.0.0.1", int(sys.argv[1])).start()
print("listening", flush=True)
time.sleep(120)
"""


def test_the_gevent_server_of_boardlog_serve_answers_a_long_request_line_with_a_problem_document():
    port = free_port()
    server = subprocess.Popen([sys.executable, "-c", SERVE_SCRIPT, str(port)], cwd=ROOT, stdout=subprocess.PIPE,
                              text=True)
    try:
        assert server.stdout.readline().strip() == "listening"
        time.sleep(0.2)
        status, headers, body = raw(port, b"GET /?x=" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
        assert status == 414 and headers["content-type"] == "application/problem+json"
        assert body["type"].endswith("/uri-too-long")
        status, headers, body = raw(port, b"NOT HTTP AT ALL\r\n\r\n")
        assert status == 400 and headers["content-type"] == "application/problem+json"
    finally:
        server.kill()
        server.wait()
