"""Randomness version 1 pinned, and version 2's generator as section 4 of
openapi/verifying-a-game.md defines it.

Version 1 games drew from CPython's random.Random, seeded as rng_for seeds it.
Python promises only random() to stay the same for a seed; the helpers games
use (shuffle, choice, randint, randrange, sample, choices) may change in a
release. The literals below were taken once from CPython 3.11: a Python whose
helpers draw differently fails here, instead of silently breaking the audit
of every game recorded before version 2."""

from __future__ import annotations

import hashlib
import hmac
import random

import pytest

from domain import randomness
from domain.engine import rng_for
from domain.lifecycle.bots import bot_rng


def _draws(rng) -> dict:
    """One of each helper, in this order, from one rng."""
    out = {
        "random": [rng.random() for _ in range(3)],
        "randint": [rng.randint(1, 6) for _ in range(6)],
        "randint10": [rng.randint(1, 10) for _ in range(4)],
        "randrange": [rng.randrange(92) for _ in range(4)],
        "choice": [rng.choice("abcdefg") for _ in range(5)],
    }
    items = list(range(12))
    rng.shuffle(items)
    out["shuffle"] = items
    out["sample"] = rng.sample(list(range(20)), 5)
    out["choices"] = rng.choices(["x", "y", "z"], [1.0, 2.5, 0.5], k=5)
    return out


VERSION_1 = [
    (lambda: rng_for(b"seed", 0), {
        "random": [0.2707864779844863, 0.9779903623742955, 0.27733422991542434], "randint": [4, 4, 1, 4, 2, 2],
        "randint10": [1, 9, 8, 8], "randrange": [9, 89, 89, 53], "choice": ["f", "d", "d", "a", "d"],
        "shuffle": [5, 10, 3, 7, 2, 1, 4, 11, 9, 8, 0, 6], "sample": [17, 6, 3, 16, 0],
        "choices": ["x", "y", "x", "z", "y"]}),
    (lambda: rng_for(bytes(range(32)), 17), {
        "random": [0.864558771367007, 0.7757124762876446, 0.5633704122686084], "randint": [3, 1, 5, 5, 2, 2],
        "randint10": [6, 9, 2, 9], "randrange": [69, 72, 87, 24], "choice": ["a", "d", "c", "f", "b"],
        "shuffle": [2, 9, 6, 4, 7, 8, 5, 1, 0, 11, 3, 10], "sample": [6, 19, 11, 4, 3],
        "choices": ["y", "y", "z", "x", "y"]}),
    (lambda: rng_for(bytes(range(32)) + b"/timeout", 42), {
        "random": [0.018617034271291133, 0.38249100582441287, 0.34159925910413946], "randint": [4, 3, 1, 3, 5, 4],
        "randint10": [5, 7, 9, 5], "randrange": [6, 55, 69, 23], "choice": ["a", "b", "d", "b", "d"],
        "shuffle": [0, 7, 10, 4, 3, 5, 6, 2, 1, 9, 11, 8], "sample": [4, 2, 19, 6, 13],
        "choices": ["x", "x", "y", "y", "y"]}),
    (lambda: bot_rng(bytes(range(32)), "p2", 9), {
        "random": [0.19620614019713434, 0.9288137003861852, 0.8457033058976706], "randint": [5, 3, 1, 6, 2, 1],
        "randint10": [1, 9, 8, 7], "randrange": [39, 18, 46, 84], "choice": ["d", "e", "b", "d", "g"],
        "shuffle": [3, 0, 11, 6, 8, 10, 5, 1, 2, 4, 7, 9], "sample": [19, 16, 14, 4, 8],
        "choices": ["y", "y", "x", "z", "y"]}),
]


@pytest.mark.parametrize("make, expected", VERSION_1, ids=["game-0", "game-17", "timeout-42", "bot-p2-9"])
def test_version_1_draws_what_cpython_drew_when_the_old_games_were_recorded(make, expected):
    assert _draws(make()) == expected


def test_version_1_shuffles_a_deck_and_samples_a_large_population_as_it_did():
    deck = list(range(52))
    rng_for(b"deck", 5).shuffle(deck)
    assert deck == [21, 18, 38, 47, 6, 33, 49, 4, 28, 26, 42, 39, 45, 5, 16, 2, 11, 14, 29, 22, 20, 17, 31, 46, 51,
                    15, 9, 34, 37, 12, 50, 44, 27, 35, 24, 10, 8, 19, 30, 43, 0, 3, 36, 32, 41, 23, 25, 48, 7, 13,
                    1, 40]
    rng = rng_for(b"deck", 6)  # a sample of 3 from 100 takes CPython's other branch (a set of picks)
    assert (rng.sample(list(range(100)), 3), rng.sample(list(range(8)), 8)) == ([68, 72, 42], [5, 2, 0, 1, 3, 7, 4, 6])


def test_a_version_1_source_gives_the_rngs_the_old_code_made():
    seed = bytes(range(32))
    source = randomness.Source(1, seed, {"p1": "ff"})  # contributions never enter version 1
    assert source.game(17).random() == rng_for(seed, 17).random()
    assert source.timeout(42).random() == rng_for(seed + b"/timeout", 42).random()
    assert source.bot("p2", 9).random() == bot_rng(seed, "p2", 9).random()
    assert isinstance(source.game(1), random.Random) and source.draws() == {}


# Version 2


