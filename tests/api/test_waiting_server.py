"""Waiting over real sockets, under the production server (gunicorn's gevent
worker with api/processes/gunicorn_conf.py) on the test's PostgreSQL and Redis:
hundreds of held waiters while commands and health checks are answered;
exactly-once delivery across a reconnect; slow clients; shutdown."""

from __future__ import annotations

import http.client
import json
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import requests

from api.processes.serving import raise_fd_limit
from tests.support.sse import parse
from tests.support.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
HELD_POLLS, HELD_STREAMS = 200, 100


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_answering(process, base, log_path, timeout=60):
    """Until the server answers its health check (it must not exit meanwhile)."""
    deadline = time.monotonic() + timeout
    while True:
        assert process.poll() is None, Path(log_path).read_text()[-3000:]
        try:
            if requests.get(f"{base}/healthz", timeout=2).status_code == 200:
                return
        except requests.RequestException:
            pass
        assert time.monotonic() < deadline, f"{base} did not answer"
        time.sleep(0.2)


class Gunicorn:
    def __init__(self, database_url, redis_url, log_path, workers=1, options=(), **env):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        environment = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis_url,
                       "BOARDLOG_RATE_LIMIT": "0", "BOARDLOG_HEARTBEAT_SECONDS": "1",
                       "BOARDLOG_POOL_SIZE": "4", **env}
        self.log = open(log_path, "ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "python:api.processes.gunicorn_conf", "-w", str(workers),
             "-b", f"127.0.0.1:{self.port}", "--worker-connections", "2000", *options, "api.processes.wsgi:app"],
            cwd=ROOT, env=environment, stdout=self.log, stderr=self.log)
        wait_answering(self.process, self.base, log_path)

    def stop(self, how=signal.SIGTERM):
        """SIGTERM: a graceful stop; SIGQUIT: a quick one."""
        if self.process.poll() is None:
            self.process.send_signal(how)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


@pytest.fixture(scope="module")
def server(database_url, redis_url, tmp_path_factory):
    raise_fd_limit(8192)
    gunicorn = Gunicorn(database_url, redis_url, tmp_path_factory.mktemp("gunicorn") / "log")
    yield gunicorn
    gunicorn.stop()


class Client:
    """A player over HTTP."""

    def __init__(self, base, name):
        self.base = base
        self.http = requests.Session()
        answer = self.http.post(f"{base}/v1/players", json={"name": name}, timeout=10).json()
        self.id, self.token = answer["id"], answer["token"]
        self.auth = {"Authorization": f"Bearer {self.token}"}

    def call(self, method, path, **kwargs):
        return self.http.request(method, f"{self.base}{path}", headers={**self.auth, **kwargs.pop("headers", {})},
                                 timeout=10, **kwargs)


def new_game(base):
    ada, bob = Client(base, "ada"), Client(base, "bob")
    game_id = ada.call("POST", "/v1/games", json={"game": "cronberg", "options": {"players": 2}}).json()["id"]
    assert bob.call("POST", f"/v1/games/{game_id}/join", json={}).status_code == 200
    assert ada.call("POST", f"/v1/games/{game_id}/start").status_code == 200
    return game_id, [ada, bob]


def move(game_id, players) -> int:
    """One legal command by whoever is to act; the new version."""
    for player in players:
        commands = player.call("GET", f"/v1/games/{game_id}/legal-commands").json()["commands"]
        if commands:
            answer = player.call("POST", f"/v1/games/{game_id}/commands", json=commands[0])
            assert answer.status_code == 200, answer.text
            return answer.json()["version"]
    raise AssertionError("nobody can act")


def raw_request(port, path, headers=None) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1", *[f"{k}: {v}" for k, v in (headers or {}).items()]]
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    return sock


def read_until(sock, marker: bytes, seen: bytes = b"", timeout: float = 30) -> bytes:
    deadline = time.monotonic() + timeout
    while marker not in seen:
        remaining = deadline - time.monotonic()
        assert remaining > 0, f"{marker!r} never came; got {seen[-300:]!r}"
        sock.settimeout(remaining)
        chunk = sock.recv(65536)
        assert chunk, f"closed before {marker!r}; got {seen[-300:]!r}"
        seen += chunk
    return seen


