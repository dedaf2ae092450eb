"""The command's own transaction under pgbench, for bench/cycles.py (issue
37: command cycles against what the durable write alone costs, same
clients, same PostgreSQL, same run).

A real POST's statement is captured (``capture``): in a process of its own,
the app as production makes it (``create_app`` from the environment, on the
cycles' database), through Flask's test client, plays moves of a Cronberg
game and records the ``boardlog_command`` call psycopg sends
(``psycopg.Connection.execute``, with its parameters). psycopg's
``ClientCursor.mogrify`` renders it with its parameters as literals, except
what must differ from one append to the next, which become pgbench
variables: the game (its stream, its row, the key's scope), its two
players, the expected version, the events' ids, the Idempotency-Key and the
versions the key records. Every other argument (the events' bodies, the
game's status and seats to act, the timestamp) is the captured one.

Each pgbench client appends to a game of its own, a real one created
through the API before the run (``prepare_pool``: one per client and
round, so rounds never share a stream), reading its game and version once
from a table of the pool (``bench_pgbench_pool``) and then the version each
append returns (``\\gset``), so that no version conflicts. Simple query
protocol (pgbench's ``-M simple``: variables are substituted into the
text); psycopg sends the statement with the extended protocol, unprepared:
one round trip either way. The select list is ``version, outcome`` and the
statement's ``now()`` (the events' time), as named variables (it returns
two more columns, one of them null, which ``\\gset`` would take as
variables); tests/eventstore/test_pgbench_template.py checks the template
against the statement a POST sends. After each round the appended events are counted:
every pgbench transaction must have appended the command's events, or the
bench fails.

With ``notify`` the script also sends, after each command, in a transaction
of its own, the NOTIFY the notifier sends for it (eventstore/notifier.py's
statement, one payload: the notifier batches several, so this is its
dearest case).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

import psycopg

from bench.cycles_wire import PLAY_SETUP

ROOT = Path(__file__).resolve().parent.parent

# Run in a process of its own (cwd: the checkout): play a game through the
# test client and print the template of the last command's statement.
CAPTURE_SCRIPT = r"""
import json, sys, uuid
import psycopg
from psycopg import ClientCursor
from psycopg.types.json import Jsonb
from api.http.app import create_app

moves = int(sys.argv[1])
seen = []
real_execute = psycopg.Connection.execute
def execute(self, query, params=None, *args, **kwargs):
    if isinstance(query, str) and "from boardlog_command(" in query:
        seen.append((query, params))
    return real_execute(self, query, params, *args, **kwargs)
psycopg.Connection.execute = execute

app = create_app({"RATE_LIMIT_PER_MINUTE": 0})
service = app.extensions["boardlog"].service
client = app.test_client()
""" + PLAY_SETUP + r"""
for _ in range(moves):
    headers = seats[client.get(f"/v1/games/{game}", headers=a).json["to_act"][0]]
    command = client.get(f"/v1/games/{game}/legal-commands", headers=headers).json["commands"][0]
    answer = client.post(f"/v1/games/{game}/commands", json=command,
                         headers={**headers, "Idempotency-Key": uuid.uuid4().hex})
    assert answer.status_code == 200, answer.json
query, params = seen[-1]
(stream_id, expected, bodies, notify, game_id, status, host, to_act, deadline, outcome, seats_, life,
 back_player, now, key) = params
with service.pool.connection() as conn:
    seated = {str(p): s for p, s in conn.execute("select player_id, seat from game_seats where game_id = %s",
                                                  (game_id,)).fetchall()}
    back_player = str(back_player)
    other = next(p for p in seated if p != back_player)
# Sentinels for what varies, replaced by pgbench variables below.
G, P, O = "5e5e5e5e-0000-4000-8000-00000000000a", "5e5e5e5e-0000-4000-8000-00000000000b", "5e5e5e5e-0000-4000-8000-00000000000c"
EXPECTED, FIRST, LAST, KEY = 977777771, 977777772, 977777773, "5e" * 16
def swap(text):
    return text.replace(str(game_id), G).replace(str(back_player), P).replace(str(other), O)
new_bodies = []
for i, body in enumerate(bodies):
    event_id = json.loads(body + "}")["event_id"]
    new_bodies.append(swap(body.replace(event_id, f"5e5e5e5e-0000-4000-8000-0000000001{i:02d}")))
