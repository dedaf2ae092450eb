"""How long a process trusts a token it checked (api/service/token_cache.py):
the short bound always; the long one only while every revocation since the
read would have been heard. Revocation notices through a real LISTEN
connection are in test_tokens.py; here the notices' source is a stand-in."""

from __future__ import annotations

from api.service.token_cache import REVOKED_CHANNEL, Identity, TokenCache


class Notices:
    """What a TokenCache asks of the event store, held in the test's hand."""

    def __init__(self):
        self.epoch: int | None = 1
        self.hear = None

    def on_notice(self, channel, hear):
        assert channel == REVOKED_CHANNEL
        self.hear = hear

    def listening_to(self, channel):
        return self.epoch


class Clock:
    now = 100.0

    def __call__(self):
        return self.now


ADA = Identity("player-ada", "token-1")


def _cache():
    notices, clock = Notices(), Clock()
    return TokenCache(10, 3600, clock, notices), notices, clock


def test_a_token_read_while_revocations_are_heard_is_trusted_past_the_short_time():
    cache, _, clock = _cache()
    cache.put(b"ada", ADA, cache.reading())
    clock.now += 600
    assert cache.get(b"ada") == ADA
    clock.now += 3000
    assert cache.get(b"ada") is None


def test_a_revocation_heard_while_a_token_was_read_leaves_it_the_short_time_only():
    cache, notices, clock = _cache()
    reading = cache.reading()
    notices.hear("token-9")  # someone's token revoked while ada's row was on its way
    cache.put(b"ada", ADA, reading)
    clock.now += 9
    assert cache.get(b"ada") == ADA
    clock.now += 2
    assert cache.get(b"ada") is None


def test_a_break_in_the_listen_connection_ends_the_long_trust():
    cache, notices, clock = _cache()
    cache.put(b"ada", ADA, cache.reading())
    notices.epoch = 2  # reconnected: a notice may have been lost meanwhile
    assert cache.get(b"ada") == ADA, "the short bound still holds"
    clock.now += 11
    assert cache.get(b"ada") is None


def test_a_token_read_while_nothing_is_heard_is_trusted_the_short_time():
    cache, notices, clock = _cache()
    notices.epoch = None
    cache.put(b"ada", ADA, cache.reading())
    notices.epoch = 1
    clock.now += 11
    assert cache.get(b"ada") is None


def test_a_revocation_notice_forgets_the_tokens_and_tells_who_observes():
    cache, notices, _ = _cache()
    told = []

    class Streams:
        def tokens_revoked(self, token_ids):
            told.append(token_ids)

    streams = Streams()
    cache.observe(streams.tokens_revoked)
    cache.put(b"ada", ADA, cache.reading())
    cache.put(b"bob", Identity("player-bob", "token-2"), cache.reading())
    notices.hear("token-1,token-3")
    assert cache.get(b"ada") is None and cache.get(b"bob") is not None
    assert told == [{"token-1", "token-3"}]