def test_hundreds_of_held_waiters_leave_commands_and_health_checks_answered(server):
    watched, watched_players = new_game(server.base)
    busy, busy_players = new_game(server.base)
    version = requests.get(f"{server.base}/v1/games/{watched}", timeout=10).json()["version"]
    polls = [raw_request(server.port, f"/v1/games/{watched}/view?wait=60", {"If-None-Match": "*"})
             for _ in range(HELD_POLLS)]
    streams = [raw_request(server.port, f"/v1/games/{watched}/stream") for _ in range(HELD_STREAMS)]
    try:
        received = [read_until(s, b"event: view") for s in streams]
        for _ in range(5):  # while they all wait
            assert requests.get(f"{server.base}/healthz", timeout=10).status_code == 200
            move(busy, busy_players)
            assert requests.get(f"{server.base}/readyz", timeout=10).status_code == 200
        readable, _, _ = select.select(polls, [], [], 0)
        assert readable == [], "a long-poll was answered (or closed) while its game did not move"
        new = move(watched, watched_players)
        marker = f"id: {new}".encode()
        for n, sock in enumerate(streams):
            received[n] = read_until(sock, marker, received[n])
            assert b"\r\n0\r\n\r\n" not in received[n]  # the stream is still open
        for sock in polls:
            answer = read_until(sock, b'"version":' + str(new).encode())
            assert answer.startswith(b"HTTP/1.1 200")
    finally:
        for sock in polls + streams:
            sock.close()
    assert new > version


def test_a_players_streams_are_capped_across_all_the_workers(database_url, redis_url, tmp_path):
    # --reuse-port: a listening socket per worker, between which the kernel spreads connections
    two = Gunicorn(database_url, redis_url, tmp_path / "log", workers=2, options=["--reuse-port"],
                   BOARDLOG_STREAMS_PER_PLAYER="2")
    try:
        wait_until(lambda: (tmp_path / "log").read_text().count("Booting worker") == 2, what="both workers")
        ada = Client(two.base, "ada")
        path = "/v1/players/me/stream"
        # both workers take some of these: neither lets more than the cap in, with the other's streams
        tries = [raw_request(two.port, path, ada.auth) for _ in range(20)]
        answers = [read_until(sock, b"\r\n\r\n") for sock in tries]
        opened = [sock for sock, answer in zip(tries, answers) if answer.startswith(b"HTTP/1.1 200")]
        refused = [answer for answer in answers if answer.startswith(b"HTTP/1.1 429")]
        assert (len(opened), len(refused)) == (2, 18)
        assert all(b"retry-after:" in answer.lower() for answer in refused)
        for sock in tries:
            sock.close()  # the worker of each open one hears of it at its next write, a heartbeat at the latest

        def opens():
            answer = requests.get(f"{two.base}{path}", headers=ada.auth, timeout=10, stream=True)
            answer.close()
            return answer.status_code == 200

        wait_until(opens, timeout=30, what="a stream to open once the held ones closed")
    finally:
        two.stop(signal.SIGQUIT)  # no need to wait for a graceful end here


def test_a_server_of_two_workers_holds_its_max_waiters_in_all_whichever_worker_takes_each(database_url, redis_url,
                                                                                         tmp_path):
    two = Gunicorn(database_url, redis_url, tmp_path / "log", workers=2, BOARDLOG_MAX_WAITERS="20",
                   BOARDLOG_POOL_SIZE="8")
    try:
        wait_until(lambda: (tmp_path / "log").read_text().count("Booting worker") == 2, what="both workers")
        watched, _ = new_game(two.base)
        polls = [raw_request(two.port, f"/v1/games/{watched}/view?wait=60", {"If-None-Match": "*"})
                 for _ in range(30)]
        wait_until(lambda: len(select.select(polls, [], [], 0)[0]) >= 10, 30, "the refusals")

        def twenty_held():
            saturation = requests.get(f"{two.base}/readyz", timeout=10).json()["saturation"]
            return saturation if saturation["server_waiters"] == 20 else None

        ready = wait_until(twenty_held, 30, "twenty held by the two workers together")
        assert ready["max_waiters"] == 20 and ready["waiters_near_limit"]
        answered = select.select(polls, [], [], 0)[0]
        heads = [read_until(sock, b"\r\n\r\n") for sock in answered]
        assert len(heads) == 10 and all(head.startswith(b"HTTP/1.1 503") for head in heads), heads
        assert all(b"retry-after:" in head.lower() for head in heads)
        for sock in polls:
            sock.close()
    finally:
        two.stop(signal.SIGQUIT)


class EventReader:
    """A stream read message by message over http.client (chunked decoding included)."""

    def __init__(self, port, path, headers=None):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.conn.request("GET", path, headers=headers or {})
        self.response = self.conn.getresponse()
        assert self.response.status == 200, self.response.read()

    def messages(self):
        block = b""
        while True:
            line = self.response.readline()
            if not line:
                return
            block += line
            if line in (b"\n", b"\r\n"):
                for message in parse(block.decode())[0]:
                    yield message
                block = b""

    def close(self):
        self.conn.close()