def swapped_json(value):
    return None if value is None else Jsonb(json.loads(swap(json.dumps(value.obj))))
key_obj = json.loads(swap(json.dumps(key.obj)))
key_obj["key"] = KEY
if "first" in key_obj:
    key_obj["first"], key_obj["last"] = FIRST, LAST
new = (swap(stream_id), EXPECTED, new_bodies, notify, uuid.UUID(G), status,
       uuid.UUID(swap(str(host))) if host else None, to_act, deadline, outcome, swapped_json(seats_),
       swapped_json(life), uuid.UUID(P), now, Jsonb(key_obj))
with service.pool.connection() as conn:
    sql = ClientCursor(conn).mogrify(query.replace("%b", "%s"), new)
service.store.close()
print(json.dumps({"sql": sql, "events": len(bodies), "sent": query, "notify": notify,
                  "acting_seat": seated[back_player]}))
"""

SENTINELS = {
    "5e5e5e5e-0000-4000-8000-00000000000a": ":bench_game",
    "5e5e5e5e-0000-4000-8000-00000000000b": ":bench_player",
    "5e5e5e5e-0000-4000-8000-00000000000c": ":bench_other",
    "977777771": ":bench_v",
    "977777772": ":bench_f",
    "977777773": ":bench_l",
    "5e" * 16: "kkkkkkkk:bench_c:bench_r:bench_e",
}


def require_pgbench() -> str:
    """pgbench's path, or SystemExit saying how to get it."""
    found = shutil.which("pgbench")
    if not found:
        raise SystemExit("bench/cycles.py needs pgbench (PostgreSQL's client tools: apt-get install "
                         "postgresql-client, or the PostgreSQL server's bin folder on PATH) for the command's own "
                         "transaction; it was not found on PATH")
    return found


def capture(url: str, redis_url: str, moves: int = 10) -> dict:
    """The pgbench template of a real POST's ``boardlog_command`` call (CAPTURE_SCRIPT)."""
    done = subprocess.run([sys.executable, "-c", CAPTURE_SCRIPT, str(moves)], cwd=ROOT, capture_output=True,
                          text=True, check=False,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "DATABASE_URL": url, "REDIS_URL": redis_url,
                               "BOARDLOG_LOG_LEVEL": "WARNING"})
    if done.returncode:
        raise SystemExit(f"a POST's statement could not be captured:\n{done.stderr[-3000:]}")
    captured = json.loads(done.stdout.strip().splitlines()[-1])
    sql = captured["sql"]
    for sentinel, variable in SENTINELS.items():
        if sentinel not in sql and sentinel not in ("977777772", "977777773"):
            raise SystemExit(f"the captured statement has no {variable} where expected:\n{sql[:2000]}")
        sql = sql.replace(sentinel, variable).replace(sentinel.replace("-", ""), variable)  # uuids: either form
    # The events' ids: unique per client, round and version.
    sql = re.sub(r"5e5e5e5e-0000-4000-8000-0000000001(\d\d)", r":bench_c-:bench_r-4000-8000-\1:bench_e", sql)
    # The columns as named variables for pgbench's \gset; now() as the statement reads it (the events' time).
    sql, count = re.subn(r"^select outcome, version, detail, absences_ended, now\(\) from", "select version as bench_v, "
                         "outcome as bench_outcome, now() as bench_now from", sql)
    if count != 1:
        raise SystemExit(f"the captured statement is not the one this bench knows:\n{sql[:500]}")
    if re.search(r"5e5e5e5e|97777777", sql):
        raise SystemExit(f"a sentinel was left in the captured statement:\n{sql[:2000]}")
    captured["template"] = " ".join(sql.split("\n"))
    return captured


def script(captured: dict, notify: bool) -> str:
    """The pgbench script: its game once, then one command a transaction."""
    lines = [
        r"\if :bench_started = 0",
        (r"select game_id as bench_game, player_id as bench_player, other_id as bench_other, version as bench_v"
         r" from bench_pgbench_pool where round = :bench_r and client = :client_id \gset"),
        r"\set bench_started 1",
        r"\endif",
        r"\set bench_f :bench_v + 1",
        rf"\set bench_l :bench_v + {captured['events']}",
        r"\set bench_e 1000000000 + :bench_v",
        r"\set bench_c 10000000 + :client_id",
        captured["template"] + r" \gset",
    ]
    if notify:
        lines.append("select pg_notify('boardlog_events', payload)"
                     " from unnest(array['game-' || ':bench_game' || ':' || :bench_v]) as payload")
    return "\n".join(lines) + "\n"


