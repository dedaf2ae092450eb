"""Scale benchmark: what a lookup costs with 100,000 games stored against
1,000, in the same run, through the app's own HTTP handling.

    python bench/scale.py [--small 1000] [--large 100000] [--calls 60]

PostgreSQL: DATABASE_URL's server, or an embedded one; two throwaway
databases, filled by SQL with games as the read models hold them (a tenth of
them private, each with two seated players; every player sits in a handful
of games). For each lookup a player makes, the median time of ``calls``
requests in each database, and the ratio large / small (goal: at most 1.5):

- the lobby listing (``GET /v1/games``, the 50 most recently moved public
  games, and the private ones the caller sits in), also filtered by game and
  by status;
- the games of one player (``GET /v1/games?player=<id>``);
- the inbox of a player (``GET /v1/players/me/inbox``), and the list of
  the player's tokens;
- a game's summary (``GET /v1/games/{id}``).

A request that does not answer 200 fails the run.

Then a cold load (``--cold-loads`` of them, in the small database): a real
game of about 180 events (``--long-game``; below the snapshot interval, so
that all of it is replayed) loaded by a service that holds nothing yet, as
a fresh process would, against a game of 10 events loaded the same way; the
median of each, their ratio and what each event beyond the short game's
cost. A load replays the events after the game's last snapshot, at most
``snapshot_every`` (200) of them, so that is the bound on a cold load: the
ratio is no goal to meet but the price of that interval.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import os
import random
import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import psycopg  # noqa: E402

from api.http.app import create_app  # noqa: E402
from api.service.games import GameService  # noqa: E402
from domain import session as sessions  # noqa: E402
from domain.playout import random_command  # noqa: E402
from eventstore import migrate  # noqa: E402
from eventstore.servers import temporary_database, temporary_server  # noqa: E402

GAMES = ("coronation", "the-coil", "court-of-miracles", "runebound", "cronberg")
TOKEN = "bench-player-token"


def fill(url: str, count: int) -> tuple[str, str]:
    """``count`` games; the id of a game of the benchmark's player, and that player's id."""
    me = uuid.uuid4()
    with psycopg.connect(url) as conn:
        conn.execute("insert into players (id, name) values (%s, 'bench')", (me,))
        conn.execute("insert into player_tokens (id, player_id, token_sha256) values (%s, %s, %s)",
                     (uuid.uuid4(), me, hashlib.sha256(TOKEN.encode()).digest()))
        conn.execute("""
            insert into players (id, name)
            select ('00000000-0000-4000-8000-' || lpad(to_hex(n), 12, '0'))::uuid, 'p' || n
            from generate_series(1, %s) n""", (max(2, count // 5),))
        conn.execute("""
            insert into games (id, game, status, host, options, version, to_act, visibility, updated_at)
            select ('10000000-0000-4000-8000-' || lpad(to_hex(n), 12, '0'))::uuid,
                   (array['coronation','the-coil','court-of-miracles','runebound','cronberg'])[1 + n %% 5],
                   (array['lobby','active','active','finished','finished'])[1 + (n / 5) %% 5],
                   ('00000000-0000-4000-8000-' || lpad(to_hex(1 + n %% %s), 12, '0'))::uuid,
                   '{}', 10, '{p1}', case when n %% 10 = 0 then 'private' else 'public' end,
                   now() - n * interval '1 second'
            from generate_series(1, %s) n""", (max(2, count // 5), count))
        conn.execute("""
            insert into game_seats (game_id, seat, player_id)
            select g.id, 'p' || k, ('00000000-0000-4000-8000-' ||
                   lpad(to_hex(1 + (hashtext(g.id::text || k) & 2147483647) %% %s), 12, '0'))::uuid
            from games g, generate_series(1, 2) k
            on conflict do nothing""", (max(2, count // 5),))
        # The benchmark's player sits in eight games spread over the whole history.
        step = max(1, count // 8)
        mine = [conn.execute("select id from games order by updated_at desc offset %s limit 1", (i * step,)).fetchone()[0]
                for i in range(8)]
        for game_id in mine:
            conn.execute("insert into game_seats (game_id, seat, player_id) values (%s, 'p3', %s)", (game_id, me))
        conn.execute("analyze")
    return str(mine[0]), str(me)


def timed_get(client, path: str) -> float:
    started = time.perf_counter()
    response = client.get(path, headers={"Authorization": f"Bearer {TOKEN}"})
    elapsed = time.perf_counter() - started
    if response.status_code != 200:
        raise SystemExit(f"{path} answered {response.status_code}: {response.get_data(as_text=True)[:300]}")
    return elapsed


def lookups(game_id: str, player: str) -> dict[str, str]:
    return {
        "lobby listing": "/v1/games",
        "lobby, one game": "/v1/games?game=cronberg",
        "lobby, active": "/v1/games?status=active",
        "lobby, second page": "/v1/games?offset=50",
        "lobby, one player's games": f"/v1/games?player={player}",
        "inbox": "/v1/players/me/inbox",
        "the player's tokens": "/v1/players/me/tokens",
        "summary": f"/v1/games/{game_id}",
    }


def played_game(service: GameService, game: str, options: dict, events: int) -> uuid.UUID:
    """A game of ``game`` played (random legal commands, always the same) up to ``events`` events or its end."""
    players = [service.players.register(f"cold-{n}")[0] for n in range(options["players"])]
    game_id = service.create(players[0], game, options, None)
    for guest in players[1:]:
        service.join(game_id, guest, None)
    service.start(game_id, players[0])
    rng = random.Random(events)
    rules, session = service.load(game_id)
    while session.version < events and session.status == sessions.ACTIVE:
        seat = min(sessions.to_act(rules, session))
        command = random_command(rules, session.state, seat, rng)
        service.act(game_id, session.players[seat], command.to_json())
        rules, session = service.cached(game_id)
    return game_id


def cold_loads(store, samples: int, long_events: int) -> None:
    """Median time a service that holds nothing takes to load each game, interleaved."""
    games = {"short": played_game(GameService(store), "cronberg", {"players": 2}, 10),
             "long": played_game(GameService(store), "the-coil", {"players": 3}, long_events)}
    versions = {name: GameService(store).load(game_id)[1].version for name, game_id in games.items()}
    times: dict[str, list[float]] = {name: [] for name in games}
    for sample in range(samples + 3):
        for name, game_id in games.items():
            service = GameService(store)  # nothing cached: a fresh process
            started = time.perf_counter()
            service.load(game_id)
            if sample >= 3:
                times[name].append(time.perf_counter() - started)
    short, long = (statistics.median(times[name]) * 1000 for name in ("short", "long"))
    print(f"cold load (no snapshot) of a {versions['long']}-event game (The Coil, 3 players): {long:.2f} ms   "
          f"of a {versions['short']}-event game (Cronberg): {short:.2f} ms   ratio {long / short:.2f}; "
          f"{(long - short) * 1000 / (versions['long'] - versions['short']):.0f} us an event beyond the short game's "
          f"(a load replays at most the 200 events after the last snapshot)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--small", type=int, default=1000)
    parser.add_argument("--large", type=int, default=100_000)
    parser.add_argument("--calls", type=int, default=60)
    parser.add_argument("--cold-loads", type=int, default=200)
    parser.add_argument("--long-game", type=int, default=180, help="events of the long game (snapshots every 200)")
    args = parser.parse_args()
    counts = (args.small, args.large)
    with contextlib.ExitStack() as stack:
        server = stack.enter_context(temporary_server(os.environ.get("DATABASE_URL")))
        apps = {}
        for count in counts:
            url = stack.enter_context(temporary_database(server))
            migrate(url)
            started = time.perf_counter()
            game_id, me = fill(url, count)
            app = create_app({"DATABASE_URL": url, "REDIS_URL": None, "RATE_LIMIT_PER_MINUTE": 0})
            apps[count] = (app.test_client(), lookups(game_id, me))
            print(f"{count:>7,} games stored in {time.perf_counter() - started:.1f} s", flush=True)
        # Interleaved, so that a burst of load elsewhere on the machine falls on both sides.
        times = {count: {name: [] for name in lookups("", "")} for count in counts}
        for call in range(args.calls + 3):
            for name in times[args.small]:
                for count in counts:
                    client, paths = apps[count]
                    elapsed = timed_get(client, paths[name])
                    if call >= 3:  # the first calls warm the pools and caches
                        times[count][name].append(elapsed)
        print(f"load average during the lookups: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
        cold_loads(apps[args.small][0].application.extensions["boardlog"].service.store, args.cold_loads,
                   args.long_game)
        print(f"load average after the cold loads: {os.getloadavg()[0]:.2f}")
        for count in counts:
            apps[count][0].application.extensions["boardlog"].service.store.close()
    print(f"{'lookup':<22}{args.small:>10,} games{args.large:>10,} games{'ratio':>8}  (goal <= 1.5)")
    worst = 0.0
    for name in times[args.small]:
        small, large = (statistics.median(times[count][name]) * 1000 for count in counts)
        worst = max(worst, large / small)
        print(f"{name:<22}{small:>13.2f} ms{large:>13.2f} ms{large / small:>8.2f}")
    print(f"worst ratio {worst:.2f}: {'within' if worst <= 1.5 else 'OVER'} the goal of 1.5")
    return 0 if worst <= 1.5 else 1


if __name__ == "__main__":
    sys.exit(main())
