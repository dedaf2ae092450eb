"""Checking a history against signed heads (openapi/verifying-a-game.md,
sections 3.2 and 6): the export's head line, the salts, and the receipts a
player kept. Used by ``boardlog audit`` (offline, trusting nothing the
server says) and by GET /v1/games/{id}/audit?receipt=.

What each check catches: a chain recomputed after a rewrite is intact, so
the chain alone does not stop whoever can write the database; but a
player's receipt names the head the server signed when it answered them,
and the rewritten history has another head at that version (unless the
rewrite changed nothing at or before it). An export cut off at its end has
no signed head of its last event. Salts prove that each hashed document of
a chain version 2 game was salted from the committed seed.
"""

from __future__ import annotations

import json
import re

from eventstore.chain import salt

from ..service.receipts import ALGORITHM, key_id_of, signature_holds

HEX = {64: re.compile(r"[0-9a-f]{64}"), 16: re.compile(r"[0-9a-f]{16}"), 128: re.compile(r"[0-9a-f]{128}")}
RECEIPT_MEMBERS = {"stream_id": str, "version": int, "hash": 64, "key_id": 16, "signature": 128}


class BadReceipts(ValueError):
    """Input that cannot be judged: a malformed receipt, one of another game,
    one signed by a key that is not the server's. Its text is a sentence."""


def chain_version_of(records) -> int:
    data = records[0].data if records else {}
    version = data.get("chain_version", 1) if isinstance(data, dict) else 1
    return version if isinstance(version, int) and not isinstance(version, bool) else 0


# Export lines


def split_head(lines) -> tuple[list[str], dict | None]:
    """(event lines, head) of an export's lines; the head line is the last
    one that is not blank, ``{"head": {...}}``, and becomes a blank line, so
    that the others keep their numbers. A head line anywhere else is refused."""
    lines = list(lines)
    filled = [index for index, line in enumerate(lines) if line.strip()]
    head = None
    for index in filled:
        try:
            entry = json.loads(lines[index])
        except ValueError:
            continue  # the export reader names it
        if isinstance(entry, dict) and "head" in entry:
            if index != filled[-1]:
                raise BadReceipts(f"line {index + 1} is a head line, but events follow it; only the last line "
                                  "of an export holds the signed head")
            head, lines[index] = entry, "\n"
    return lines, head


def head_report(records, head: dict | None, keys: dict | None) -> tuple[bool, list[str]]:
    """The signed final head: present for a chain version 2 game, naming the
    last event, signed by its public key (one of ``keys``, when given)."""
    if chain_version_of(records) < 2:
        return True, ["signed head: none (chain version 1 games have none)" + ("" if head is None else ", ignored")]
    if head is None:
        return False, ["signed head: MISSING: the export is cut off or unsigned"]
    receipt = head.get("head")
    try:
        _check_shape(receipt, "the head line")
        public_key = receipt.get("public_key")
        if not isinstance(public_key, str) or not HEX[64].fullmatch(public_key):
            raise BadReceipts("the head line has no public_key of 64 lowercase hex digits")
    except BadReceipts as error:
        return False, [f"signed head: MALFORMED: {error}"]
    last = records[-1]
    problems = []
    if (receipt["stream_id"], receipt["version"], receipt["hash"]) != (last.stream_id, last.version, last.hash):
        problems.append(f"it is the head of {receipt['stream_id']} at version {receipt['version']}, not of the last "
                        f"event (version {last.version}): the export is cut off or altered")
    if key_id_of(bytes.fromhex(public_key)) != receipt["key_id"]:
        problems.append(f"its key id {receipt['key_id']} is not the id of its public key")
    elif not signature_holds(receipt, public_key):
        problems.append(f"its signature does not hold under key {receipt['key_id']}")
    if keys is not None and keys.get(receipt["key_id"]) != public_key:
        problems.append(f"key {receipt['key_id']} is not one of the server's keys given with --keys")
    if problems:
        return False, ["signed head: NOT VALID: " + "; ".join(problems)]
    known = " (one of the server's keys)" if keys is not None else " (pass --keys to check it is the server's)"
    return True, [f"signed head: ok, version {last.version} signed by key {receipt['key_id']}{known}"]


def salt_report(records) -> tuple[bool, list[str]]:
    """Every event of a chain version 2 game holds the salt of its version."""
    if chain_version_of(records) < 2:
        return True, []
    seed = next((r.data.get("seed") for r in records if r.type == "GameOver" and isinstance(r.data, dict)), None)
    try:
        seed_bytes = bytes.fromhex(seed) if isinstance(seed, str) else None
    except ValueError:
        seed_bytes = None
    if seed_bytes is None:
        return False, ["salts: cannot be checked: no GameOver publishes the seed"]
    for record in records:
        if record.metadata.get("salt") != salt(seed_bytes, record.version):
            return False, [f"salts: WRONG at version {record.version}: its salt is not the one of the seed"]
    return True, [f"salts: ok ({len(records)} events)"]


# Receipts


def _check_shape(receipt, where: str) -> None:
    if not isinstance(receipt, dict):
        raise BadReceipts(f"{where} is not a JSON object with {', '.join(RECEIPT_MEMBERS)}")
    for name, kind in RECEIPT_MEMBERS.items():
        value = receipt.get(name)
        if kind is int:
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise BadReceipts(f"{where} has no version (a whole number from 1)")
        elif kind is str:
            if not isinstance(value, str) or not value:
                raise BadReceipts(f"{where} has no stream_id")
        elif not isinstance(value, str) or not HEX[kind].fullmatch(value):
            raise BadReceipts(f"{where} has no {name} of {kind} lowercase hex digits")


