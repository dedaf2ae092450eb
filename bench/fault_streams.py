"""Faults under open streams: PostgreSQL restarted, one API process
SIGKILLed, Redis killed, each while a few hundred streams and long-polls wait
and the games are being played. Every game stream (two seats and a
spectator per game) and every player stream resumes with Last-Event-ID
after whatever ended it; afterwards each one's versions (game streams) and
notice ids (player streams) are compared with what PostgreSQL stored after
the point it began: a missing one is lost, one received twice duplicated.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from collections import Counter

from domain import notices as notice_rules

from bench.fault_clients import GameFollower, PlayerFollower, Tally, long_poll
from bench.fault_stack import Driver, Stack, new_games, versions

CUTS = ("GameFollower connection cut", "PlayerFollower connection cut", "long-poll connection cut")


def postgres_restarted(outage: float):
    def fault(stack: Stack) -> str:
        stack.postgres.stop()
        time.sleep(outage)
        stack.postgres.start()
        return f"PostgreSQL down {outage:.0f} s"
    return fault


def api_process_killed(stack: Stack) -> str:
    held = {pid: stack.connections_of(pid) for pid in stack.web_pids()}
    victim = max(held, key=held.get)
    os.kill(victim, signal.SIGKILL)
    return f"SIGKILL to the API process holding {held[victim]} of {sum(held.values())} connections"


def redis_killed(outage: float):
    def fault(stack: Stack) -> str:
        stack.redis.kill()
        time.sleep(outage)
        stack.redis.start()
        return f"Redis killed, started again empty after {outage:.0f} s"
    return fault


def under_streams(stack: Stack, label: str, fault, games_count: int, before: float, after: float,
                  excuse_cuts: bool = False) -> tuple[str, str, dict]:
    """``games_count`` games, each followed by 3 game streams and its 2
    players' streams (5 streams a game), and watched by one long-poll (its
    view, or a player's inbox, in turn); played for ``before`` s, then
    ``fault(stack)``, then played for ``after`` s more; then everything
    received is checked against PostgreSQL."""
    games = new_games(stack.base, label.split()[0].lower(), games_count)
    tally = Tally(CUTS if excuse_cuts else ())
    host, port = "127.0.0.1", stack.port
    game_followers, player_followers = [], []
    for game, seats in games:
        players = list(seats.values())
        game_followers += [GameFollower(tally, host, port, p.auth, game) for p in players]
        game_followers.append(GameFollower(tally, host, port, None, game))
        player_followers += [PlayerFollower(tally, host, port, p.auth, p.id) for p in players]
    polls = [(f"/v1/games/{game}/view?wait=25", None) if n % 2 else
             ("/v1/players/me/inbox?wait=25", next(iter(seats.values())).auth) for n, (game, seats) in enumerate(games)]
    followers = game_followers + player_followers
    measured = asyncio.run(_run(stack, tally, followers, polls, games, fault, before, after, excuse_cuts))
    driver, expected_notices, fault_said, ended = measured
    final = versions(stack.url, [game for game, _ in games])
    lost, duplicated = Counter(), Counter()
    for follower in game_followers:
        if follower.start is None:
            tally.fail("game stream never opened")
            continue
        expected = set(range(follower.start + 1, final[follower.game] + 1))
        missing = expected - set(follower.received)
        lost["game-stream versions"] += len(missing)
        if missing:
            print(f"game stream of {follower.game} ({'seat' if follower.auth else 'spectator'}) began at "
                  f"{follower.start}, last id {follower.last}, missed {sorted(missing)} of "
                  f"{final[follower.game]}", file=sys.stderr)
        doubled = sorted(v for v, c in follower.received.items() if c > 1)
        strays = sorted(set(follower.received) - expected)
        duplicated["game-stream versions"] += sum(c - 1 for c in follower.received.values()) + len(strays)
        if doubled or strays:
            print(f"game stream of {follower.game} ({'seat' if follower.auth else 'spectator'}) began at "
                  f"{follower.start}: received twice {doubled}, outside {follower.start + 1}.."
                  f"{final[follower.game]}: {strays}", file=sys.stderr)
    notices = 0
    for follower in player_followers:
        if follower.start is None:
            tally.fail("player stream never opened")
            continue
        wanted = expected_notices[follower]
        notices += len(wanted)
        lost["notices"] += len(wanted - set(follower.received))
        if wanted - set(follower.received):
            print(f"player stream of {follower.player} began at {follower.start}, last id {follower.last}, "
                  f"missed {sorted(wanted - set(follower.received))}", file=sys.stderr)
        doubled = sorted(n for n, c in follower.received.items() if c > 1)
        strays = sorted(set(follower.received) - wanted)
        duplicated["notices"] += sum(c - 1 for c in follower.received.values()) + len(strays)
        if doubled or strays:
            print(f"player stream of {follower.player} began at {follower.start}: received twice {doubled}, "
                  f"not owed {strays}", file=sys.stderr)
    stored = driver.stored(stack.url, driver.since)
    accepted = sum(driver.accepted.values())
    not_stored = sum(max(0, driver.accepted[g] - stored[g]) for g in driver.since)
    twice = sum(max(0, stored[g] - driver.accepted[g]) for g in driver.since)
    for game in driver.since:
        if stored[game] > driver.accepted[game]:
            print(f"game {game}: {stored[game]} moves stored, {driver.accepted[game]} answered 200; not seen "
                  f"answered: {driver.unanswered_keys(stack.url, game)}", file=sys.stderr)
    if twice:
        duplicated["moves stored beyond those accepted"] += twice
    failures = tally.failures + driver.failures
    measured_text = (
        f"{len(followers)} streams ({len(game_followers)} game, {len(player_followers)} player) and "
        f"{len(polls)} long-polls on {games_count} games ({len(driver.games)} played); {fault_said}; "
        f"{accepted} moves accepted, "
        f"{driver.unavailable} answered 503 and sent again; waiters {tally.summary()}; "
        f"{sum(len(f.received) for f in game_followers)} versions and {notices} notices checked; "
        f"{ended}" + (f"; lost {dict(lost)}" if sum(lost.values()) else "")
        + (f"; duplicated {dict(duplicated)}" if sum(duplicated.values()) else "") + (f"; cut by the kill: {dict(tally.excused)}, {driver.cuts} commands (sent again)"
                      if excuse_cuts else "")
        + (f"; FAILED: {dict(failures)}" if failures else ""))
    return label, measured_text, {
        "lost": sum(lost.values()), "duplicated": sum(duplicated.values()),
        "5xx_not_503": sum(n for code, n in driver.codes.items() if code >= 500 and code != 503),
        "accepted_not_stored": not_stored, "failed": sum(failures.values())}


async def _run(stack, tally, followers, polls, games, fault, before, after, excuse_cuts):
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    tasks = []
    for n, follower in enumerate(followers):
        tasks.append(asyncio.create_task(follower.run(stop)))
        if n % 50 == 49:
            await asyncio.sleep(0.1)
    for path, auth in polls:
        tasks.append(asyncio.create_task(long_poll(tally, "127.0.0.1", stack.port, path, auth, stop)))
    started = time.monotonic()
    while tally.open_streams < len(followers) and time.monotonic() - started < 90:
        await asyncio.sleep(0.2)
    opened = tally.open_streams
    # A fifth of the games are played (fast enough that turns pass and notices
    # come, on a busy machine); the others' streams wait idle through the fault.
    driver = Driver(games[:max(1, len(games) // 5)], threads=8, pause=0.05, excuse_cuts=excuse_cuts)
    driver.since = versions(stack.url, [game for game, _ in games])
    driver.start()
    await asyncio.sleep(before)
    tally.before_fault = Counter(tally.unavailable)
    said = await loop.run_in_executor(None, fault, stack)
    await asyncio.sleep(after)
    await loop.run_in_executor(None, driver.stop)
    # Let every stream catch up with the last moves (each resumes within its retry hint).
    final = await loop.run_in_executor(None, versions, stack.url, [game for game, _ in games])
    settle = time.monotonic()
    while time.monotonic() - settle < 45:
        behind = [f for f in followers if isinstance(f, GameFollower) and not f.done
                  and max(f.received, default=f.start or 0) < final[f.game]]
        reconnecting = sum(1 for f in followers if not f.done) - tally.open_streams
        if not behind and reconnecting <= 0:  # every stream open again
            break
        await asyncio.sleep(0.5)
    # A notice still on its way is late, not lost: wait (up to a minute) until
    # each player stream has every notice PostgreSQL says it is owed, and say
    # how long the last took, so that what is then missing is lost for good.
    players = [f for f in followers if isinstance(f, PlayerFollower)]
    # The worker scores an ended game a little later, and its GameScored is
    # owed as a notice too: what is owed is known once no game awaits its score.
    await loop.run_in_executor(None, _scored, stack.url, [game for game, _ in games])
    owed = await loop.run_in_executor(None, _notices, stack.url, players)
    caught_up = time.monotonic()
    while time.monotonic() - caught_up < 60:
        short = [f for f in players if owed.get(f, set()) - set(f.received)]
        if not short:
            break
        await asyncio.sleep(0.25)
    waited = time.monotonic() - caught_up
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.wait(tasks, timeout=60)
    ended = sum(1 for f in followers if isinstance(f, GameFollower) and f.done)
    notices_said = (f"the player streams had every notice {waited:.1f} s after the game streams caught up" if not short
                    else f"{len(short)} player streams still short of notices 60 s after the game streams caught up")
    return driver, owed, said, (f"{opened} streams open before the fault; {ended} game streams saw their game end; "
                                f"{notices_said}")


def _scored(url: str, games, patience: float = 60) -> None:
    """Wait until none of ``games`` awaits its score (status 'scoring')."""
    import psycopg

    ends = time.monotonic() + patience
    with psycopg.connect(url, autocommit=True) as conn:
        while time.monotonic() < ends and conn.execute(
                "select count(*) from games where id::text = any(%s) and status = 'scoring'", (list(games),)).fetchone()[0]:
            time.sleep(0.25)


def _notices(url: str, followers) -> dict:
    """Each player stream's notices as PostgreSQL has them: those of his
    games' events after the position the stream began at."""
    import psycopg

    from eventstore import PostgresEventStore

    store = PostgresEventStore.connect(url, max_size=2)
    out = {}
    try:
        with psycopg.connect(url) as conn:
            for follower in followers:
                if follower.start is None:
                    continue
                games = sorted(f"game-{row[0]}" for row in conn.execute(
                    "select game_id from game_seats where player_id = %s", (follower.player,)))
                wanted, cursor = set(), follower.start
                while True:
                    records = store.read_all_of(games, cursor, 500)
                    for record in records:
                        wanted |= {n.id for n in notice_rules.notices_of(record) if n.concerns(follower.player)}
                        cursor = record.global_position
                    if len(records) < 500:
                        break
                out[follower] = wanted
    finally:
        store.close()
    return out
