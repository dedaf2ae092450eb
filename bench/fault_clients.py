"""The fault experiments' waiters, as a client that resumes: game streams and
player streams that reconnect with Last-Event-ID whenever a stream ends
(as EventSource does, after the server's ``retry:`` hint), and long-polls
that are sent again when answered. Each counts what it received by id, so
that the experiment can compare it with what PostgreSQL stored; anything
but a 200, a 204, a 304 or a 503 is a failure, and so is a stream that sends
nothing for ``READ_TIMEOUT`` seconds (the server's heartbeat comes every 15).

HTTP/1.0 requests: the server answers a stream without chunked framing, and
every stream or long-poll is a connection of its own.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter

READ_TIMEOUT = 40.0  # seconds with nothing at all from a stream: a failure (the heartbeat is every 15 s)


class Tally:
    """What every waiter of one experiment met: failures (each fails the
    run), 503s (expected during an outage: counted, shown), resumptions."""

    def __init__(self, excused: tuple[str, ...] = ()):
        self.failures: Counter = Counter()
        self.unavailable: Counter = Counter()  # 503 answers and 503 problem messages, by what met them
        self.resumed: Counter = Counter()  # why a stream was opened again
        self.excused: Counter = Counter()  # cut connections the experiment caused (a killed process), not failures
        self.excuse = set(excused)
        self.open_streams = 0
        self.opened = 0
        self.polls_answered = 0

    def fail(self, cause: str) -> None:
        if cause in self.excuse:
            self.excused[cause] += 1
        else:
            self.failures[cause] += 1

    def summary(self) -> str:
        def counted(counter: Counter) -> str:
            return f"{sum(counter.values())}" + (f" {dict(counter)}" if counter else "")
        before = getattr(self, "before_fault", Counter())
        return (f"503s {counted(self.unavailable - before)} from the fault on"
                + (f" ({counted(before)} before it, server-busy while they arrived)" if before else "")
                + f"; streams resumed {counted(self.resumed)}")


async def _connect(host: str, port: int):
    return await asyncio.wait_for(asyncio.open_connection(host, port, limit=2**22), 30)


async def _head(reader) -> tuple[int, dict]:
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 90)
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    return status, headers


async def _messages(reader):
    """Server-Sent Event messages as dicts of their fields ({} for a comment)."""
    fields: dict = {}
    while True:
        line = await asyncio.wait_for(reader.readline(), READ_TIMEOUT)
        if not line:
            return
        text = line.decode().rstrip("\r\n")
        if text == "":
            if fields:
                yield fields
            fields = {}
        elif text.startswith(":"):
            yield {}
        else:
            name, _, value = text.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "data" and name in fields:
                fields[name] += "\n" + value
            else:
                fields[name] = value


class Follower:
    """One stream, opened again (with Last-Event-ID) each time it ends, until
    ``stop`` is set. ``start``: the id of its first opening message (where it
    began); ``last``: the id to resume from."""

    path = ""

    def __init__(self, tally: Tally, host: str, port: int, auth: str | None):
        self.tally, self.host, self.port, self.auth = tally, host, port, auth
        self.start: int | None = None
        self.last: int | None = None
        self.done = False
        self.received: Counter = Counter()  # by id: game events by version, notices by their data's id

    def request(self) -> bytes:
        head = [f"GET {self.path} HTTP/1.0", "Host: x", "Accept: text/event-stream"]
        if self.auth:
            head.append(f"Authorization: {self.auth}")
        if self.last is not None:
            head.append(f"Last-Event-ID: {self.last}")
        return ("\r\n".join(head) + "\r\n\r\n").encode()

    async def run(self, stop: asyncio.Event) -> None:
        what = type(self).__name__
        while not stop.is_set() and not self.done:
            pause = 0.5
            try:
                reader, writer = await _connect(self.host, self.port)
            except (OSError, asyncio.TimeoutError) as error:
                self.tally.fail(f"{what} connect {type(error).__name__}")
                await asyncio.sleep(1)
                continue
            counted = False
            try:
                writer.write(self.request())
                status, headers = await _head(reader)
                if status == 204:
                    self.done = True
                    return
                if status == 503:
                    self.tally.unavailable[f"{what} open"] += 1
                    pause = float(headers.get("retry-after", "1"))
                    continue
                if status != 200:
                    self.tally.fail(f"{what} status {status}")
                    pause = 2
                    continue
                self.tally.open_streams += 1
                self.tally.opened += 1
                counted = True
                reason = "closed without a message"
                async for message in _messages(reader):
                    if stop.is_set():  # Python 3.11's wait_for may swallow the cancellation itself
                        return
                    if "retry" in message:
                        pause = int(message["retry"]) / 1000
                    if "id" in message:
                        self.last = int(message["id"])
                        if self.start is None:
                            self.start = self.last
                    event = message.get("event")
                    if event == "shutdown":
                        reason = "shutdown"
                    elif event == "problem":
                        body = json.loads(message.get("data", "{}"))
                        if body.get("status") == 503:
                            self.tally.unavailable[f"{what} problem 503"] += 1
                            reason = "problem 503"
                        else:
                            self.tally.fail(f"{what} problem {body.get('status')} {body.get('type', '')}")
                            reason = "problem"
                    elif "data" in message and self.take(event, message):
                        self.done = True
                        return
                self.tally.resumed[reason] += 1
            except asyncio.TimeoutError:
                self.tally.fail(f"{what} read timeout ({READ_TIMEOUT:.0f} s with nothing)")
            except (asyncio.IncompleteReadError, ConnectionResetError, BrokenPipeError):
                self.tally.fail(f"{what} connection cut")
                self.tally.resumed["connection cut"] += 1
            finally:
                if counted:
                    self.tally.open_streams -= 1
                writer.close()
                if not stop.is_set() and not self.done:
                    await asyncio.sleep(pause)

    def take(self, event: str | None, message: dict) -> bool:
        """Count one message; True when the stream has nothing more to send."""
        raise NotImplementedError


class GameFollower(Follower):
    """A game's stream: each unnamed message is an event, its id the version."""

    def __init__(self, tally, host, port, auth, game: str):
        super().__init__(tally, host, port, auth)
        self.game = game
        self.path = f"/v1/games/{game}/stream"

    def take(self, event, message) -> bool:
        if event is None:
            self.received[int(message["id"])] += 1
        return event == "end"


