"""Chain and randomness version 2 on a game made by hand from the
specification (tests/verifier/specimen.py): salts, contributions, draw
lists, the signed head and receipts, each refused by the check that owns it
when forged."""

from __future__ import annotations

import copy
import hashlib
import json
import subprocess
from pathlib import Path

import pytest

from tests.verifier import tampering
from tests.verifier.harness import (
    GOLDEN,
    checks_of,
    export_lines,
    first_failure,
    second_verifier,
    verify_lines,
)

# --- chain and randomness version 2, on a game made by hand from the
# specification (this branch's server still writes version 1)

SECTIONS_3_AND_4 = ("lines", "versions", "canonical_json", "chain", "salts", "commitment", "key", "draws",
                    "metadata", "batches", "seats", "end")


def _version_2(golden: Path) -> list[dict]:
    from tests.verifier.specimen import version_2_game

    return version_2_game(export_lines(golden))


def test_the_second_verifier_checks_salts_contributions_and_draws_of_a_version_2_game(node, tmp_path):
    answer = second_verifier([json.dumps(e) for e in _version_2(GOLDEN[-1])], tmp_path)
    checks = checks_of(answer)
    assert (answer["chain_version"], answer["randomness_version"]) == (2, 2)
    assert [name for name in SECTIONS_3_AND_4 if not checks[name]["ok"] or checks[name].get("skipped")] == []
    assert "1 contribution" in checks["key"]["reason"] and "53 draws" in checks["draws"]["reason"]


def _refused_by(events: list[dict], tmp_path: Path) -> str:
    return first_failure(second_verifier([json.dumps(e) for e in events], tmp_path))


def test_the_second_verifier_refuses_a_wrong_salt(node, tmp_path):
    from tests.verifier.specimen import rehash

    events = _version_2(GOLDEN[-1])
    events[9]["metadata"]["salt"] = events[10]["metadata"]["salt"]
    rehash(events)
    assert _refused_by(events, tmp_path) == "salts @10"


def test_the_second_verifier_refuses_a_draw_that_is_not_the_streams(node, tmp_path):
    from tests.verifier.specimen import rehash

    events = _version_2(GOLDEN[-1])
    drawn = [e for e in events if "draws" in e["metadata"]]
    for event in drawn:  # the whole decision lists the forged draw, as a server would write it
        (draws,) = event["metadata"]["draws"].values()
        draws[-1][1] = (draws[-1][1] + 1) % 6
    rehash(events)
    assert _refused_by(events, tmp_path) == f"draws @{drawn[0]['version']}"


def test_the_second_verifier_refuses_a_contribution_changed_after_the_fact(node, tmp_path):
    from tests.verifier.specimen import rehash

    events = _version_2(GOLDEN[-1])
    contributed = next(e for e in events if e["type"] == "SeedContributed")
    contributed["data"]["contribution"] = contributed["metadata"]["command"]["contribution"] = "beef"
    rehash(events)  # the key changes, so the draws no longer come from it
    assert _refused_by(events, tmp_path).startswith("draws @")


def test_the_second_verifier_refuses_a_contribution_by_another_than_the_seats_holder(node, tmp_path):
    from tests.verifier.specimen import rehash

    events = _version_2(GOLDEN[-1])
    contributed = next(e for e in events if e["type"] == "SeedContributed")
    contributed["metadata"]["actor"] = tampering.STRANGER
    rehash(events)
    assert _refused_by(events, tmp_path) == f"key @{contributed['version']}"


# --- signed heads and receipts (section 6), signed here with RFC 8032's test
# key through node's own Ed25519

_SIGNER = """
const {createPrivateKey, sign} = require("node:crypto");
const key = createPrivateKey({key: Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"),
                                                  Buffer.from(process.argv[1], "hex")]), format: "der", type: "pkcs8"});
for (const m of require("node:fs").readFileSync(0, "utf8").split("\\n").filter(Boolean))
  console.log(sign(null, Buffer.from(m, "hex"), key).toString("hex"));
"""


def node_signer(node: str):
    def sign(message: bytes) -> str:
        from tests.verifier.specimen import TEST_KEY_SEED

        done = subprocess.run([node, "-e", _SIGNER, TEST_KEY_SEED], input=message.hex() + "\n", capture_output=True,
                              text=True, timeout=60, check=True)
        return done.stdout.strip()

    return sign


@pytest.fixture
def signed_game(node):
    from tests.verifier.specimen import with_head

    sign = node_signer(node)
    events = _version_2(GOLDEN[-1])
    return events, sign, with_head(events, sign)


def _keys_file(tmp_path: Path, public_key: str) -> Path:
    key_id = hashlib.sha256(bytes.fromhex(public_key)).hexdigest()[:16]
    path = tmp_path / "keys.json"
    path.write_text(json.dumps({"keys": [{"key_id": key_id, "algorithm": "Ed25519", "public_key": public_key,
                                          "created_at": "2026-12-01T00:00:00Z", "retired_at": None}]}))
    return path


