"""Which URLs a webhook may call: a guard against server-side request forgery.

Both sides use it: the API refuses a target when a player registers it, and
the notifier checks it again, resolved, before every delivery (and every
redirect it follows).

The guard resolves the host name once, refuses the target if any address is
private, loopback, link-local, multicast, reserved or unspecified (unless the
operator set BOARDLOG_WEBHOOK_ALLOW_PRIVATE), and the notifier then connects
to exactly the address it checked, so a second DNS answer cannot swap in
another one. An IPv6 address that embeds an IPv4 address (6to4, NAT64,
IPv4-mapped, IPv4-compatible, Teredo) is refused when that IPv4 address would
be. At registration a host that is an address in any form the resolver reads
as one (``2130706433``, ``0x7f000001``, ``127.1``...) is refused the same way.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

MAX_URL_LENGTH = 2000


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


# IPv6 forms that carry an IPv4 address a router or relay may deliver to:
# NAT64 (RFC 6052's well-known prefix and RFC 8215's local one) and the
# deprecated IPv4-compatible ::a.b.c.d; 6to4, Teredo and IPv4-mapped
# addresses are read by the ipaddress module itself.
_NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))
_IPV4_COMPATIBLE = ipaddress.ip_network("::/96")


def embedded_ipv4(ip) -> tuple[ipaddress.IPv4Address, str] | None:
    """The IPv4 address an IPv6 address embeds, and the form that embeds it."""
    if not isinstance(ip, ipaddress.IPv6Address):
        return None
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped, "IPv4-mapped"
    if ip.sixtofour is not None:
        return ip.sixtofour, "6to4"
    if ip.teredo is not None:
        return ip.teredo[1], "Teredo"  # the client address, de-obfuscated by ipaddress
    if any(ip in network for network in _NAT64):
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF), "NAT64"
    if ip in _IPV4_COMPATIBLE and int(ip) > 1:  # :: and ::1 are themselves refused
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF), "IPv4-compatible"
    return None


def _kind(ip) -> str | None:
    """Why the guard refuses this one address (without looking inside), or None."""
    for refused, kind in ((ip.is_unspecified, "an unspecified"), (ip.is_loopback, "a loopback"),
                          (ip.is_link_local, "a link-local"), (ip.is_multicast, "a multicast"),
                          (ip.is_private, "a private"), (ip.is_reserved, "a reserved"),
                          (not ip.is_global, "a non-public")):
        if refused:
            return kind
    return None


def refusal(address: str, allow=()) -> str | None:
    """Why the guard refuses this address, as the end of a sentence (``is a
    loopback address``, ``embeds 127.0.0.1 (6to4), a loopback address``), or
    None; ``allow`` is True (every address) or networks allowed although
    private. An IPv6 address that embeds an IPv4 address is refused when the
    IPv4 address would be: 6to4, NAT64, IPv4-mapped, IPv4-compatible and
    Teredo relays deliver to it."""
    if allow is True:
        return None
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    allowed = tuple(allow or ())
    embedded = embedded_ipv4(ip)
    if embedded is not None:
        inner, form = embedded
        kind = None if any(inner in network for network in allowed) else _kind(inner)
        if kind:
            return f"embeds {inner} ({form}), {kind} address"
        # Translated or relayed to that IPv4 address, which alone decides. For
        # 6to4 this is also what keeps the guard the same on every Python:
        # CPython 3.13 counts 2002::/16 as private, 3.11 and 3.12 as global.
        if form in ("IPv4-mapped", "NAT64", "6to4"):
            return None
    if any(ip in network for network in allowed):
        return None
    kind = _kind(ip)
    return f"is {kind} address" if kind else None


def refused_address(address: str, allow=()) -> bool:
    """Whether the guard refuses this address (see ``refusal``)."""
    return refusal(address, allow) is not None


def _ipv4_part(text: str) -> int | None:
    """One part of an inet_aton address: decimal, octal (a leading 0) or hex (0x)."""
    if text[:2].lower() == "0x":
        digits, base = text[2:], 16
    elif len(text) > 1 and text.startswith("0"):
        digits, base = text[1:], 8
    else:
        digits, base = text, 10
    allowed = {8: "01234567", 10: "0123456789", 16: "0123456789abcdefABCDEF"}[base]
    if not digits or any(c not in allowed for c in digits):
        return None
    return int(digits, base)


def numeric_ipv4(host: str) -> ipaddress.IPv4Address | None:
    """The address a host written as numbers stands for, read as the resolver
    reads it (inet_aton): ``2130706433``, ``0x7f000001``, ``017700000001``,
    ``127.1`` and ``0`` are all addresses, not names."""
    parts = host.split(".")
    if not 1 <= len(parts) <= 4 or any(not part for part in parts):
        return None
    values = [_ipv4_part(part) for part in parts]
    if any(value is None for value in values):
        return None
    *leading, last = values
    if any(value > 255 for value in leading) or last >= 1 << (8 * (5 - len(parts))):
        return None
    number = last
    for shift, value in enumerate(reversed(leading), start=1):
        number |= value << (8 * (4 - len(parts) + shift))
    return ipaddress.IPv4Address(number)


def host_address(host: str) -> str | None:
    """The address a URL's host is, as the resolver will read it (an IPv6 or
    dotted literal, a number form of IPv4, or localhost), or None for a name."""
    bare = host.rstrip(".").lower() if host not in (".", "") else host
    if bare == "localhost" or bare.endswith(".localhost"):
        return "127.0.0.1"
    try:
        ipaddress.ip_address(host)
        return host  # a literal already: named as written
    except ValueError:
        pass
    number = numeric_ipv4(host)
    return str(number) if number is not None else None


def literal_refused(url: str, allow) -> str | None:
    """At registration: a host that is an address (or localhost) the guard
    would refuse, named. Names are checked again, resolved, at every delivery."""
    if allow is True:
        return None
    host = urlsplit(url).hostname or ""
    address = host_address(host)
    if address is None:
        return None
    why = refusal(address, allow)
    if why is None:
        return None
    where = f"{host} is {address}, which" if address != host else address
    return f"webhook targets may not be private, loopback or link-local addresses on this server: {where} {why}"


def resolve(host: str, port: int, allow) -> str:
    """One address of ``host`` that the guard allows (all must be allowed)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as error:
        raise TargetRefused(f"cannot resolve {host}: {error.strerror}") from None
    except UnicodeError:  # an empty or over-long label (``a..b``): not a name the resolver can take
        raise TargetRefused(f"cannot resolve {host}: not a valid host name") from None
    addresses = [info[4][0] for info in infos]
    if not addresses:
        raise TargetRefused(f"{host} has no address")
    for address in addresses:
        why = refusal(address, allow)
        if why:
            where = f"{host} is {address}, which" if host != address else address
            raise TargetRefused(f"{where} {why}: this server does not call private, loopback or link-local"
                                f" addresses")
    return addresses[0]
