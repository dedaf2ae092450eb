"""What bench/cycles.py measures in one process, without wrk: the command
statement alone with its NOTIFY sent by it or by the notifier
(``--notify-where``), and the CPU of one command POST and of the GET of the
legal commands before it, each before Flask and through it
(``--fast-commands-in-process``: the commands' layer on and off; with
``--fast-legal-commands-off``, the legal commands' layer).

    python bench/cycles.py --notify-where [--seconds 4]
    python bench/cycles.py --fast-commands-in-process [--fast-legal-commands-off] [--pairs 2]
"""

from __future__ import annotations

import os
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from eventstore.servers import temporary_database, temporary_server  # noqa: E402


def notify_where(seconds: float = 4.0, clients: int = 16, pairs: int = 3) -> None:
    """The command statement alone (``append_command``), ``clients`` threads
    each on a game of its own, commands per second with the NOTIFY sent by
    the statement as it commits against sent after it by the notifier, in
    alternating pairs (``--notify-where``)."""
    import datetime as dt
    import threading

    from eventstore import CommandRows, NewEvent, PostgresEventStore, migrate

    def run(store, in_statement: bool) -> float:
        store.notify_in_statement = in_statement
        games = []
        with store.pool.connection() as conn:
            for _ in range(clients):
                player, game = uuid.uuid4(), uuid.uuid4()
                conn.execute("insert into players (id, name, token_sha256) values (%s, 'n', %s)",
                             (player, player.bytes))
                conn.execute("insert into games (id, game, status, host, options, version)"
                             " values (%s, 'cronberg', 'active', %s, '{}', 0)", (game, player))
                games.append((player, game))
        counts = [0] * clients
        until = time.monotonic() + seconds

        def play(n: int) -> None:
            player, game = games[n]
            version = 0
            while time.monotonic() < until:
                key = {"player": str(player), "game": str(game), "unscoped": "00000000-0000-0000-0000-000000000000",
                       "key": uuid.uuid4().hex, "sha256": "00" * 32, "status": 200, "first": version + 1,
                       "last": version + 1}
                rows = CommandRows(game, "active", player, ["p1"], None, None, back_player=player,
                                   now=dt.datetime.now(dt.timezone.utc), key=key)
                event = NewEvent("Moved", {"n": version, "pad": "x" * 300}, metadata={"player": str(player)})
                version = store.append_command(f"game-{game}", [event], version, rows).version
                counts[n] += 1

        threads = [threading.Thread(target=play, args=(n,)) for n in range(clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return sum(counts) / seconds

    with temporary_server(os.environ.get("DATABASE_URL")) as server, \
            temporary_database(server, "boardlog_notify_where") as url:
        migrate(url)
        store = PostgresEventStore.connect(url, max_size=clients)
        try:
            for _ in range(pairs):
                for in_statement in (False, True):
                    where = "by the statement" if in_statement else "by the notifier, after"
                    print(f"NOTIFY {where}: {run(store, in_statement):6.0f} commands/s ({clients} clients)",
                          flush=True)
        finally:
            store.close()


def _bypass(app, layer, on: bool) -> None:
    """``layer`` of ``app``'s chain of WSGI layers in it (``on``) or skipped."""
    outer = app
    while outer.wsgi_app is not layer and outer.wsgi_app is not layer.wsgi_app:
        outer = outer.wsgi_app
    outer.wsgi_app = layer if on else layer.wsgi_app


def fast_commands_in_process(pairs: int = 3, posts: int = 200, legal: bool = False) -> None:
    """The CPU of one command POST and of the GET of the legal commands
    before it in this process (``time.process_time``, which the machine's
    load moves less than a server's rate), through Flask's test client,
    with the commands' layer before Flask (api/http/commands_fast.py; with
    ``legal``, the legal commands', api/http/legal_fast.py) and without it,
    alternately, ``posts`` cycles each; Cronberg games of two players, the
    first legal command with an Idempotency-Key, as the cycles play
    (``--fast-commands-in-process``)."""
    import logging

    from eventstore import migrate

    with temporary_server(os.environ.get("DATABASE_URL")) as server, \
            temporary_database(server, "boardlog_fast_commands") as url:
        migrate(url)
        os.environ["DATABASE_URL"] = url
        logging.getLogger("boardlog.requests").setLevel(logging.WARNING)
        from api.http.app import create_app

        app = create_app({"RATE_LIMIT_PER_MINUTE": 100000000, "FAST_COMMANDS": True})
        layer = app.extensions["boardlog_fast_legal_commands" if legal else "boardlog_fast_commands"]
        what = "the legal commands' layer" if legal else "the commands' layer"
        client = app.test_client()

        def player(name: str) -> dict:
            return {"Authorization": "Bearer " + client.post("/v1/players", json={"name": name}).json["token"]}

        def run(fast: bool) -> tuple[float, float, int]:
            _bypass(app, layer, fast)
            spent, got, done, before = 0.0, 0.0, 0, layer.answered
            while done < posts:
                a, b = player("fast-a"), player("fast-b")
                game = client.post("/v1/games", json={"game": "cronberg", "options": {"players": 2}}, headers=a).json["id"]
                client.post(f"/v1/games/{game}/join", json={}, headers=b)
                client.post(f"/v1/games/{game}/start", headers=a)
                seats = {s["seat"]: h for s, h in zip(client.get(f"/v1/games/{game}", headers=a).json["seats"], (a, b))}
                to_act = client.get(f"/v1/games/{game}", headers=a).json["to_act"]
                while to_act and done < posts:
                    headers = seats[to_act[0]]
                    started = time.process_time()
                    command = client.get(f"/v1/games/{game}/legal-commands", headers=headers).json["commands"][0]
                    got += time.process_time() - started
                    started = time.process_time()
                    answer = client.post(f"/v1/games/{game}/commands", json=command,
                                         headers={**headers, "Idempotency-Key": uuid.uuid4().hex})
                    spent += time.process_time() - started
                    if answer.status_code != 200:
                        raise SystemExit(f"a command was refused: {answer.json}")
                    done += 1
                    to_act = answer.json["to_act"] if answer.json["status"] == "active" else []
            _bypass(app, layer, True)
            return spent / done * 1000, got / done * 1000, layer.answered - before

        run(True)  # warm: imports, caches, prepared statements
        measured: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
        for _ in range(pairs):
            for fast in (False, True):
                post, get, answered = run(fast)
                measured[fast].append((post, get))
                print(f"  {what} {'on' if fast else 'off'}: {post:.3f} ms CPU a POST, "
                      f"{get:.3f} ms a GET ({answered} of {posts} answered before Flask)", flush=True)
        app.extensions["boardlog"].service.store.close()  # its LISTEN connection, before the database goes
        for n, request in enumerate(("command POST", "GET of the legal commands")):
            off, on = (statistics.median(ms[n] for ms in measured[fast]) for fast in (False, True))
            print(f"CPU a {request}, in process, {what} off and on (load {os.getloadavg()[0]:.1f}): "
                  f"off {off:.3f} ms, on {on:.3f} ms, ratio {on / off:.2f}")
