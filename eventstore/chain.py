"""The per-stream hash chain, in plain Python so audits can re-check it offline.

    hash(v) = sha256(hash(v-1) || canonical_json(event v))      hash(0) = b""

where ``event v`` is the dict of data, event_id, metadata, schema_version,
stream_id, type and version, and canonical JSON has sorted keys, no spaces and
UTF-8 text. PostgreSQL computes the same bytes inside ``eventstore_append``.

What the chain proves, and what it does not (docs/referees.md, "What the
hash chain proves"): every field that decides a game or that the audit re-runs is in
the hashed document, and each link holds the one before it, so no event can
be changed, removed, reordered or inserted without breaking the chain at that
version (and the stream head, which holds the last version and hash, catches
events cut off the end). ``recorded_at``, ``global_position`` and ``tx_id``
are not in it, on purpose: they are the server's own bookkeeping (its clock
at commit, the order of commits across streams), which no rule and no audit
check reads, and a hash could not make them truer, since the server that
writes them is the party the chain cannot vouch for at write time.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any, Iterable


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def salt(seed: bytes, version: int) -> str:
    """The salt of the event at ``version`` in a game of chain version 2
    (openapi/verifying-a-game.md, section 3.2): metadata that makes each
    hashed document hiding, since nobody can compute it before the secret
    seed is published at the end of the game."""
    return hmac.new(seed, f"boardlog/salt/{version}".encode("ascii"), hashlib.sha256).hexdigest()


def event_document(event) -> dict:
    """The hashed form of a RecordedEvent (or anything with the same attributes)."""
    return {
        "data": event.data,
        "event_id": str(event.event_id),
        "metadata": event.metadata,
        "schema_version": event.schema_version,
        "stream_id": event.stream_id,
        "type": event.type,
        "version": event.version,
    }


def link_hash(previous_hex: str | None, document_text: str) -> str:
    previous = bytes.fromhex(previous_hex) if previous_hex else b""
    return hashlib.sha256(previous + document_text.encode("utf-8")).hexdigest()


def verify_chain(events: Iterable, head: tuple[int, str | None] | None = None):
    """Check a stream's events in version order; name the first broken link.

    ``head`` is the (version, hash) the store believes is the stream's last
    link; a mismatch there catches events cut off the end.
    """
    from eventstore.types import Verification

    previous: str | None = None
    checked = 0
    for event in events:
        expected_version = checked + 1
        if event.version != expected_version:
            return Verification(False, checked, expected_version,
                                f"version {expected_version} is missing (found {event.version})")
        if link_hash(previous, canonical_json(event_document(event))) != event.hash:
            return Verification(False, checked, event.version,
                                f"the hash of version {event.version} does not match its content "
                                "and the previous link")
        previous = event.hash
        checked += 1
    if head is not None:
        head_version, head_hash = head
        if head_version != checked or (checked and head_hash != previous):
            return Verification(False, checked, min(head_version, checked + 1),
                                f"the stream head says version {head_version}, "
                                f"but its events end at version {checked}")
    return Verification(True, checked, None, None)
