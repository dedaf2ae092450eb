"""The primary among DATABASE_URL's hosts.

DATABASE_URL may name several hosts, libpq's way
(``postgresql://h1:5432,h2:5433/db?target_session_attrs=read-write``):
libpq then tries them in order on every connect and keeps the first that
takes writes, so each of boardlog's connections (the pool, the LISTEN
connection, the notifier's lease and reads, the workers, migrations, the
CLI) finds the primary when it connects, and the new one after a failover
when it reconnects. Nothing here sits between a connection and libpq; this
module only says, once at start-up, what libpq would not: that the URL can
never lead to a primary.

- Several hosts without ``target_session_attrs=read-write`` (or ``primary``):
  libpq would keep the first host that answers, a standby perhaps, and every
  write there would fail. Refused at start-up rather than added silently,
  so that the URL an operator reads is the one in use.
- Every host answers and every one is a standby (in recovery): refused at
  start-up with a sentence naming them. A host that does not answer may be
  the primary on its way back, so a URL with one is waited for as an
  unreachable PostgreSQL always is.
"""

from __future__ import annotations

import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo

PRIMARY_ATTRS = ("read-write", "primary")
PROBE_TIMEOUT = 5  # seconds, per host


class NoPrimary(SystemExit):
    """DATABASE_URL can never lead to a primary; the message says why."""


def hosts(url: str) -> list[dict]:
    """The conninfo of each host the URL names (``host``, ``port``, ``hostaddr``), in order."""
    params = conninfo_to_dict(url)
    columns = {key: str(params.get(key) or "").split(",") for key in ("host", "hostaddr", "port")}
    count = max(len(values) for values in columns.values())
    found = []
    for index in range(count):
        one = {}
        for key, values in columns.items():
            value = values[index] if len(values) == count else values[0]  # one port may serve every host
            if value:
                one[key] = value
        found.append(one)
    return found


def shown(host: dict) -> str:
    return f"{host.get('host') or host.get('hostaddr') or 'localhost'}:{host.get('port') or '5432'}"


def check_url(url: str, name: str = "DATABASE_URL") -> None:
    """Refuse (NoPrimary) several hosts that libpq would not search for the primary."""
    named = hosts(url)
    attrs = conninfo_to_dict(url).get("target_session_attrs") or "any"
    if len(named) > 1 and attrs not in PRIMARY_ATTRS:
        raise NoPrimary(
            f"{name} names {len(named)} hosts ({', '.join(shown(h) for h in named)}) without "
            f"target_session_attrs=read-write: libpq would keep the first that answers, a standby perhaps; "
            f"add ?target_session_attrs=read-write so that every connection finds the primary")


def _in_recovery(url: str, host: dict) -> bool | None:
    """Whether that one host is a standby; None if it does not answer."""
    try:
        with psycopg.connect(make_conninfo(url, **host, target_session_attrs="any", connect_timeout=PROBE_TIMEOUT),
                             autocommit=True) as conn:
            return conn.execute("select pg_is_in_recovery()").fetchone()[0]
    except psycopg.OperationalError:
        return None


def standbys_only(url: str, name: str = "DATABASE_URL") -> NoPrimary | None:
    """The refusal to raise when every host answers as a standby, else None."""
    named = hosts(url)
    if all(_in_recovery(url, host) is True for host in named):
        listed = ", ".join(shown(h) for h in named)
        return NoPrimary(
            f"{name} names only standbys (every host is in recovery: {listed}): boardlog writes, and needs "
            f"the primary among them; add its host, or promote one (pg_ctl promote)")
    return None


def connect_primary(url: str, name: str = "DATABASE_URL", **kwargs) -> psycopg.Connection:
    """psycopg.connect, refusing (NoPrimary) a URL that leads to no primary;
    an unreachable PostgreSQL is the OperationalError it always was."""
    check_url(url, name)
    try:
        conn = psycopg.connect(url, **kwargs)
    except psycopg.OperationalError:
        refusal = standbys_only(url, name)
        if refusal is not None:
            raise refusal from None
        raise
    try:
        standby = conn.execute("select pg_is_in_recovery()").fetchone()[0]
        if not conn.autocommit:
            conn.rollback()
    except BaseException:
        conn.close()
        raise
    if standby:  # one host, no target_session_attrs: libpq took it as it is
        conn.close()
        raise NoPrimary(f"{name} names a standby ({shown(hosts(url)[0])} is in recovery): boardlog writes, "
                        f"and needs the primary; name it (several hosts: add ?target_session_attrs=read-write)")
    return conn


def refuse_without_primary(url: str, name: str = "DATABASE_URL") -> None:
    """At start-up: NoPrimary if the URL leads to no primary; nothing if it
    does, or if PostgreSQL is unreachable (a process waits for it then)."""
    try:
        connect_primary(url, name, autocommit=True, connect_timeout=PROBE_TIMEOUT).close()
    except psycopg.OperationalError:
        pass