def test_a_signed_version_2_game_is_verified_with_the_servers_keys(signed_game, tmp_path):
    from tests.verifier.specimen import TEST_PUBLIC_KEY

    _, _, export = signed_game
    answer = verify_lines(export, tmp_path, "--keys", str(_keys_file(tmp_path, TEST_PUBLIC_KEY)))
    assert answer["verdict"] == "VERIFIED", answer
    assert "one of the server's keys" in checks_of(answer)["head"]["reason"]


def test_a_head_signed_by_a_key_the_server_does_not_list_is_refused(signed_game, tmp_path):
    _, _, export = signed_game
    answer = verify_lines(export, tmp_path, "--keys", str(_keys_file(tmp_path, "11" * 32)))
    assert first_failure(answer) == f"head @{export[-2]['version']}"


def test_an_export_cut_off_with_its_head_line_or_without_it_is_refused(signed_game, tmp_path):
    events, _, export = signed_game
    assert first_failure(verify_lines(events[:-1], tmp_path)) == f"end @{events[-2]['version']}"
    without_standings = export[:-2] + export[-1:]  # the head line kept: it is not the last event's
    assert checks_of(verify_lines(without_standings, tmp_path))["head"]["ok"] is False


def test_a_forged_event_with_the_chain_recomputed_is_caught_by_the_signed_head(signed_game, tmp_path):
    from tests.verifier.specimen import rehash

    events, _, export = signed_game
    forged = copy.deepcopy(events)
    forged[40]["data"]["forged"] = True
    rehash(forged)
    answer = verify_lines([*forged, export[-1]], tmp_path)
    assert checks_of(answer)["chain"]["ok"] and first_failure(answer) == f"head @{forged[-1]['version']}"


def test_a_history_rewritten_and_signed_again_is_caught_by_the_receipts_a_player_kept(signed_game, tmp_path):
    from tests.verifier.specimen import receipt, rehash, with_head

    events, sign, _ = signed_game
    kept = [receipt(events[9], sign), receipt(events[99], sign)]
    rewritten = copy.deepcopy(events)
    rewritten[50]["data"]["forged"] = True
    rehash(rewritten)
    receipts = tmp_path / "receipts.json"
    receipts.write_text(json.dumps(kept))
    answer = verify_lines(with_head(rewritten, sign), tmp_path, "--receipts", str(receipts))  # the server signs it again
    checks = checks_of(answer)
    assert checks["head"]["ok"] and first_failure(answer) == "receipts @100"
    assert "between versions 11 and 100" in checks["receipts"]["reason"]
    honest = verify_lines(with_head(events, sign), tmp_path, "--receipts", str(receipts))
    assert honest["verdict"] == "VERIFIED" and "2 receipt(s) agree" in checks_of(honest)["receipts"]["reason"]


@pytest.mark.parametrize("spoil, why", [
    (lambda r: {k: v for k, v in r.items() if k != "signature"}, "is not {stream_id"),
    (lambda r: {**r, "stream_id": "game-00000000-0000-4000-8000-000000000000"}, "not of this game"),
    (lambda r: {**r, "key_id": "0123456789abcdef"}, "key 0123456789abcdef is unknown"),
    (lambda r: {**r, "hash": "00" * 32}, "signature does not hold"),
])
def test_a_receipt_that_cannot_be_judged_is_named_and_judges_nothing(signed_game, tmp_path, spoil, why):
    from tests.verifier.specimen import receipt

    events, sign, export = signed_game
    receipts = tmp_path / "receipts.json"
    receipts.write_text(json.dumps([receipt(events[3], sign), spoil(receipt(events[5], sign))]))
    answer = verify_lines(export, tmp_path, "--receipts", str(receipts))
    assert answer["verdict"] == "NOT AUDITED"
    assert answer["checks"][-1]["reason"].startswith("receipt 2 cannot be judged") and why in answer["checks"][-1]["reason"]


def test_a_receipt_that_cannot_be_judged_does_not_hide_a_failed_check(signed_game, tmp_path):
    events, _, export = signed_game
    receipts = tmp_path / "receipts.json"
    receipts.write_text(json.dumps([{"stream_id": events[0]["stream_id"], "version": 3}]))
    answer = verify_lines(export[:-2] + export[-1:], tmp_path, "--receipts", str(receipts))
    assert answer["verdict"] == "NOT VERIFIED" and first_failure(answer).startswith("end @")


def test_receipts_are_compared_with_the_links_the_export_gives_not_the_hashes_it_states(signed_game, tmp_path):
    from tests.verifier.specimen import receipt

    events, sign, export = signed_game
    receipts = tmp_path / "receipts.json"
    receipts.write_text(json.dumps([receipt(events[30], sign)]))
    edited = copy.deepcopy(export)
    edited[30]["data"]["edited"] = True  # its hash member left as it was
    checks = checks_of(verify_lines(edited, tmp_path, "--receipts", str(receipts)))
    assert checks["chain"]["version"] == "31" and checks["receipts"]["version"] == "31"

