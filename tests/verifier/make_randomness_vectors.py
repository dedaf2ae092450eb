"""Writes tests/verifier/vectors/randomness.json: the test vectors of
openapi/verifying-a-game.md section 4 (randomness version 2), from
domain/randomness.py. Run it only when section 4 changes on purpose:

    .venv/bin/python -m tests.verifier.make_randomness_vectors

tests/verifier/test_randomness_vectors.py checks the generator against the
committed file, so a change of the generator that was not meant fails CI.
"""

from __future__ import annotations

import hashlib
import json
import pathlib

from domain import randomness

PATH = pathlib.Path(__file__).parent / "vectors" / "randomness.json"
SEEDS = [bytes(32), bytes(range(32)), hashlib.sha256(b"boardlog test seed").digest()]
CONTRIBUTIONS = [
    {},
    {"p1": "00"},
    {"p2": "5f3a9c0d2e7b41a8", "p10": "ff", "lind": "c0ffee"},  # seats sorted by code point: lind, p10, p2
    {"p1": "ab" * 64},
]
LABELS = ["game/1", "timeout/3", "bot/p2/17"]
BELOW_N = [1, 2, 6, 7, 52, 92, 2 ** 32 + 1, 2 ** 53]
# 2^64 mod n is about n here, so about one word in 2049 is rejected: the
# search below finds a label whose first draws reject one.
REJECTING_N = 2 ** 64 // 2049 + 1
CALLS = 8


def _below_case(key: bytes, label: str, n: int) -> dict:
    stream, words, rejected = randomness.Stream(key, label), [], []
    values = []
    for _ in range(CALLS):
        while True:
            word = stream.word()
            words.append(word)
            if word < randomness.TWO_64 - randomness.TWO_64 % n:
                values.append(word % n)
                break
            rejected.append({"word_index": len(words) - 1, "word": f"{word:016x}"})
    return {"n": n, "values": values, "rejected": rejected}


def _rejecting_case(key: bytes) -> dict:
    for d in range(100_000):
        label = f"game/{d}"
        case = _below_case(key, label, REJECTING_N)
        if case["rejected"]:
            return {"key": key.hex(), "label": label, **case}
    raise AssertionError("no label rejects a word")


def _helpers(key: bytes) -> list[dict]:
    """The table of section 4.3, each from a fresh stream of (key, label)."""
    cases = []

    def run(what, label, call):
        stream = randomness.Stream(key, label)
        result = call(stream)
        cases.append({"draw": what, "label": label, "result": result, "draws": stream.draws})

    run("randint(1, 6), five dice", "game/2", lambda s: [s.randint(1, 6) for _ in range(5)])
    run("choice of ['a', 'b', 'c', 'd', 'e']", "game/3", lambda s: s.choice(["a", "b", "c", "d", "e"]))

    def shuffled(s):
        items = list(range(10))
        s.shuffle(items)
        return items

    run("shuffle of [0, 1, ..., 9] in place", "game/4", shuffled)
    run("sample of 3 distinct from [0, 1, ..., 9]", "game/5", lambda s: s.sample(list(range(10)), 3))
    run("three reals in [0, 1)", "bot/p1/6", lambda s: [s.random() for _ in range(3)])
    run("an element of ['x', 'y', 'z'] by weights [1.0, 2.5, 0.5], four times", "bot/p1/7",
        lambda s: [s.choices(["x", "y", "z"], [1.0, 2.5, 0.5])[0] for _ in range(4)])
    return cases


def vectors() -> dict:
    keys = []
    for seed in SEEDS[:2]:
        for contributions in CONTRIBUTIONS:
            keys.append({
                "seed": seed.hex(), "contributions": contributions,
                "message": randomness.canonical_json(
                    {"contributions": contributions, "purpose": randomness.KEY_PURPOSE}).decode(),
                "key": randomness.key(seed, contributions).hex(),
            })
    generator_keys = [randomness.key(SEEDS[0], {}), randomness.key(SEEDS[1], CONTRIBUTIONS[2])]
    generator = []
    for key in generator_keys:
        for label in LABELS:
            stream = randomness.Stream(key, label)
            generator.append({
                "key": key.hex(), "label": label,
                "words": [f"{stream.word():016x}" for _ in range(8)],
                "below": [_below_case(key, label, n) for n in BELOW_N],
            })
    return {
        "commitment": {
            "what": "seed_sha256 of GameCreated: the SHA-256 of the 32 seed bytes (not of their hex), section 4.1",
            "cases": [{"seed": seed.hex(), "sha256": hashlib.sha256(seed).hexdigest()} for seed in SEEDS],
        },
        "key": {
            "what": "K = HMAC-SHA256(key = seed bytes, message = UTF-8 of the canonical JSON shown), section 4.2",
            "cases": keys,
        },
        "generator": {
            "what": "the stream of (K, label): its first 8 words, and below(n) called 8 times on a fresh stream "
                    "for each n (rejected: the stream's words that below skipped, by index from 0), section 4.3",
            "cases": generator,
        },
        "rejection": {
            "what": f"below({REJECTING_N}) called 8 times on a fresh stream of a label whose words include one at or "
                    "above limit = 2^64 - (2^64 mod n), which below skips (rejected names it), section 4.3",
            "cases": [_rejecting_case(generator_keys[0])],
        },
        "draws": {
            "what": "each kind of draw of the table of section 4.3 on a fresh stream of (K, label), with its result "
                    "and the draw list [[n, value], ...] it records (section 4.4); K is generator's first key",
            "key": generator_keys[0].hex(),
            "cases": _helpers(generator_keys[0]),
        },
    }


def main() -> None:
    PATH.parent.mkdir(parents=True, exist_ok=True)
    PATH.write_text(json.dumps(vectors(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {PATH}")


if __name__ == "__main__":
    main()
