"""A game of chain version 2 and randomness version 2 made from a golden
game by following "Verifying a game" by hand (salts, a contribution, a draw
list): it lets the second verifier's checks of those versions run on this
branch, whose server still writes version 1, and it is a third reading of
the specification (in Python, from the document only).

It is not a game the server could have played (its draws are not the ones
its rules took), so only the checks of sections 3 and 4 are asked of it."""

from __future__ import annotations

import hashlib
import hmac
import json

HASHED = ("data", "event_id", "metadata", "schema_version", "stream_id", "type", "version")


def canonical(document) -> bytes:
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def rehash(events: list[dict]) -> None:
    previous = b""
    for event in events:
        previous = hashlib.sha256(previous + canonical({k: event[k] for k in HASHED})).digest()
        event["hash"] = previous.hex()


def salt(seed: bytes, version: int) -> str:
    return hmac.new(seed, f"boardlog/salt/{version}".encode(), hashlib.sha256).hexdigest()


def key(seed: bytes, contributions: dict) -> bytes:
    message = canonical({"contributions": contributions, "purpose": "boardlog randomness key"})
    return hmac.new(seed, message, hashlib.sha256).digest()


class Stream:
    def __init__(self, k: bytes, label: str):
        self.k, self.label, self.block, self.words = k, label.encode(), 0, []

    def word(self) -> int:
        if not self.words:
            block = hmac.new(self.k, self.label + b"\0" + self.block.to_bytes(8, "big"), hashlib.sha256).digest()
            self.words = [int.from_bytes(block[i:i + 8], "big") for i in range(0, 32, 8)]
            self.block += 1
        return self.words.pop(0)

    def below(self, n: int) -> int:
        limit = 2**64 - 2**64 % n
        while True:
            w = self.word()
            if w < limit:
                return w % n


CONTRIBUTION = "c0ffee"


def version_2_game(lines: list[str]) -> list[dict]:
    """The golden game's events as a game of both versions 2: a
    contribution of the first seat's holder in the lobby (as the last event
    before PlayersSeated), salts on every event, and a draw list (a shuffle
    of 52 and two dice) on the decision that started the game."""
    events = [json.loads(line) for line in lines]
    seed = bytes.fromhex(next(e for e in events if e["type"] == "GameOver")["data"]["seed"])
    events[0]["data"].update(chain_version=2, randomness_version=2)
    start = next(i for i, e in enumerate(events) if e["type"] == "PlayersSeated")
    taken = next(e for e in events if e["type"] == "SeatTaken")
    contributed = {
        "stream_id": events[0]["stream_id"], "event_id": "00000000-0000-4000-8000-000000000001",
        "type": "SeedContributed", "schema_version": 1,
        "data": {"seat": taken["data"]["seat"], "contribution": CONTRIBUTION},
        "metadata": {"actor": taken["data"]["player"], "seat": taken["data"]["seat"],
                     "command": {"type": "ContributeRandomness", "contribution": CONTRIBUTION}},
        "recorded_at": events[start]["recorded_at"],
    }
    events.insert(start, contributed)
    # One more event before the start: every later version and decided_at moves by one.
    for version, event in enumerate(events, 1):
        old = event.get("version")
        event["version"] = version
        if event is contributed:
            event["metadata"]["decided_at"] = version - 1
        elif old is not None and old >= start + 1:
            event["metadata"]["decided_at"] += 1
    k = key(seed, {taken["data"]["seat"]: CONTRIBUTION})
    started_at = events[start + 1]["metadata"]["decided_at"]
    label = f"game/{started_at}"
    stream = Stream(k, label)
    draws = [[n, stream.below(n)] for n in range(52, 1, -1)] + [[6, stream.below(6)], [6, stream.below(6)]]
    for event in events:
        if event["metadata"]["decided_at"] == started_at:
            event["metadata"]["draws"] = {label: draws}
        event["metadata"]["salt"] = salt(seed, event["version"])
    rehash(events)
    return events


# RFC 8032's test 1 key: its seed, its raw public key and their key id (6.1).
TEST_KEY_SEED = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"
TEST_PUBLIC_KEY = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
TEST_KEY_ID = hashlib.sha256(bytes.fromhex(TEST_PUBLIC_KEY)).hexdigest()[:16]


def head_message(stream_id: str, version: int, link: str) -> bytes:
    return b"boardlog-head\n" + canonical({"hash": link, "stream_id": stream_id, "version": version})


def receipt(event: dict, sign) -> dict:
    """The receipt of an event's version (6.3); ``sign`` signs bytes with the
    test key and returns 128 hex digits."""
    return {"stream_id": event["stream_id"], "version": event["version"], "hash": event["hash"],
            "key_id": TEST_KEY_ID, "signature": sign(head_message(event["stream_id"], event["version"], event["hash"]))}


def with_head(events: list[dict], sign) -> list[dict]:
    """The export: the events, then the signed head of the last (6.5)."""
    return [*events, {"head": {**receipt(events[-1], sign), "public_key": TEST_PUBLIC_KEY}}]
