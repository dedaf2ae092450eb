"""The SSRF guard against the forms an address can take: numbers the
resolver reads as IPv4 (inet_aton's forms), and IPv6 addresses that embed a
refused IPv4 address. Each is refused at registration (a 422 that names the
address) and at delivery, where nothing is connected to."""

from __future__ import annotations

import socket

import pytest

from api.service import webhook_targets as targets
from workers.notify import webhook as hooks

# Each: a host as written in a URL, and the IPv4 address that it reaches.
NUMERIC_LOOPBACK = [
    ("2130706433", "127.0.0.1"),
    ("0x7f000001", "127.0.0.1"),
    ("017700000001", "127.0.0.1"),
    ("127.1", "127.0.0.1"),
    ("0x7f.1", "127.0.0.1"),
    ("0177.0.0.1", "127.0.0.1"),
    ("0", "0.0.0.0"),
    ("10.1", "10.0.0.1"),
    ("2852039166", "169.254.169.254"),
]
EMBEDDING_IPV6 = [
    ("[2002:7f00:1::]", "127.0.0.1", "6to4"),
    ("[2002:a9fe:a9fe::1]", "169.254.169.254", "6to4"),
    ("[64:ff9b::7f00:1]", "127.0.0.1", "NAT64"),
    ("[64:ff9b:1::a00:1]", "10.0.0.1", "NAT64"),
    ("[::ffff:127.0.0.1]", "127.0.0.1", "IPv4-mapped"),
    ("[::127.0.0.1]", "127.0.0.1", "IPv4-compatible"),
    # Teredo: the client address is stored obfuscated (every bit flipped).
    ("[2001:0:4136:e378:8000:63bf:80ff:fffe]", "127.0.0.1", "Teredo"),
]


@pytest.mark.parametrize("host, address", NUMERIC_LOOPBACK)
def test_a_host_written_as_numbers_is_refused_at_registration_naming_the_address_it_resolves_to(
        callers, monkeypatch, host, address):
    monkeypatch.setenv("BOARDLOG_WEBHOOK_ALLOW_PRIVATE", "0")
    ada = callers(1)[0]
    response = ada.call("POST", "/v1/players/me/webhooks", json={"url": f"http://{host}:8080/hook"})
    assert response.status_code == 422, response.json
    assert response.content_type == "application/problem+json"
    assert f"{host} is {address}" in response.json["detail"], response.json["detail"]
    assert ada.call("GET", "/v1/players/me/webhooks").json["webhooks"] == []


@pytest.mark.parametrize("host, address, form", EMBEDDING_IPV6)
def test_an_ipv6_address_that_embeds_a_refused_ipv4_address_is_refused_at_registration(
        callers, monkeypatch, host, address, form):
    monkeypatch.setenv("BOARDLOG_WEBHOOK_ALLOW_PRIVATE", "0")
    ada = callers(1)[0]
    response = ada.call("POST", "/v1/players/me/webhooks", json={"url": f"http://{host}/hook"})
    assert response.status_code == 422, response.json
    assert f"embeds {address} ({form})" in response.json["detail"], response.json["detail"]


def test_public_addresses_in_the_same_forms_are_accepted(callers, monkeypatch):
    monkeypatch.setenv("BOARDLOG_WEBHOOK_ALLOW_PRIVATE", "0")
    ada = callers(1)[0]
    for host in ("134744072", "8.8.8.8", "[2002:808:808::]", "[64:ff9b::808:808]", "[2606:4700::1111]",
                 "hooks.example"):
        response = ada.call("POST", "/v1/players/me/webhooks", json={"url": f"https://{host}/hook"})
        assert response.status_code == 201, (host, response.json)


def test_numbers_are_read_as_the_resolver_reads_them():
    """The registration check reads a host as getaddrinfo does, form by form,
    so that a number the resolver calls an address cannot slip through as a name."""
    forms = [host for host, _ in NUMERIC_LOOPBACK] + [
        "127.0.0.1", "127.000.000.001", "0X7F000001", "00", "1.16777215", "255.255.65535", "4294967295",
        "4294967296", "1.16777216", "256.1", "1.2.3.4.5", "08", "0x", "0x.1", "1.0x", "1e3", "1..1", ".1",
        "a.b", "example.com", "0x100000000", "09.1", "0xg",
    ]
    for host in forms:
        try:
            resolved = socket.getaddrinfo(host, 80, type=socket.SOCK_STREAM, flags=socket.AI_NUMERICHOST)[0][4][0]
        except (socket.gaierror, UnicodeError):
            resolved = None
        ours = targets.numeric_ipv4(host)
        assert (str(ours) if ours is not None else None) == resolved, host


@pytest.fixture
def loopback_receiver(receiver):
    """A receiver on 127.0.0.1 that the guard must keep every form away from."""
    return receiver


@pytest.mark.parametrize("host, address", NUMERIC_LOOPBACK[:7])
def test_a_host_written_as_numbers_is_refused_at_delivery_and_nothing_is_called(loopback_receiver, host, address):
    port = loopback_receiver.url.split(":")[2].split("/")[0]
    outcome = hooks.post(f"http://{host}:{port}/hook", b"{}", {}, timeout=1, max_response=10, allow_private=())
    assert outcome.status is None and f"{host} is {address}" in outcome.error, outcome.error
    assert loopback_receiver.received == []


@pytest.mark.parametrize("host, address, form", EMBEDDING_IPV6)
def test_an_ipv6_address_that_embeds_a_refused_ipv4_address_is_refused_at_delivery_before_any_connection(
        loopback_receiver, monkeypatch, host, address, form):
    connected = []
    real = socket.create_connection
    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: connected.append(a) or real(*a, **k))
    port = loopback_receiver.url.split(":")[2].split("/")[0]
    outcome = hooks.post(f"http://{host}:{port}/hook", b"{}", {}, timeout=1, max_response=10, allow_private=())
    assert outcome.status is None and f"embeds {address} ({form})" in outcome.error, outcome.error
    assert connected == [] and loopback_receiver.received == []


def test_a_host_the_resolver_cannot_take_is_a_refusal_not_a_crash():
    outcome = hooks.post("http://hooks..example/x", b"{}", {}, timeout=1, max_response=10, allow_private=())
    assert outcome.status is None and "not a valid host name" in outcome.error


def test_the_operator_allowing_a_network_allows_it_in_its_embedded_forms_too():
    import ipaddress

    allowed = (ipaddress.ip_network("127.0.0.1/32"),)
    assert not targets.refused_address("2002:7f00:1::", allowed)
    assert not targets.refused_address("::ffff:127.0.0.1", allowed)
    assert targets.refused_address("2002:7f00:2::", allowed)