def test_a_stream_is_hmac_sha256_of_the_label_a_zero_byte_and_the_block_number():
    key, label = bytes(range(32)), "game/7"
    block = hmac.new(key, b"game/7\x00" + (1).to_bytes(8, "big"), hashlib.sha256).digest()
    stream = randomness.Stream(key, label)
    words = [stream.word() for _ in range(8)]
    assert words[4:] == [int.from_bytes(block[i:i + 8], "big") for i in range(0, 32, 8)]


def test_below_rejects_the_words_at_or_above_the_last_whole_multiple_of_n():
    stream = randomness.Stream(b"k", "game/1")
    stream.word = iter([2 ** 64 - 1, 2 ** 64 - 2, 13]).__next__  # 2^64 mod 7 = 2: the top two words are skipped
    assert stream.below(7) == 13 % 7 and stream.draws == [[7, 6]]


@pytest.mark.parametrize("n", [0, -1, 2 ** 53 + 1, 2.0, True])
def test_below_takes_only_whole_n_from_1_to_2_to_the_53(n):
    with pytest.raises(ValueError):
        randomness.Stream(b"k", "game/1").below(n)


def test_every_helper_is_built_on_below_and_records_each_call():
    stream = randomness.Stream(b"k", "game/1")
    die = stream.randint(1, 6)
    card = stream.choice(["a", "b", "c"])
    deck = list(range(5))
    stream.shuffle(deck)
    picked = stream.sample(range(10), 2)
    real = stream.random()
    by_weight = stream.choices(["x", "y"], [0.0, 1.0])[0]
    span = stream.randrange(3, 5)
    assert [n for n, _ in stream.draws] == [6, 3, 5, 4, 3, 2, 10, 9, 2 ** 53, 2 ** 53, 2]
    values = [v for _, v in stream.draws]
    assert die == 1 + values[0] and card == "abc"[values[1]]
    assert picked[0] == values[6] and real == values[8] / 2 ** 53 and by_weight == "y" and span == 3 + values[10]
    assert sorted(deck) == list(range(5))


def test_a_version_2_source_keeps_one_stream_per_label_and_lists_only_those_that_drew():
    source = randomness.Source(2, bytes(32), {})
    assert source.game(4) is source.game(4)
    source.game(4).randint(1, 6)
    source.timeout(4)
    source.bot("p1", 4).random()
    assert set(source.draws()) == {"game/4", "bot/p1/4"}


def test_a_contribution_changes_the_key_and_so_every_draw():
    seed = bytes(32)
    assert randomness.key(seed, {}) != randomness.key(seed, {"p1": "00"}) != randomness.key(seed, {"p1": "01"})
    first = [randomness.Source(2, seed, c).game(3).below(2 ** 53) for c in ({}, {"p1": "00"}, {"p1": "01"})]
    assert len(set(first)) == 3


def test_an_unknown_randomness_version_is_named():
    with pytest.raises(randomness.UnknownRandomnessVersion, match="randomness version 3"):
        randomness.Source(3, bytes(32))


@pytest.mark.parametrize("text, why", [
    ("", "1 to 64 bytes"), ("abc", "two digits a byte"), ("zz", "two digits a byte"), ("ab" * 65, "at most 64 bytes"),
    (17, "1 to 64 bytes"),
])
def test_a_contribution_is_1_to_64_bytes_in_hex(text, why):
    with pytest.raises(randomness.BadContribution, match=why):
        randomness.contribution_hex(text)


def test_a_contribution_is_recorded_in_lowercase():
    assert randomness.contribution_hex("C0FFEE") == "c0ffee"


# Contributions in the lobby (domain.session)


def _lobby(randomness_version: int = 2):
    from dataclasses import replace

    from domain import games
    from domain import session as sessions

    rules = games.REGISTRY["cronberg"]
    session = sessions.replay(rules, sessions.create(rules, "ada", {"players": 2}, bytes(32), None))
    session = sessions.replay(rules, sessions.join(session, "bob", None), session)
    return rules, replace(session, randomness_version=randomness_version)


def test_a_contribution_is_recorded_for_the_seat_and_enters_the_key_of_the_start():
    from domain import session as sessions

    rules, session = _lobby()
    [event] = sessions.contribute(session, "bob", "AB")
    assert event == sessions.SeedContributed("p2", "ab")
    session = sessions.replay(rules, [event], session)
    assert session.contributions == {"p2": "ab"}
    source = sessions.source(session, bytes(32))
    assert source.game(session.version).below(2 ** 53) == \
        randomness.Stream(randomness.key(bytes(32), {"p2": "ab"}), f"game/{session.version}").below(2 ** 53)


def test_a_game_of_randomness_version_1_takes_no_contribution():
    from domain import session as sessions

    _, session = _lobby(randomness_version=1)
    with pytest.raises(sessions.LobbyRefusal, match="randomness version 1"):
        sessions.contribute(session, "bob", "ab")


def test_a_contribution_needs_a_seat_the_lobby_and_no_earlier_one():
    from domain import session as sessions

    rules, session = _lobby()
    with pytest.raises(sessions.NotSeated):
        sessions.contribute(session, "eve", "ab")
    session = sessions.replay(rules, sessions.contribute(session, "bob", "ab"), session)
    assert sessions.contribute(session, "bob", "AB") == []
    with pytest.raises(sessions.ContributionMade):
        sessions.contribute(session, "bob", "cd")
    started = sessions.replay(rules, sessions.start(rules, session, "ada", sessions.source(session, bytes(32)).game(3)),
                              session)
    with pytest.raises(sessions.LobbyRefusal, match="the game has started: contributions are fixed before the start"):
        sessions.contribute(started, "ada", "ab")
