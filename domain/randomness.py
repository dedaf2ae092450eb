"""Where a game's draws come from: openapi/verifying-a-game.md, section 4.

Randomness version 1 (games recorded before version 2 existed) is CPython's
``random.Random`` seeded per decision (``engine.rng_for``); version 2 is a
generator any language rebuilds from standard primitives: HMAC-SHA256 in
counter mode keyed by K (the seed and the players' contributions), one
stream per label, 64-bit big-endian words, and ``below(n)`` by rejection.
Every ``below(n)`` is recorded as ``[n, value]``: each decision writes its
draws into its metadata, so that a verifier checks them without the games'
rules.

A ``Stream`` has the methods the games and bots call on their rng (random,
randint, randrange, choice, shuffle, sample, choices), each defined by the
specification's table on ``below``, so no game changes to use it.
"""

from __future__ import annotations

import bisect
import hashlib
import hmac
import itertools
import json
from typing import Any, Callable, Mapping, MutableSequence, Sequence

from .engine import UnreadableHistory, rng_for

VERSIONS = (1, 2)
MAX_CONTRIBUTION_BYTES = 64
KEY_PURPOSE = "boardlog randomness key"
TWO_64 = 1 << 64
TWO_53 = 1 << 53


class UnknownRandomnessVersion(UnreadableHistory):
    """The game draws under a randomness version this installation lacks."""

    kind = "randomness-version-unknown"


class BadContribution(ValueError):
    """A contribution that is not 1 to 64 bytes written in hex."""


def contribution_hex(text: Any) -> str:
    """The contribution as recorded (lowercase hex), or BadContribution saying why."""
    if not isinstance(text, str) or not text:
        raise BadContribution(f"a contribution is 1 to {MAX_CONTRIBUTION_BYTES} bytes written in hex, not {text!r}")
    if len(text) % 2 or any(c not in "0123456789abcdefABCDEF" for c in text):
        raise BadContribution(
            f"a contribution is written in hex, two digits a byte (0-9, a-f), not {text[:40]!r}")
    if len(text) > 2 * MAX_CONTRIBUTION_BYTES:
        raise BadContribution(
            f"a contribution is at most {MAX_CONTRIBUTION_BYTES} bytes ({2 * MAX_CONTRIBUTION_BYTES} hex digits), "
            f"not {len(text) // 2}")
    return text.lower()


def canonical_json(value: Any) -> bytes:
    """Section 2: sorted keys, no whitespace, UTF-8, only what JSON must escape escaped."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def key(seed: bytes, contributions: Mapping[str, str]) -> bytes:
    """K of section 4.2: the seed keyed over every seat's contribution."""
    message = canonical_json({"contributions": dict(contributions), "purpose": KEY_PURPOSE})
    return hmac.new(seed, message, hashlib.sha256).digest()