def test_a_stream_client_sees_every_version_once_and_in_order_across_a_reconnect(server):
    game_id, players = new_game(server.base)
    moves = 12

    def play():
        for _ in range(moves):
            move(game_id, players)
            time.sleep(0.05)

    seen: list[int] = []
    reader = EventReader(server.port, f"/v1/games/{game_id}/stream?after=0")
    mover = threading.Thread(target=play)
    mover.start()
    final = None
    try:
        for message in reader.messages():
            if message.event == "message":
                seen.append(int(message.id))
            if len(seen) >= 8:
                break  # the connection drops mid-game
        reader.close()
        reader = EventReader(server.port, f"/v1/games/{game_id}/stream", {"Last-Event-ID": str(seen[-1])})
        mover.join(60)
        final = requests.get(f"{server.base}/v1/games/{game_id}", timeout=10).json()["version"]
        for message in reader.messages():
            if message.event == "message":
                seen.append(int(message.id))
            if message.event == "view" and int(message.id) == final:
                break
    finally:
        reader.close()
        mover.join(60)
    assert seen == list(range(1, final + 1))


def test_a_ticket_opens_a_stream_over_a_real_socket_once(server):
    game_id, (ada, _) = new_game(server.base)
    ticket = ada.call("POST", "/v1/stream-tickets").json()["ticket"]
    reader = EventReader(server.port, f"/v1/games/{game_id}/stream?ticket={ticket}")
    try:
        first = next(m for m in reader.messages() if m.event == "view")
        assert first.json["seat"] is not None
    finally:
        reader.close()
    again = requests.get(f"{server.base}/v1/games/{game_id}/stream?ticket={ticket}", timeout=10)
    assert again.status_code == 401


def test_a_client_that_stops_reading_is_closed_and_the_server_goes_on(database_url, redis_url, tmp_path):
    slow_server = Gunicorn(database_url, redis_url, tmp_path / "log", BOARDLOG_STREAM_WRITE_TIMEOUT="1",
                           BOARDLOG_SOCKET_SNDBUF="4096")
    try:
        game_id, players = new_game(slow_server.base)
        for _ in range(30):
            move(game_id, players)
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
        sock.connect(("127.0.0.1", slow_server.port))
        sock.sendall(f"GET /v1/games/{game_id}/stream?after=0 HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        reader = EventReader(slow_server.port, f"/v1/games/{game_id}/stream")  # one that reads
        time.sleep(3)  # the slow one reads nothing meanwhile
        closed = False
        sock.settimeout(10)
        try:
            while sock.recv(65536):
                pass
            closed = True
        except ConnectionResetError:
            closed = True
        except socket.timeout:
            pass
        sock.close()
        assert closed, "the server kept a stream whose client read nothing"
        version = move(game_id, players)
        assert any(m.event == "message" and int(m.id) == version for m in reader.messages())
        reader.close()
    finally:
        slow_server.stop()


def test_shutdown_ends_each_stream_with_a_retry_hint(database_url, redis_url, tmp_path):
    doomed = Gunicorn(database_url, redis_url, tmp_path / "log")
    try:
        game_id, _ = new_game(doomed.base)
        streams = [raw_request(doomed.port, f"/v1/games/{game_id}/stream") for _ in range(3)]
        received = [read_until(s, b"event: view") for s in streams]
        doomed.process.send_signal(signal.SIGTERM)
        for n, sock in enumerate(streams):
            text = read_until(sock, b"event: shutdown", received[n]).decode()
            assert "retry: " in text.split("event: view")[1]
            sock.close()
        assert doomed.process.wait(30) == 0
    finally:
        doomed.stop()


def test_boardlog_serve_runs_the_gevent_server_and_ends_streams_with_a_retry_hint_when_stopped(
        database_url, redis_url, tmp_path):
    port = free_port()
    env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis_url, "BOARDLOG_RATE_LIMIT": "0"}
    with open(tmp_path / "log", "ab") as log:
        serve = subprocess.Popen([sys.executable, "-m", "api.processes.cli", "serve", "--port", str(port)],
                                 cwd=ROOT, env=env, stdout=log, stderr=log)
        try:
            base = f"http://127.0.0.1:{port}"
            wait_answering(serve, base, tmp_path / "log")
            game_id, players = new_game(base)
            streams = [raw_request(port, f"/v1/games/{game_id}/stream") for _ in range(3)]
            polls = [raw_request(port, f"/v1/games/{game_id}/view?wait=60", {"If-None-Match": "*"}) for _ in range(3)]
            received = [read_until(s, b"event: view") for s in streams]
            assert requests.get(f"{base}/healthz", timeout=10).status_code == 200  # while they wait
            serve.send_signal(signal.SIGTERM)
            for n, sock in enumerate(streams):
                assert "retry: " in read_until(sock, b"event: shutdown", received[n]).decode().split("event: view")[1]
            for sock in polls:
                assert read_until(sock, b"\r\n\r\n").startswith(b"HTTP/1.1 304")  # answered at once, not in 60 s
            for sock in streams + polls:
                sock.close()
            assert serve.wait(60) == 0
        finally:
            if serve.poll() is None:
                serve.kill()
                serve.wait()