class PlayerFollower(Follower):
    """A player's stream: each message a notice, counted by its data's id."""

    path = "/v1/players/me/stream"

    def __init__(self, tally, host, port, auth, player: str):
        super().__init__(tally, host, port, auth)
        self.player = player

    def take(self, event, message) -> bool:
        self.received[json.loads(message["data"])["id"]] += 1
        return False


async def long_poll(tally: Tally, host: str, port: int, path: str, auth: str | None, stop: asyncio.Event) -> None:
    """``path`` (a ``?wait=`` request) sent again each time it is answered,
    with the ETag it last got; 200 and 304 are answers, 503 is counted."""
    etag = "*"
    while not stop.is_set():
        pause = 0.0
        try:
            reader, writer = await _connect(host, port)
        except (OSError, asyncio.TimeoutError) as error:
            tally.fail(f"long-poll connect {type(error).__name__}")
            await asyncio.sleep(1)
            continue
        try:
            head = [f"GET {path} HTTP/1.0", "Host: x", f"If-None-Match: {etag}"]
            if auth:
                head.append(f"Authorization: {auth}")
            writer.write(("\r\n".join(head) + "\r\n\r\n").encode())
            status, headers = await _head(reader)
            await reader.read()  # the body, to the end of the connection
            if status in (200, 304):
                tally.polls_answered += 1
                etag = headers.get("etag", etag)
            elif status == 503:
                tally.unavailable["long-poll"] += 1
                pause = float(headers.get("retry-after", "1"))
            else:
                tally.fail(f"long-poll status {status}")
                pause = 2
        except asyncio.TimeoutError:
            tally.fail("long-poll unanswered for 90 s")
        except (asyncio.IncompleteReadError, ConnectionResetError, BrokenPipeError):
            tally.fail("long-poll connection cut")
        finally:
            writer.close()
        if pause and not stop.is_set():
            await asyncio.sleep(pause)
