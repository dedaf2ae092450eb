"""The committed vectors of section 4 (tests/verifier/vectors/randomness.json)
hold for domain/randomness.py: a change to the generator, the key or the
commitment that was not meant (and so not written into the specification and
its vectors) fails here. The second verifier checks itself against the same file."""

from __future__ import annotations

import hashlib
import json

import pytest

from domain import randomness
from tests.verifier.make_randomness_vectors import PATH, vectors

VECTORS = json.loads(PATH.read_text(encoding="utf-8"))


def test_every_group_of_vectors_says_what_it_holds():
    assert set(VECTORS) == {"commitment", "key", "generator", "rejection", "draws"}
    assert all(group["what"] and group["cases"] for group in VECTORS.values())


def test_the_committed_vectors_are_the_ones_the_script_makes_now():
    assert vectors() == VECTORS


@pytest.mark.parametrize("case", VECTORS["commitment"]["cases"])
def test_the_commitment_is_the_sha256_of_the_seed_bytes(case):
    assert hashlib.sha256(bytes.fromhex(case["seed"])).hexdigest() == case["sha256"]


@pytest.mark.parametrize("case", VECTORS["key"]["cases"])
def test_the_key_mixes_every_contribution_into_the_seed(case):
    assert randomness.canonical_json({"contributions": case["contributions"],
                                      "purpose": "boardlog randomness key"}).decode() == case["message"]
    assert randomness.key(bytes.fromhex(case["seed"]), case["contributions"]).hex() == case["key"]


@pytest.mark.parametrize("case", VECTORS["generator"]["cases"], ids=lambda c: c["label"])
def test_the_generator_gives_the_vectors_words_and_draws(case):
    key = bytes.fromhex(case["key"])
    stream = randomness.Stream(key, case["label"])
    assert [f"{stream.word():016x}" for _ in range(8)] == case["words"]
    assert [c["n"] for c in case["below"]] == [1, 2, 6, 7, 52, 92, 2 ** 32 + 1, 2 ** 53]
    for below in case["below"]:
        stream = randomness.Stream(key, case["label"])
        assert [stream.below(below["n"]) for _ in below["values"]] == below["values"]


def test_the_rejection_vector_skips_the_word_it_names():
    case = VECTORS["rejection"]["cases"][0]
    stream = randomness.Stream(bytes.fromhex(case["key"]), case["label"])
    assert [stream.below(case["n"]) for _ in case["values"]] == case["values"]
    [rejected] = case["rejected"]
    words = randomness.Stream(bytes.fromhex(case["key"]), case["label"])
    seen = [words.word() for _ in range(rejected["word_index"] + 1)]
    assert f"{seen[-1]:016x}" == rejected["word"] and seen[-1] >= 2 ** 64 - 2 ** 64 % case["n"]
