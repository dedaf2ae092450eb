"""What one POST of a command asks of PostgreSQL, for bench/cycles.py: round
trips and transactions read from libpq's trace (``wire``), and the lines
that start a Cronberg game of two players in a script of the app's own
process (``PLAY_SETUP``: ``client``, Flask's test client, before them)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

# A game through the test client ``client``: its players' headers a and b,
# its id, and each seat's headers.
PLAY_SETUP = r"""
def player(name):
    return {"Authorization": "Bearer " + client.post("/v1/players", json={"name": name}).json["token"]}
a, b = player("bench-a"), player("bench-b")
game = client.post("/v1/games", json={"game": "cronberg", "options": {"players": 2}}, headers=a).json["id"]
client.post(f"/v1/games/{game}/join", json={}, headers=b)
client.post(f"/v1/games/{game}/start", headers=a)
seats = {s["seat"]: h for s, h in zip(client.get(f"/v1/games/{game}", headers=a).json["seats"], (a, b))}
"""


# What one POST of a command asks of PostgreSQL, seen from the server's side:
# run in a process of its own with the checkout measured first on its path
# (--code), on the app as production makes it (create_app from the
# environment), through Flask's test client, with libpq's trace on every
# connection the service's pool hands out during each POST. A round trip
# ends with the server's ReadyForQuery; a transaction, with a ReadyForQuery
# that finds the connection idle again. The game is held at the version this
# process knows, its LISTEN connection sweeping, as on a busy server.
WIRE_SCRIPT = r"""
import json, os, sys, tempfile, uuid
from api.http.app import create_app
posts = int(sys.argv[1])
app = create_app({"RATE_LIMIT_PER_MINUTE": 0})
service = app.extensions["boardlog"].service
pool, store = service.pool, service.store
with store.watch(["held"]):
    pass
store.recent.sweep_trust = store.recent.max_age = 3600.0
client = app.test_client()
""" + PLAY_SETUP + r"""
real_getconn, traced = pool.getconn, []
def getconn(*args, **kwargs):
    conn = real_getconn(*args, **kwargs)
    out = tempfile.TemporaryFile("w+")
    conn.pgconn.trace(out.fileno())
    traced.append((conn, out))
    return conn
round_trips = transactions = 0
first = None
for n in range(posts):
    summary = client.get(f"/v1/games/{game}", headers=a).json
    headers = seats[summary["to_act"][0]]
    command = client.get(f"/v1/games/{game}/legal-commands", headers=headers).json["commands"][0]
    pool.getconn = getconn
    answer = client.post(f"/v1/games/{game}/commands", json=command,
                         headers={**headers, "Idempotency-Key": uuid.uuid4().hex})
    pool.getconn = real_getconn
    assert answer.status_code == 200, answer.json
    lines = []
    for conn, out in traced:
        conn.pgconn.untrace()
        out.seek(0)
        lines += out.read().splitlines()
        out.close()
    traced.clear()
    ready = [line for line in lines if "\tB\t" in line and "ReadyForQuery" in line]
    round_trips += len(ready)
    transactions += sum(1 for line in ready if line.rstrip().endswith("I"))
    if first is None:
        first = [line.split("\t", 4)[-1][:90] for line in lines if "\tF\t" in line
                 and ("\tQuery\t" in line or "\tParse\t" in line)]
with pool.connection() as conn:
    key_bytes = conn.execute("select avg(pg_column_size(k.*)) from idempotency_keys k").fetchone()[0]
fast = app.extensions.get("boardlog_fast_commands")  # api/http/commands_fast.py, when the checkout has it
legal = app.extensions.get("boardlog_fast_legal_commands")  # api/http/legal_fast.py, the same
print(json.dumps({"round_trips": round_trips / posts, "transactions": transactions / posts, "sent": first,
                  "key_bytes": float(key_bytes), "posts": posts,
                  "before_flask": None if fast is None else fast.answered,
                  "legal_before_flask": None if legal is None else legal.answered}))
"""


def wire(code: Path, url: str, redis_url: str, posts: int = 40, extra_env: dict | None = None) -> dict:
    """Round trips and transactions per POST of ``code``'s server (WIRE_SCRIPT), on the database ``url``."""
    done = subprocess.run([sys.executable, "-c", WIRE_SCRIPT, str(posts)], cwd=code, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(code), "DATABASE_URL": url, "REDIS_URL": redis_url,
                               "BOARDLOG_LOG_LEVEL": "WARNING", **(extra_env or {})}, check=False)
    if done.returncode:
        raise SystemExit(f"the round trips of a POST could not be counted:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])
