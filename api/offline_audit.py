"""`boardlog audit FILE`: check an exported game offline, trusting nothing
the server says: the hash chain, the seed against its commitment, and every
decision re-run from its command and the seed."""

from __future__ import annotations

import json
import sys
from types import SimpleNamespace

from domain import games as registry
from domain.audit import rerun
from domain.engine import UnreadableHistory
from domain.session import created_from_stored
from eventstore.chain import verify_chain


def audit_lines(lines) -> tuple[bool, list[str]]:
    records = [SimpleNamespace(**json.loads(line)) for line in lines if line.strip()]
    report = []
    if not records:
        return False, ["the file holds no events"]
    chain = verify_chain(records)
    report.append(f"hash chain: {'ok' if chain.ok else 'BROKEN at version ' + str(chain.broken_at) + ': ' + chain.reason}"
                  f" ({chain.checked} events checked)")
    if records[0].type != "GameCreated":
        return False, report + ["the log does not start with GameCreated"]
    created = created_from_stored(getattr(records[0], "schema_version", 1), records[0].data)
    rules = registry.rules_for(created)
    if rules is None:
        return False, report + [f"unknown game {created.game!r}"]
    report.append(f"rules: {rules.name} version {rules.version} ({rules.versions[rules.version]})")
    result = rerun(rules, [
        {"type": r.type, "schema_version": getattr(r, "schema_version", 1), "data": r.data, "metadata": r.metadata}
        for r in records
    ])
    report.append(f"seed and decisions: {'ok' if result.ok else 'FAILED'} ({result.batches} batches re-run)")
    report.extend(f"  - {problem}" for problem in result.problems)
    return chain.ok and result.ok, report


def main(args) -> int:
    try:
        with open(args.file, encoding="utf-8") as handle:
            ok, report = audit_lines(handle)
    except UnreadableHistory as error:
        # Not a finding about the game: this installation lacks what it was
        # recorded with, so it neither verifies nor accuses it.
        print(f"cannot audit {args.file} with this installation: {error}", file=sys.stderr)
        print("NOT AUDITED")
        return 2
    except (OSError, ValueError, TypeError) as error:
        print(f"cannot read {args.file}: {error}", file=sys.stderr)
        return 2
    print("\n".join(report))
    print("VERIFIED" if ok else "NOT VERIFIED")
    return 0 if ok else 1
