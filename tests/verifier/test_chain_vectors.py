"""The vectors of tests/verifier/vectors/chain.json are what boardlog's code
computes: the committed file is what make_chain_vectors.py writes, and each
case holds against the code that hashes, salts and signs in production."""

from __future__ import annotations

import hashlib
import hmac
import json
import uuid
from pathlib import Path
from types import SimpleNamespace

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from api.service.receipts import head_message, key_id_of, raw_public, signature_holds
from eventstore.chain import canonical_json, link_hash, salt, verify_chain
from eventstore.types import NewEvent, event_body
from tests.verifier import make_chain_vectors

VECTORS = json.loads((Path(__file__).with_name("vectors") / "chain.json").read_text(encoding="utf-8"))


def test_the_committed_vectors_are_what_the_script_writes():
    assert (Path(__file__).with_name("vectors") / "chain.json").read_text(encoding="utf-8") == make_chain_vectors.text()


def test_every_group_says_what_it_is():
    assert set(VECTORS) == {"canonical_json", "chain", "salt", "signature"}
    assert all(group["what"] and group["cases"] for group in VECTORS.values())


def test_canonical_json_writes_each_value_as_its_vector_says():
    for case in VECTORS["canonical_json"]["cases"]:
        text = canonical_json(json.loads(case["input"]))
        assert text == case["canonical"] and text.encode().hex() == case["utf8_hex"], case["input"]
    assert any('"bank_seconds":3600.0' in case["canonical"] for case in VECTORS["canonical_json"]["cases"])


def test_each_link_of_the_chain_is_the_one_the_store_computes():
    cases = VECTORS["chain"]["cases"]
    for case in cases:
        document = case["document"]
        assert canonical_json(document) == case["canonical"]
        assert link_hash(case["previous"] or None, case["canonical"]) == case["hash"]
        # PostgreSQL hashes the body the store sends it, finished with the version.
        event = NewEvent(document["type"], document["data"], document["metadata"],
                         uuid.UUID(document["event_id"]), document["schema_version"])
        assert event_body(document["stream_id"], event) + f',"version":{document["version"]}}}' == case["canonical"]
    records = [SimpleNamespace(**case["document"], hash=case["hash"]) for case in cases]
    assert verify_chain(records).ok
    assert [case["previous"] for case in cases[1:]] == [case["hash"] for case in cases[:-1]]


def test_each_salt_is_the_hmac_of_its_version():
    for case in VECTORS["salt"]["cases"]:
        seed = bytes.fromhex(case["seed"])
        assert salt(seed, case["version"]) == case["salt"]
        assert hmac.new(seed, f"boardlog/salt/{case['version']}".encode(), hashlib.sha256).hexdigest() == case["salt"]


def test_each_signature_is_the_servers_signature_of_its_head():
    for case in VECTORS["signature"]["cases"]:
        private = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(case["private_key_seed"]))
        assert raw_public(private).hex() == case["public_key"] and key_id_of(raw_public(private)) == case["key_id"]
        message = head_message(case["stream_id"], case["version"], case["hash"])
        assert message.hex() == case["message_hex"]
        assert private.sign(message).hex() == case["signature"]
        assert signature_holds(case, case["public_key"])
        assert not signature_holds({**case, "version": case["version"] + 1}, case["public_key"])
