"""`boardlog audit FILE`: check an exported game offline, trusting nothing
the server says: the hash chain, the seed against its commitment, and every
decision re-run from its command and the seed.

A file that is not an export (another JSON-lines file, a truncated line, a
field of the wrong type) is named line by line in a sentence, exit status 2,
before any check runs: nothing below sees a malformed record.
"""

from __future__ import annotations

import json
import re
import sys
from types import SimpleNamespace

from domain import games as registry
from domain.audit import rerun
from domain.engine import UnreadableHistory
from domain.session import CHAIN_VERSIONS, UnknownChainVersion, created_from_stored
from eventstore.chain import verify_chain

from . import receipt_check

HEX_HASH = re.compile(r"[0-9a-f]{64}")
# Each line of an export: its field and the type that field must have.
FIELDS = {"stream_id": str, "version": int, "event_id": str, "type": str, "schema_version": int,
          "data": dict, "metadata": dict, "hash": str}
TYPE_NAMES = {str: "a string", int: "a whole number", dict: "an object"}
EXPORT = "an export from GET /v1/games/{id}/export"


class NotAnExport(ValueError):
    pass


def read_export(lines) -> list[SimpleNamespace]:
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except ValueError as error:  # JSONDecodeError, and numbers past Python's digit limit
            raise NotAnExport(f"line {number} is not JSON ({error}); this file is not {EXPORT}") from None
        if not isinstance(entry, dict):
            raise NotAnExport(f"line {number} is not a JSON object; this file is not {EXPORT}")
        for name, kind in FIELDS.items():
            value = entry.get(name)
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                what = f"lacks the field {name!r}" if name not in entry else f"has a {name} that is not {TYPE_NAMES[kind]}"
                raise NotAnExport(f"line {number} {what}; this file is not {EXPORT}")
        if not HEX_HASH.fullmatch(entry["hash"]):
            raise NotAnExport(f"line {number} has a hash that is not 64 lowercase hex digits; "
                              f"this file is not {EXPORT}")
        records.append(SimpleNamespace(**entry))
    if not records:
        raise NotAnExport(f"the file holds no events; it is not {EXPORT}")
    return records


def audit_lines(lines) -> tuple[bool, list[str]]:
    try:
        lines, head = receipt_check.split_head(lines)
        records = read_export(lines)
    except (NotAnExport, receipt_check.BadReceipts) as error:
        return False, [str(error)]
    ok, report = audit_records(records)
    signed_ok, signed = receipt_check.signed_report(records, head, None, None)
    return ok and signed_ok, report + signed


def audit_records(records) -> tuple[bool, list[str]]:
    report = []
    chain = verify_chain(records)
    report.append(f"hash chain: {'ok' if chain.ok else 'BROKEN at version ' + str(chain.broken_at) + ': ' + chain.reason}"
                  f" ({chain.checked} events checked)")
    if records[0].type != "GameCreated":
        return False, report + ["the log does not start with GameCreated"]
    chain_version = records[0].data.get("chain_version", 1) if isinstance(records[0].data, dict) else 1
    if chain_version not in CHAIN_VERSIONS:
        raise UnknownChainVersion(f"the game is hashed under chain version {chain_version!r}; this installation "
                                  f"reads chain versions {', '.join(map(str, sorted(CHAIN_VERSIONS)))}")
    try:
        return _rerun_report(records, chain, report)
    except UnreadableHistory as error:
        if chain.ok:
            raise  # this installation lacks what the game was recorded with: no finding either way
        return False, report + [f"the changed history does not read: {error}"]
    except Exception as error:  # a changed row makes decoding raise whatever it raises
        return False, report + [f"the history does not read: {type(error).__name__}: {error}"]


def _rerun_report(records, chain, report) -> tuple[bool, list[str]]:
    created = created_from_stored(getattr(records[0], "schema_version", 1), records[0].data)
    rules = registry.rules_for(created)
    if rules is None:
        return False, report + [f"unknown game {created.game!r}"]
    report.append(f"rules: {rules.name} version {rules.version} ({rules.versions[rules.version]})")
    result = rerun(rules, [
        {"type": r.type, "schema_version": getattr(r, "schema_version", 1), "data": r.data, "metadata": r.metadata}
        for r in records
    ], complete=True)
    report.append(f"seed and decisions: {'ok' if result.ok else 'FAILED'} ({result.batches} batches re-run)")
    report.extend(f"  - {problem}" for problem in result.problems)
    report.extend(standings_lines(result.session))
    return chain.ok and result.ok, report


def standings_lines(session) -> list[str]:
    """The standings the audit checked, a line per seat (rank, seat, score,
    who held the seat at the end); none when the log holds none."""
    if session is None or not session.standings:
        return ["standings: none in the log"]
    lines = ["standings checked:"]
    for standing in session.standings:
        marks = ", ".join(key for key, value in sorted((standing.get("detail") or {}).items()) if value is True)
        lines.append(f"  {standing['rank']}. {standing['seat']}"
                     f" (score {standing.get('score')}, held by {session.players.get(standing['seat'], 'nobody')}"
                     f"{', ' + marks if marks else ''})")
    return lines


def main(args) -> int:
    try:
        with open(args.file, encoding="utf-8") as handle:
            lines, head = receipt_check.split_head(handle)
        records = read_export(lines)
    except (NotAnExport, receipt_check.BadReceipts) as error:
        print(f"cannot audit {args.file}: {error}", file=sys.stderr)
        return 2
    except (OSError, ValueError) as error:  # missing, unreadable, or not UTF-8 text
        print(f"cannot read {args.file}: {error}", file=sys.stderr)
        return 2
    try:
        ok, report = audit_records(records)
    except UnreadableHistory as error:
        # Not a finding about the game: this installation lacks what it was
        # recorded with, so it neither verifies nor accuses it.
        print(f"cannot audit {args.file} with this installation: {error}", file=sys.stderr)
        print("NOT AUDITED")
        return 2
    try:  # salts, the signed head, and --receipts (api/audit/receipt_check.py)
        signed_ok, signed = receipt_check.signed_report(records, head, getattr(args, "keys", None),
                                                        getattr(args, "receipts", None))
    except receipt_check.BadReceipts as error:
        print(f"cannot audit {args.file}: {error}", file=sys.stderr)
        return 2
    ok, report = ok and signed_ok, report + signed
    print("\n".join(report))
    print("VERIFIED" if ok else "NOT VERIFIED")
    return 0 if ok else 1
