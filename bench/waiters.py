"""The asyncio client of bench/waiting.py: long-polls and Server-Sent Event
streams (a seated player's opened with a stream ticket asked for on the
stream's own connection, as a browser does), sent at a given rate, counted
and timed; every failure counted by its cause and problem type."""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter


class Waiters:
    """The asyncio client: long-polls and streams, counted and timed; every
    failure counted by its cause (``failures``), which fails the run."""

    def __init__(self, host: str, port: int, sources: list[str] | None = None):
        """``sources``: the client addresses to connect from, in turn (loopback
        127.0.0.x: Linux routes all of 127/8 to lo), or the kernel's choice."""
        self.host, self.port = host, port
        self.sources = sources or []
        self.used: Counter = Counter()  # connections per source address
        self.held_polls = 0
        self.streams_open = 0
        self.failures: Counter = Counter()
        self.details: dict[str, str] = {}  # a problem document of each cause of failure
        self.refused: Counter = Counter()  # 503 with Retry-After, in the overload phase (not failures there)
        self.polls_answered = 0
        self.seen: dict[int, dict[str, float]] = {}  # stream number -> id -> when first seen
        self.game_of: dict[int, str] = {}  # stream number -> the game it follows
        self.opened: set[int] = set()  # the streams that were answered 200
        self.tasks: list[asyncio.Task] = []

    def fail(self, cause: str, body: bytes = b"") -> None:
        self.failures[cause] += 1
        if body and cause not in self.details:
            self.details[cause] = body.decode(errors="replace")[:300]  # one example of each

    async def connect(self):
        local = None
        if self.sources:
            source = self.sources[sum(self.used.values()) % len(self.sources)]
            self.used[source] += 1
            local = (source, 0)
        try:
            return await asyncio.wait_for(asyncio.open_connection(self.host, self.port, local_addr=local), 30)
        except ConnectionResetError:
            self.fail("connect reset")
        except ConnectionRefusedError:
            self.fail("connect refused")
        except TimeoutError:
            self.fail("connect timeout")
        except OSError as error:
            self.fail(f"connect {type(error).__name__}")
        return None

    async def _answer(self, reader) -> tuple[int, bytes, bytes]:
        """The status, head and body of an answer (a stream's body is left to read)."""
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 90)
        status = int(head.split(b" ", 2)[1])
        length = next((int(line.split(b":")[1]) for line in head.lower().split(b"\r\n")
                       if line.startswith(b"content-length:")), 0)
        body = await asyncio.wait_for(reader.readexactly(length), 90) if length else b""
        return status, head, body

    async def _head(self, reader, refusable: bool, again: bool = False) -> bool:
        """The answer's head: True for a 200 or a 304; a 503 with Retry-After
        counted as refused when ``refusable``; anything else a failure, by its
        status and problem type (``again``: a long-poll's next poll, after
        one answered, named so)."""
        status, head, body = await self._answer(reader)
        if status == 200 or status == 304:
            return True
        retry_after = b"retry-after:" in head.lower()
        when = "at its next poll: " if again else ""
        if refusable and status == 503 and retry_after:
            self.refused[f"{when}503 {problem_type(body)}"] += 1
        else:
            self.fail(f"{when}status {status} {problem_type(body)}" + ("" if retry_after else " without Retry-After"),
                      body)
        return False

    def _broken(self, error: BaseException, what: str) -> None:
        if isinstance(error, asyncio.TimeoutError):
            self.fail(f"{what} timeout")
        elif isinstance(error, asyncio.IncompleteReadError):
            self.fail(f"{what} closed by the server")
        else:
            self.fail(f"{what} {type(error).__name__}")

    async def long_poll(self, game: str, refusable: bool = False):
        request = (f"GET /v1/games/{game}/view?wait=60 HTTP/1.1\r\nHost: x\r\nIf-None-Match: *\r\n\r\n").encode()
        connection = await self.connect()
        if connection is None:
            return
        reader, writer = connection
        pending, answered = False, 0
        try:
            while True:
                writer.write(request)
                self.held_polls += 1
                pending = True
                head_ok = await self._head(reader, refusable, again=answered > 0)
                self.held_polls -= 1
                pending = False
                if not head_ok:
                    return
                self.polls_answered += 1
                answered += 1
        except asyncio.CancelledError:
            raise
        except (TimeoutError, OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError) as error:
            self._broken(error, "long-poll")
        finally:
            if pending:
                self.held_polls -= 1
            writer.close()

    async def _ticket(self, reader, writer, auth: str) -> str | None:
        """A stream ticket, asked for on the stream's own connection just before it opens (as a browser does)."""
        writer.write(f"POST /v1/stream-tickets HTTP/1.1\r\nHost: x\r\nAuthorization: {auth}\r\n"
                     f"Content-Length: 0\r\n\r\n".encode())
        status, _, body = await self._answer(reader)
        if status != 201:
            self.fail(f"ticket status {status} {problem_type(body)}", body)
            return None
        return json.loads(body)["ticket"]

    async def stream(self, number: int, game: str, auth: str | None = None, refusable: bool = False):
        seen = self.seen.setdefault(number, {})
        connection = await self.connect()
        if connection is None:
            return
        reader, writer = connection
        opened = False
        last = None
        try:
            query = ""
            if auth is not None:
                ticket = await self._ticket(reader, writer, auth)
                if ticket is None:
                    return
                query = f"?ticket={ticket}"
            writer.write(f"GET /v1/games/{game}/stream{query} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            if not await self._head(reader, refusable):
                return
            self.streams_open += 1
            self.opened.add(number)
            opened = True
            problem = False
            while True:
                line = await reader.readline()
                if not line:
                    self.fail("stream closed by the server")
                    break
                if line.startswith(b"id: "):
                    value = int(line[4:].strip())
                    if last is not None and value < last:
                        self.fail("stream duplicate or out-of-order id")
                    elif last is not None and value > last + 1:
                        self.fail("stream gap in versions")
                    last = value if last is None else max(last, value)
                    seen.setdefault(str(value), time.monotonic())
                elif line.startswith(b"event: problem"):
                    problem = True
                elif problem and line.startswith(b"data: "):
                    self.fail(f"stream ended by a problem {problem_type(line[6:])}", line[6:])
                    problem = False
        except asyncio.CancelledError:
            raise
        except (TimeoutError, OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError) as error:
            self._broken(error, "stream")
        finally:
            if opened:
                self.streams_open -= 1
            writer.close()


def problem_type(body: bytes) -> str:
    """The slug of a problem document's type ("-" for a body that is none)."""
    try:
        return json.loads(body)["type"].rsplit("/", 1)[1]
    except (ValueError, KeyError, TypeError, AttributeError):
        return "-"


async def arrive(waiters: Waiters, plan: list, rate_per_second: int, refusable: bool = False) -> float:
    """Start each planned waiter at ``rate_per_second``; the seconds it took."""
    numbers = iter(range(len(waiters.seen), 10**9))
    started = time.monotonic()
    for n, (kind, game, ticket) in enumerate(plan):
        due = started + n / rate_per_second
        if due > time.monotonic():
            await asyncio.sleep(due - time.monotonic())
        number = next(numbers)
        if kind == "stream":
            waiters.game_of[number] = game
        coroutine = (waiters.stream(number, game, ticket, refusable) if kind == "stream"
                     else waiters.long_poll(game, refusable))
        waiters.tasks.append(asyncio.create_task(coroutine))
    return time.monotonic() - started


async def until_held(waiters: Waiters, expected: int, limit: float = 120) -> None:
    started = time.monotonic()
    while waiters.streams_open + waiters.held_polls + sum(waiters.failures.values()) + \
            sum(waiters.refused.values()) < expected and time.monotonic() - started < limit:
        await asyncio.sleep(0.2)
