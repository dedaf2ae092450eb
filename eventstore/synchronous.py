"""Whether the primary's commits wait for synchronous standbys that are not
there. A standby made by ``pg_basebackup`` copies the primary's
``synchronous_standby_names``; promoted, it then waits at every commit for a
standby of its own that does not exist, and every write freezes with
nothing said (an audit's failover froze for 94 s). PostgreSQL shows this
state in ``pg_stat_replication``; this module reads it and says it in a
sentence an operator can act on.

What a connection cannot see it does not claim: standbys whose
``sync_state`` is hidden from this role (it lacks ``pg_read_all_stats``)
count as present."""

from __future__ import annotations

import re

CHECK = """
select current_setting('synchronous_standby_names') as names,
       current_setting('synchronous_commit') as commit,
       pg_is_in_recovery() as recovery,
       (select count(*) from pg_stat_replication where sync_state in ('sync', 'quorum')) as synchronous,
       (select count(*) from pg_stat_replication where sync_state is null) as hidden
"""
NUMBERED = re.compile(r"^\s*(?:(?:first|any)\s+)?(\d+)\s*\(", re.IGNORECASE)
RESET = "ALTER SYSTEM RESET synchronous_standby_names; SELECT pg_reload_conf();"


def required_standbys(names: str) -> int:
    """How many synchronous standbys ``synchronous_standby_names`` makes a
    commit wait for: ``FIRST n (...)``, ``ANY n (...)`` and ``n (...)`` say
    n; a plain list (or ``*``) means one; empty, none."""
    if not names.strip():
        return 0
    numbered = NUMBERED.match(names)
    return int(numbered.group(1)) if numbered else 1


def missing_standbys(conn) -> str | None:
    """A sentence when this server's commits wait for more synchronous
    standbys than are connected; else None."""
    names, commit, recovery, synchronous, hidden = conn.execute(CHECK).fetchone()
    needed = required_standbys(names)
    if recovery or commit in ("off", "local") or hidden or synchronous >= needed:
        return None
    return (f"every commit waits for {needed} synchronous standby(s) and {synchronous} is connected "
            f"(synchronous_standby_names = '{names}' on this primary, copied from the old one by pg_basebackup "
            f"perhaps): writes hang until one connects or the setting is reset on the primary: {RESET}")