def prepare_pool(url: str, rounds: list[int], games: list[str], clients: int) -> None:
    """Each round's games, one per pgbench client: the real games ``games``,
    ``clients`` for each of ``rounds``, with their seated players and version."""
    if len(games) < len(rounds) * clients:
        raise ValueError("one game per client and round")
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("create table if not exists bench_pgbench_pool (round integer, client integer, game_id uuid,"
                     " player_id uuid, other_id uuid, version bigint, primary key (round, client))")
        at = iter(games)
        for round_ in rounds:
            for client in range(clients):
                game = next(at)
                conn.execute(
                    "insert into bench_pgbench_pool"
                    " select %s, %s, g.id, p1.player_id, p2.player_id, s.version from games g"
                    " join game_seats p1 on p1.game_id = g.id and p1.seat = 'p1'"
                    " join game_seats p2 on p2.game_id = g.id and p2.seat = 'p2'"
                    " join streams s on s.stream_id = 'game-' || g.id where g.id = %s",
                    (round_, client, game))


def appended(url: str, round_: int) -> int:
    """Events appended to the round's games since they were pooled."""
    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute("select coalesce(sum(s.version - p.version), 0) from bench_pgbench_pool p"
                            " join streams s on s.stream_id = 'game-' || p.game_id where p.round = %s",
                            (round_,)).fetchone()[0]


def run(pgbench: str, url: str, captured: dict, round_: int, seconds: float, clients: int, notify: bool,
        folder: Path) -> tuple[float, int]:
    """One pgbench round on the round's games: transactions per second
    (connections' set-up excluded) and how many, or SystemExit if any failed
    or did not append."""
    path = folder / f"pgbench-{round_}{'-notify' if notify else ''}.sql"
    path.write_text(script(captured, notify))
    done = subprocess.run([pgbench, "-n", "-M", "simple", "-c", str(clients), "-j", str(min(clients, 4)),
                           "-T", str(max(1, int(seconds))), "-D", "bench_started=0", "-D", f"bench_r={round_}",
                           "-f", str(path), url], capture_output=True, text=True, check=False)
    out = done.stdout + done.stderr
    processed = re.search(r"number of transactions actually processed: (\d+)", out)
    failed = re.search(r"number of failed transactions: (\d+)", out)
    tps = re.search(r"tps = ([\d.]+) \(without initial connection time\)", out)
    if done.returncode or not processed or not tps or (failed and int(failed.group(1))):
        raise SystemExit(f"pgbench failed (exit {done.returncode}):\n{out[-3000:]}")
    events = appended(url, round_)
    if events != int(processed.group(1)) * captured["events"]:
        raise SystemExit(f"pgbench round {round_}: {processed.group(1)} transactions appended {events} events, not "
                         f"{captured['events']} each (a command refused: a version conflict?)")
    return float(tps.group(1)), int(processed.group(1))


def report(figures: dict, connections: int) -> None:
    """Command cycles against pgbench running the command's own statement, round by round."""
    plain, notify = figures["pgbench"][False], figures["pgbench"][True]
    for n, ((rate, _), tps, tps_notify) in enumerate(zip(figures["rounds"], plain, notify), 1):
        print(f"  round {n}: {rate:7.0f} cycles/s   pgbench, the command's statement: {tps:7.0f} tps "
              f"(ratio {rate / tps:.3f});  with the notifier's NOTIFY after it: {tps_notify:7.0f} tps "
              f"(ratio {rate / tps_notify:.3f})")
    tps, tps_notify = statistics.median(plain), statistics.median(notify)
    print(f"command cycles / pgbench tps of the command's own statement ({connections} clients each): "
          f"{figures['rate']:.0f} / {tps:.0f} = {figures['rate'] / tps:.3f} (goal >= 0.25);  "
          f"with the NOTIFY: {figures['rate']:.0f} / {tps_notify:.0f} = {figures['rate'] / tps_notify:.3f}")
    print(f"  pgbench's statement (-M simple, :variables per client and version): {figures['pgbench_sent'][:300]}...")
