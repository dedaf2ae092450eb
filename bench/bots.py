"""Each game's heuristic bot against random bots, over seeded games played in
the domain (no server): win rate (two-seat games) and mean rank, with the
same figure for a random bot in the same seats as the baseline measured in
the same run, and the bots' decision time (p50, p99).

    .venv/bin/python bench/bots.py [--games 100] [--game NAME ...]

The goal is that the heuristic beats random in at least 60% of games in each
game; a figure under the goal is printed as such, never hidden.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain import games as registry  # noqa: E402
from domain.engine import resolve_options, rng_for  # noqa: E402
from domain.lifecycle import bots  # noqa: E402

GOAL = 0.6
MAX_STEPS = 20_000
OPTIONS = {"coronation": {"detective_seats": 1}}


def play(rules, seed: int, kinds: dict[str, str], timings: dict[str, list[float]]) -> list:
    """One seeded game with a bot of ``kinds[seat]`` in each seat; its standings."""
    options = resolve_options(rules.options, OPTIONS.get(rules.name, {"players": 2}))
    seats = rules.seats(options)
    seed_bytes = f"bench-bots-{seed}".encode()
    state = rules.replay(rules.setup(seats, options, rng_for(seed_bytes, 0)))
    players = {seat: bots.make(rules.name, kinds[seat]) for seat in seats}
    version = 1
    while rules.outcome(state) is None:
        to_act = sorted(rules.to_act(state))
        if not to_act or version > MAX_STEPS:
            raise AssertionError(f"{rules.name} seed {seed} did not end")
        seat = to_act[0]
        started = time.perf_counter()
        command = bots.decide_for(rules, state, seat, players[seat], bots.bot_rng(seed_bytes, seat, version))
        timings[kinds[seat]].append(time.perf_counter() - started)
        state = rules.replay(rules.decide(state, seat, command, rng_for(seed_bytes, version)), state)
        version += 1
    return rules.score(state)


def measure(rules, kind: str, games: int, timings) -> tuple[float, float]:
    """(share of games the ``kind`` seat won outright or shared first, its mean rank);
    the ``kind`` bot sits in each seat in turn, random bots in the others."""
    wins, ranks = 0.0, []
    options = resolve_options(rules.options, OPTIONS.get(rules.name, {"players": 2}))
    seats = rules.seats(options)
    for n in range(games):
        hero = seats[n % len(seats)]
        kinds = {seat: (kind if seat == hero else bots.RANDOM) for seat in seats}
        standings = play(rules, n, kinds, timings)
        rank = next(s.rank for s in standings if s.seat == hero)
        firsts = sum(1 for s in standings if s.rank == 1)
        wins += (1.0 / firsts) if rank == 1 else 0.0
        ranks.append(rank)
    return wins / games, statistics.fmean(ranks)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--game", action="append", choices=sorted(registry.REGISTRY))
    args = parser.parse_args(argv)
    print(f"{'game':<18} {'bot':<10} {'wins':>6} {'random':>7} {'ratio':>6} {'rank':>5} {'random':>7}  goal (>= {GOAL:.0%} wins)")
    short = []
    for name in args.game or sorted(registry.REGISTRY):
        rules = registry.get(name)
        kind = bots.best_kind(name)
        timings: dict[str, list[float]] = {bots.RANDOM: [], kind: []}
        base_wins, base_rank = measure(rules, bots.RANDOM, args.games, {bots.RANDOM: []})
        wins, rank = measure(rules, kind, args.games, timings)
        met = wins >= GOAL
        if not met:
            short.append(name)
        ratio = wins / base_wins if base_wins else float("inf")
        print(f"{name:<18} {kind:<10} {wins:>6.0%} {base_wins:>7.0%} {ratio:>6.2f} {rank:>5.2f} {base_rank:>7.2f}  "
              f"{'met' if met else 'NOT MET'}")
        mine = timings[kind]
        print(f"{'':<18} decision time of the {kind} bot: p50 {percentile(mine, 0.5) * 1e3:.2f} ms, "
              f"p99 {percentile(mine, 0.99) * 1e3:.2f} ms over {len(mine)} decisions; random bot: p50 "
              f"{percentile(timings[bots.RANDOM], 0.5) * 1e3:.2f} ms, p99 {percentile(timings[bots.RANDOM], 0.99) * 1e3:.2f} ms")
    print(f"\n{args.games} seeded games per game and bot; 'random' columns: a random bot in the same seats (the baseline).")
    if short:
        print(f"The 60% goal is NOT met for: {', '.join(short)}.")
    else:
        print("The 60% goal is met for every game.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
