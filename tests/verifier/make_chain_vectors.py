"""Writes tests/verifier/vectors/chain.json: test vectors of canonical JSON,
the hash chain, salts and signed heads (openapi/verifying-a-game.md,
sections 2, 3 and 6), computed by boardlog's own code.

    .venv/bin/python tests/verifier/make_chain_vectors.py

tests/verifier/test_chain_vectors.py checks that the committed file is what
this script writes, and each case against the code again.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: the project root on the path
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey  # noqa: E402

from api.service.receipts import head_message, key_id_of, raw_public  # noqa: E402
from eventstore.chain import canonical_json, link_hash, salt  # noqa: E402

OUTPUT = Path(__file__).with_name("vectors") / "chain.json"

# Inputs as JSON text: a verifier parses them keeping each number's text (section 2).
CANONICAL_INPUTS = [
    '{"b": 1, "a": 2}',
    '{"z": {"y": [3, {"d": null, "c": true}], "x": false}, "a": []}',
    '{"name": "Zoë Ñúñez", "city": "Zürich", "kana": "カード", "emoji": "\U0001F0CF"}',
    '{"quote": "say \\"hi\\"", "backslash": "a\\\\b", "slash": "a/b", "del": "\u007f"}',
    '{"controls": "\\u0002\\u0001\\b\\t\\n\\u000b\\f\\r\\u001f", "space": " "}',
    '{"\uFB01": "U+FB01 sorts before U+1F600 by code point (not by UTF-16 unit)", "\U0001F600": 1}',
    '{"bank_seconds": 3600.0, "other": 12.345, "whole": 3600, "negative": -7, "zero": 0}',
    '{"line": "U+2028 \u2028 and U+2029 \u2029 stay as they are"}',
]

STREAM = "game-5f0c1c9e-6a4e-4d38-9a8a-2f8c1e0b7d11"
SEED = bytes.fromhex("6b1f2ae3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f")
DOCUMENTS = [
    {"data": {"game": "cronberg", "options": {"players": 2, "rounds": 2, "turn_seconds": None}, "seats": ["p1", "p2"],
              "host": "0b7a4c1e-1111-4f00-9a00-000000000001", "seed_sha256": "see section 4.1",
              "rules_version": 1, "data_files": {}, "chain_version": 2, "randomness_version": 1},
     "event_id": "00000000-0000-4000-8000-000000000001",
     "metadata": {"actor": "0b7a4c1e-1111-4f00-9a00-000000000001", "seat": None,
                  "command": {"type": "CreateGame", "game": "cronberg", "seat": None}, "decided_at": 0},
     "schema_version": 3, "stream_id": STREAM, "type": "GameCreated", "version": 1},
    {"data": {"seat": "p1", "player": "0b7a4c1e-1111-4f00-9a00-000000000001"},
     "event_id": "00000000-0000-4000-8000-000000000002",
     "metadata": {"actor": "0b7a4c1e-1111-4f00-9a00-000000000001", "seat": None,
                  "command": {"type": "CreateGame", "game": "cronberg", "seat": None}, "decided_at": 0,
                  "seated": {"p1": "0b7a4c1e-1111-4f00-9a00-000000000001"}, "to_act": [], "turn_came": []},
     "schema_version": 1, "stream_id": STREAM, "type": "SeatTaken", "version": 2},
    {"data": {"seat": "p2", "player": "Ærø \"quoted\" / ünïcödé"},
     "event_id": "00000000-0000-4000-8000-000000000003",
     "metadata": {"actor": "Ærø \"quoted\" / ünïcödé", "seat": None, "command": {"type": "JoinGame", "seat": None},
                  "decided_at": 2, "to_act": [], "turn_came": []},
     "schema_version": 1, "stream_id": STREAM, "type": "SeatTaken", "version": 3},
]
for document in DOCUMENTS:
    document["metadata"]["salt"] = salt(SEED, document["version"])

SIGNING_SEED = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")  # RFC 8032, test 1


def build() -> dict:
    canonical = [{"input": text, "canonical": canonical_json(json.loads(text)),
                  "utf8_hex": canonical_json(json.loads(text)).encode().hex()} for text in CANONICAL_INPUTS]
    chain, previous = [], None
    for document in DOCUMENTS:
        text = canonical_json(document)
        link = link_hash(previous, text)
        chain.append({"previous": previous or "", "document": document, "canonical": text, "hash": link})
        previous = link
    salts = [{"seed": SEED.hex(), "version": version, "salt": salt(SEED, version)} for version in (1, 2, 3, 10, 4096)]
    private = Ed25519PrivateKey.from_private_bytes(SIGNING_SEED)
    public = raw_public(private)
    signatures = []
    for document, link in zip(DOCUMENTS, (c["hash"] for c in chain)):
        message = head_message(document["stream_id"], document["version"], link)
        signatures.append({"private_key_seed": SIGNING_SEED.hex(), "public_key": public.hex(),
                           "key_id": key_id_of(public), "stream_id": document["stream_id"],
                           "version": document["version"], "hash": link, "message_hex": message.hex(),
                           "signature": private.sign(message).hex()})
    return {
        "canonical_json": {"what": "the JSON text of a value (its numbers' text kept) -> its canonical text and "
                                   "that text's UTF-8 bytes (section 2)", "cases": canonical},
        "chain": {"what": "three hashed documents of one stream in order: previous link (empty for the first), the "
                          "document, its canonical text, and its link SHA256(previous bytes || UTF-8 text) "
                          "(section 3.1)", "cases": chain},
        "salt": {"what": "seed (32 bytes, hex) and version -> HMAC-SHA256(seed, \"boardlog/salt/<version>\") hex "
                         "(section 3.2)", "cases": salts},
        "signature": {"what": "a fixed Ed25519 private key seed (RFC 8032 test 1), its raw public key and key id, a "
                              "head, the bytes signed (UTF8(\"boardlog-head\\n\" + canonical_json(head))) and the "
                              "signature (section 6)", "cases": signatures},
    }


def text() -> str:
    return json.dumps(build(), indent=1, ensure_ascii=False) + "\n"


def main() -> int:
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    OUTPUT.write_text(text(), encoding="utf-8")
    print(f"wrote {OUTPUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
