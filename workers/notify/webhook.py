"""Webhook deliveries: Standard Webhooks signatures, a guard against
server-side request forgery, and one bounded HTTP POST.

Signing (https://www.standardwebhooks.com): the secret is ``whsec_`` and the
base64 of 24 random bytes; the signature is ``v1,`` and the base64 of
HMAC-SHA256(secret bytes, ``<webhook-id>.<webhook-timestamp>.<body>``).

The guard resolves the host name once, refuses the target if any address is
private, loopback, link-local, multicast, reserved or unspecified (unless the
operator set BOARDLOG_WEBHOOK_ALLOW_PRIVATE), and then connects to exactly the
address it checked, so a second DNS answer cannot swap in another one. A
redirect (at most three) is checked the same way before it is followed.
Every socket operation has a timeout, the whole attempt a deadline, and at most
``max_response`` bytes of the answer are read.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import http.client
import ipaddress
import secrets
import socket
import ssl
import time
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

MAX_URL_LENGTH = 2000
MAX_REDIRECTS = 3


def new_secret() -> str:
    return "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()


def sign(secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{message_id}.{timestamp}.".encode() + body
    return "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()


def headers(secret: str, message_id: str, body: bytes, timestamp: int | None = None) -> dict:
    timestamp = int(time.time()) if timestamp is None else timestamp
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": sign(secret, message_id, timestamp, body),
        "content-type": "application/json",
        "user-agent": "boardlog-webhooks/1",
    }


class TargetRefused(Exception):
    """The URL may not be called: bad form, or an address the guard refuses."""


def check_url_form(url: str) -> str | None:
    """Why this URL cannot be a webhook target, or None."""
    if not isinstance(url, str) or len(url) > MAX_URL_LENGTH:
        return f"a webhook URL is at most {MAX_URL_LENGTH} characters"
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises on a bad port
    except ValueError as error:
        return f"not a URL: {error}"
    if parts.scheme not in ("http", "https"):
        return "a webhook URL must start with http:// or https://"
    if not parts.hostname:
        return "a webhook URL must name a host"
    if parts.username or parts.password:
        return "a webhook URL may not carry a user name or password"
    return None


def refused_address(address: str, allow=()) -> bool:
    """Whether the guard refuses this address; ``allow`` is True (every
    address) or networks allowed although private."""
    if allow is True:
        return False
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if any(ip in network for network in allow or ()):
        return False
    return (ip.is_private or ip.is_loopback or ip.is_link_local or ip.is_multicast or ip.is_reserved
            or ip.is_unspecified or not ip.is_global)


def literal_refused(url: str, allow) -> str | None:
    """At registration: a host that is an address (or localhost) the guard
    would refuse. Names are checked again, resolved, at every delivery."""
    if allow is True:
        return None
    host = urlsplit(url).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        host = "127.0.0.1"
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return None
    if refused_address(host, allow):
        return "webhook targets on private, loopback or link-local addresses are not allowed on this server"
    return None


def resolve(host: str, port: int, allow) -> str:
    """One address of ``host`` that the guard allows (all must be allowed)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as error:
        raise TargetRefused(f"cannot resolve {host}: {error.strerror}") from None
    addresses = [info[4][0] for info in infos]
    if not addresses:
        raise TargetRefused(f"{host} has no address")
    bad = [a for a in addresses if refused_address(a, allow)]
    if bad:
        where = f"{host} is {bad[0]}," if host != bad[0] else f"{host} is"
        raise TargetRefused(f"{where} a private, loopback or link-local address, which this server does not call")
    return addresses[0]


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
