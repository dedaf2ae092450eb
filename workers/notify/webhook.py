"""Webhook deliveries: Standard Webhooks signatures and one bounded HTTP
POST, to an address the guard (api/service/webhook_targets.py) allowed.

Signed as Standard Webhooks say (api/service/webhook_signatures.py).
Each hop connects to exactly the address the guard resolved and allowed, so
a second DNS answer cannot swap in another one; a redirect (at most three) is
checked the same way before it is followed.
Every socket operation has a timeout, the whole attempt a deadline, and at most
``max_response`` bytes of the answer are read.
"""

from __future__ import annotations

import http.client
import socket
import ssl
import time
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

from api.service.webhook_targets import TargetRefused, check_url_form, resolve

MAX_REDIRECTS = 3


@dataclass
class Outcome:
    status: int | None
    error: str | None
    duration_ms: int

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


class _PinnedHTTP(http.client.HTTPConnection):
    def __init__(self, address: str, host: str, port: int, timeout: float):
        super().__init__(host, port, timeout=timeout)
        self._address = address

    def connect(self):
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


class _PinnedHTTPS(http.client.HTTPSConnection):
    def __init__(self, address: str, host: str, port: int, timeout: float):
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self._address = address

    def connect(self):
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


def post(url: str, body: bytes, request_headers: dict, *, timeout: float, max_response: int,
         allow_private) -> Outcome:
    """POST once (following up to three redirects); never raises for the
    receiver's behaviour, only reports it."""
    started = time.monotonic()
    deadline = started + timeout * 2

    def done(status, error):
        return Outcome(status, error, int((time.monotonic() - started) * 1000))

    for _hop in range(MAX_REDIRECTS + 1):
        problem = check_url_form(url)
        if problem:
            return done(None, problem)
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
        try:
            address = resolve(parts.hostname, port, allow_private)
        except TargetRefused as error:
            return done(None, str(error))
        cls = _PinnedHTTPS if parts.scheme == "https" else _PinnedHTTP
        conn = cls(address, parts.hostname, port, timeout)
        try:
            path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
            conn.request("POST", path, body=body, headers=request_headers)
            response = conn.getresponse()
            _drain(response, max_response, deadline)
            status = response.status
            location = response.getheader("location")
        except (OSError, http.client.HTTPException, ssl.SSLError) as error:
            return done(None, f"{type(error).__name__}: {error}"[:500])
        except _TooSlow:
            return done(None, f"the receiver took longer than {timeout * 2:.0f}s to answer")
        finally:
            conn.close()
        if status in (301, 302, 303, 307, 308) and location:
            url = urljoin(url, location)
            continue
        return done(status, None if 200 <= status < 300 else f"HTTP {status}")
    return done(None, f"more than {MAX_REDIRECTS} redirects")


class _TooSlow(Exception):
    pass


def _drain(response, limit: int, deadline: float) -> None:
    """Read at most ``limit`` bytes of the answer (then stop: the rest is
    not wanted), within the attempt's deadline."""
    read = 0
    while read < limit:
        if time.monotonic() > deadline:
            raise _TooSlow()
        chunk = response.read1(min(16384, limit - read)) if hasattr(response, "read1") else response.read(
            min(16384, limit - read))
        if not chunk:
            return
        read += len(chunk)
