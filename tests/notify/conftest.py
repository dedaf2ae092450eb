"""Notifications against real servers: a fresh PostgreSQL database per test
(the subscription follows a whole database's feed), a real HTTP receiver on
loopback and a real SMTP server (aiosmtpd), both started by the test."""

from __future__ import annotations

import json
import re
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from api.http.app import create_app
from api.service.games import GameService
from eventstore import PostgresEventStore, migrate
from eventstore.servers import temporary_database
from tests.support.waiting import wait_until  # noqa: F401 (tests import it from here)
from tests.support.seeds import TEST_SEEDS


@pytest.fixture
def notify_env(monkeypatch):
    monkeypatch.setenv("BOARDLOG_WEBHOOK_ALLOW_PRIVATE", "1")  # the receivers are on loopback
    monkeypatch.setenv("BOARDLOG_NOTIFY_BACKOFF", "0.1,0.2,0.3")
    monkeypatch.setenv("BOARDLOG_WEBHOOK_TIMEOUT", "1")
    monkeypatch.delenv("BOARDLOG_SMTP_URL", raising=False)


@pytest.fixture
def fresh_url(database_url):
    with temporary_database(database_url, prefix="boardlog_notify") as url:
        migrate(url)
        yield url


@pytest.fixture
def store(fresh_url):
    store = PostgresEventStore.connect(fresh_url, min_size=1, max_size=8)
    yield store
    store.close()


@pytest.fixture
def game_service(store):
    return GameService(store, seeds=TEST_SEEDS)


@pytest.fixture
def api(game_service, notify_env):
    return create_app({"RATE_LIMIT_PER_MINUTE": 0}, service=game_service).test_client()


class Caller:
    def __init__(self, client, name):
        self.client = client
        answer = client.post("/v1/players", json={"name": name}).json
        self.id, self.token = answer["id"], answer["token"]

    def call(self, method, path, **kwargs):
        headers = {"Authorization": f"Bearer {self.token}", **kwargs.pop("headers", {})}
        return self.client.open(path, method=method, headers=headers, **kwargs)


@pytest.fixture
def callers(api):
    return lambda n: [Caller(api, f"p{i}-{uuid.uuid4().hex[:4]}") for i in range(n)]


class Receiver:
    """An HTTP server on loopback that records what it is sent and answers
    as told: ``answers`` is a list of status codes used in turn (the last
    one repeats), or the words "hang" or "huge"."""

    def __init__(self):
        self.received: list[dict] = []
        self.answers: list = [204]
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                with receiver.lock:
                    receiver.received.append({"headers": {k.lower(): v for k, v in self.headers.items()},
                                              "body": body, "path": self.path, "at": time.monotonic()})
                    answer = receiver.answers[0] if len(receiver.answers) == 1 else receiver.answers.pop(0)
                if answer == "hang":
                    time.sleep(5)
                    return
                if answer == "huge":
                    self.send_response(200)
                    self.send_header("content-length", str(10 * 1024 * 1024))
                    self.end_headers()
                    try:
                        for _ in range(160):
                            self.wfile.write(b"x" * 65536)
                    except OSError:
                        pass
                    return
                if isinstance(answer, tuple):  # (status, location): a redirect
                    self.send_response(answer[0])
                    self.send_header("location", answer[1])
                    self.send_header("content-length", "0")
                    self.end_headers()
                    return
                self.send_response(answer)
                self.send_header("content-length", "0")
                self.end_headers()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def bodies(self) -> list[dict]:
        with self.lock:
            return [json.loads(r["body"]) for r in self.received]

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    r = Receiver()
    yield r
    r.close()


class Mailbox:
    def __init__(self):
        from aiosmtpd.controller import Controller

        self.messages: list = []
        box = self

        class Handler:
            async def handle_DATA(self, server, session, envelope):
                import email
                from email import policy

                box.messages.append(email.message_from_bytes(envelope.content, policy=policy.default))
                return "250 OK"

        import socket

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.controller = Controller(Handler(), hostname="127.0.0.1", port=port)
        self.controller.start()
        self.url = f"smtp://127.0.0.1:{port}"

    def close(self):
        self.controller.stop()


@pytest.fixture
def push_service():
    """A push service of the test's own (tests/notify/pushservice.py)."""
    from .pushservice import PushService

    service = PushService()
    yield service
    service.close()


@pytest.fixture
def mailbox(monkeypatch):
    box = Mailbox()
    monkeypatch.setenv("BOARDLOG_SMTP_URL", box.url)
    yield box
    box.close()




SIGNIN_LINK = re.compile(r"https?://[^\s\"<>]+?#/games/([0-9a-f-]{36})\?signin=([A-Za-z0-9_\-]+)")


def signin_links(message) -> list[tuple[str, str, str]]:
    """The sign-in links of a mail's plain-text part, in order: (link, game id, code)."""
    text = message.get_body(("plain",)).get_content()
    return [(match.group(0), match.group(1), match.group(2)) for match in SIGNIN_LINK.finditer(text)]


def started_game(game_service, players, game="cronberg", options=None):
    host, *others = players
    if options is None:
        from domain import games as registry
        from tests.games.conformance.playouts import options_for

        options = options_for(registry.REGISTRY[game], len(players))
    game_id = game_service.create(host, game, options, None)
    for player in others:
        game_service.join(game_id, player, None)
    game_service.start(game_id, host)
    return game_id


def every_record(store) -> list:
    """Every stored event, stream by stream. (The global feed shows an event
    only once every transaction on the server that began before it ended, and
    other people's tests share this server: a test reading "everything" must
    not depend on that.)"""
    with store.pool.connection() as conn:
        streams = [row[0] for row in conn.execute("select stream_id from streams order by stream_id")]
    records = [record for stream in streams for record in store.read_stream(stream)]
    return sorted(records, key=lambda record: record.global_position)