def parse_keys(document) -> dict[str, str]:
    """key_id -> public key hex, from GET /v1/keys's answer (or its list)."""
    listed = document.get("keys") if isinstance(document, dict) else document
    if not isinstance(listed, list):
        raise BadReceipts('the keys file is not GET /v1/keys\'s answer ({"keys": [...]})')
    keys = {}
    for index, key in enumerate(listed, 1):
        if not (isinstance(key, dict) and key.get("algorithm") == ALGORITHM and isinstance(key.get("public_key"), str)
                and HEX[64].fullmatch(key["public_key"]) and key.get("key_id") == key_id_of(bytes.fromhex(key["public_key"]))):
            raise BadReceipts(f"key {index} of the keys file is not an Ed25519 key with its key_id and public_key")
        keys[key["key_id"]] = key["public_key"]
    return keys


def check_receipts(receipts, stream_id: str, keys: dict[str, str]) -> list[dict]:
    """The receipts, each checked as genuine: well formed, of ``stream_id``,
    signed by one of ``keys``. BadReceipts names the first that is not."""
    if not isinstance(receipts, list) or not receipts:
        raise BadReceipts("the receipts are not a non-empty JSON list of receipts")
    for index, receipt in enumerate(receipts, 1):
        _check_shape(receipt, f"receipt {index}")
        if receipt["stream_id"] != stream_id:
            raise BadReceipts(f"receipt {index} is of {receipt['stream_id']}, not of this game ({stream_id})")
        public_key = keys.get(receipt["key_id"]) or _own_key(receipt)
        if public_key is None:
            known = ", ".join(sorted(keys)) or "none known: pass --keys with the answer of GET /v1/keys"
            raise BadReceipts(f"receipt {index} is signed by key {receipt['key_id']}, which is not one of the "
                              f"server's keys ({known})")
        if not signature_holds(receipt, public_key):
            raise BadReceipts(f"receipt {index}'s signature does not hold under key {receipt['key_id']}: it was "
                              "altered, or was never signed by the server")
    return receipts


def _own_key(receipt: dict) -> str | None:
    """The public key a receipt carries (receipts given since they carry it),
    if it is the key its key_id names: what checks a receipt whose key the key
    list given no longer names (the operator replaced the list since)."""
    public_key = receipt.get("public_key")
    if isinstance(public_key, str) and HEX[64].fullmatch(public_key) \
            and key_id_of(bytes.fromhex(public_key)) == receipt["key_id"]:
        return public_key
    return None


def unlisted(receipts, keys: dict[str, str]) -> list[str]:
    """The key ids of receipts checked by their own public key, not by ``keys``."""
    return sorted({receipt["key_id"] for receipt in receipts if receipt["key_id"] not in keys})


def compare(hashes: dict[int, str], receipts) -> dict:
    """Whether the history (version -> hash) agrees with each receipt.
    ``disagrees_at``: the lowest version of a receipt the history
    contradicts; the history was changed at or before it, and after
    ``agrees_up_to``, the highest version below it that a receipt vouches for."""
    agreeing, disagreeing = [], []
    last = max(hashes, default=0)
    for receipt in sorted(receipts, key=lambda r: r["version"]):
        (agreeing if hashes.get(receipt["version"]) == receipt["hash"] else disagreeing).append(receipt["version"])
    if not disagreeing:
        return {"ok": True, "checked": len(receipts), "disagrees_at": None, "agrees_up_to": max(agreeing),
                "reason": None}
    first = disagreeing[0]
    below = [version for version in agreeing if version < first]
    since = below[-1] if below else 0
    if first > last:
        reason = (f"a receipt names version {first}, but the history ends at version {last}: "
                  "events were removed from its end")
    else:
        reason = (f"the history's head after version {first} is not the one the server signed in that receipt: "
                  f"an event from version {since + 1} to {first} was changed, removed or inserted since")
    return {"ok": False, "checked": len(receipts), "disagrees_at": first, "agrees_up_to": since or None,
            "reason": reason}


def receipts_report(records, receipts, keys: dict[str, str]) -> tuple[bool, list[str]]:
    check_receipts(receipts, records[0].stream_id, keys)
    result = compare({r.version: r.hash for r in records}, receipts)
    others = unlisted(receipts, keys)
    note = [f"receipts signed by key(s) {', '.join(others)}, which the key list given does not name, were checked "
            "by the public key each carries: the server's key list changed since they were signed"] if others else []
    if result["ok"]:
        return True, [f"receipts: ok, the history agrees with all {result['checked']} "
                      f"(up to version {result['agrees_up_to']})", *note]
    return False, [f"receipts: DISAGREE at version {result['disagrees_at']}: {result['reason']}", *note]


def _load_json(path: str, what: str):
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except (OSError, ValueError) as error:
        raise BadReceipts(f"cannot read the {what} file {path}: {error}") from None


def signed_report(records, head: dict | None, keys_path: str | None, receipts_path: str | None):
    """``boardlog audit``'s lines about the salts, the signed head and the
    receipts given with --receipts; BadReceipts for input it cannot judge."""
    keys = parse_keys(_load_json(keys_path, "keys")) if keys_path else None
    ok, report = salt_report(records)
    head_ok, lines = head_report(records, head, keys)
    ok, report = ok and head_ok, report + lines
    if receipts_path:
        receipts = _load_json(receipts_path, "receipts")
        known = keys
        if known is None:  # without --keys, the key of the export's own signed head is the one known
            signed = (head or {}).get("head")
            known = {signed["key_id"]: signed["public_key"]} if head_ok and isinstance(signed, dict) else {}
        receipts_ok, lines = receipts_report(records, receipts, known)
        ok, report = ok and receipts_ok, report + lines
    return ok, report