class Stream:
    """The draws of one label (section 4.3), with the interface of ``random.Random``
    that the games and bots use. ``draws`` lists every ``below(n)`` as [n, value]."""

    def __init__(self, key_bytes: bytes, label: str):
        self.label = label
        self._key = key_bytes
        self._prefix = label.encode("utf-8") + b"\x00"
        self._block = 0
        self._buffer = b""
        self.draws: list[list[int]] = []

    def word(self) -> int:
        """The next 64-bit unsigned big-endian word of the stream."""
        if not self._buffer:
            message = self._prefix + self._block.to_bytes(8, "big")
            self._buffer = hmac.new(self._key, message, hashlib.sha256).digest()
            self._block += 1
        word, self._buffer = int.from_bytes(self._buffer[:8], "big"), self._buffer[8:]
        return word

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), for 1 <= n <= 2^53: words at or above
        the largest multiple of n below 2^64 are rejected, so none is favoured."""
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= TWO_53:
            raise ValueError(f"below(n) takes a whole n from 1 to 2^53, not {n!r}")
        limit = TWO_64 - TWO_64 % n
        while True:
            word = self.word()
            if word < limit:
                value = word % n
                self.draws.append([n, value])
                return value

    # The table of section 4.3

    def random(self) -> float:
        return self.below(TWO_53) / TWO_53

    def randint(self, a: int, b: int) -> int:
        if b < a:
            raise ValueError(f"empty range for randint({a}, {b})")
        return a + self.below(b - a + 1)

    def randrange(self, start: int, stop: int | None = None) -> int:
        """An integer in [start, stop) (or [0, start)): randint(start, stop - 1); no step."""
        if stop is None:
            start, stop = 0, start
        return self.randint(start, stop - 1)

    def choice(self, seq: Sequence[Any]) -> Any:
        if not len(seq):
            raise IndexError("cannot choose from an empty sequence")
        return seq[self.below(len(seq))]

    def shuffle(self, x: MutableSequence[Any]) -> None:
        for i in range(len(x) - 1, 0, -1):
            j = self.below(i + 1)
            x[i], x[j] = x[j], x[i]

    def sample(self, population: Sequence[Any], k: int) -> list[Any]:
        pool = list(population)
        if not 0 <= k <= len(pool):
            raise ValueError(f"sample larger than population or is negative: {k} of {len(pool)}")
        for i in range(k):
            j = i + self.below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]

    def choices(self, population: Sequence[Any], weights: Sequence[float] | None = None, *,
                cum_weights: Sequence[float] | None = None, k: int = 1) -> list[Any]:
        """By weights (every weight 1 when none are given): the first index whose
        cumulative weight exceeds real * total (the last index if none)."""
        if cum_weights is None:
            cum_weights = list(itertools.accumulate(weights if weights is not None else [1] * len(population)))
        if len(cum_weights) != len(population) or not population:
            raise ValueError("choices needs a non-empty population with one weight each")
        total, last = cum_weights[-1], len(population) - 1
        return [population[bisect.bisect_right(cum_weights, self.random() * total, 0, last)] for _ in range(k)]


def game_label(version: int) -> str:
    return f"game/{version}"


def timeout_label(version: int) -> str:
    return f"timeout/{version}"


def bot_label(seat: str, version: int) -> str:
    return f"bot/{seat}/{version}"


class Source:
    """The rngs of one decision of a game, by purpose, under the game's
    randomness version; ``draws()`` is what the decision's metadata records."""

    def __init__(self, randomness_version: int, seed: bytes, contributions: Mapping[str, str] | None = None):
        if randomness_version not in VERSIONS:
            raise UnknownRandomnessVersion(
                f"the game draws under randomness version {randomness_version}; this installation knows "
                f"version(s) {', '.join(map(str, VERSIONS))}")
        self.version = randomness_version
        self._seed = seed
        self._key = key(seed, contributions or {}) if randomness_version == 2 else b""
        self._streams: dict[str, Stream] = {}

    def _stream(self, label: str, version_1: Callable[[], Any]):
        if self.version == 1:
            return version_1()
        stream = self._streams.get(label)
        if stream is None:
            stream = self._streams[label] = Stream(self._key, label)
        return stream

    def game(self, version: int):
        """Setting up the game at its start, and every command decided at ``version``."""
        return self._stream(game_label(version), lambda: rng_for(self._seed, version))

    def timeout(self, version: int):
        """The command chosen for a seat whose deadline passed at ``version``."""
        return self._stream(timeout_label(version), lambda: rng_for(self._seed + b"/timeout", version))

    def bot(self, seat: str, version: int):
        """A bot's choice for ``seat`` at ``version`` (version 1: lifecycle.bots.bot_rng)."""
        return self._stream(bot_label(seat, version), lambda: rng_for(self._seed + b"/bot/" + seat.encode(), version))

    def draws(self) -> dict[str, list[list[int]]]:
        """Section 4.4: each label's draws in order; labels that drew nothing are left out."""
        return {label: list(stream.draws) for label, stream in self._streams.items() if stream.draws}
