"""What receipts cost a command: salts, the head's hash and its signature,
against the command cycle as it was before them, in one run.

    python bench/receipts.py [--seconds 3] [--rounds 3]

Uses the server at DATABASE_URL, or an embedded PostgreSQL when it is unset,
and a throwaway database on it. One writer plays two-player Cronberg games
through ``GameService.act`` (load, decide, append, project, answer), the
command cycle of POST /commands without HTTP:

- before: a game of chain version 1, whose answer has no receipt, and no
  head computed at commit (the code as it was before receipts);
- with receipts: a game of chain version 2 (every event salted), the head
  computed at commit and the answer's receipt signed (the signature cache
  never hits: every head is new).

The sides alternate, medians kept; goal: commands/s with receipts at least
0.90 of before. Beside it, the cost of each piece alone, in microseconds: a
salt (HMAC-SHA256), a head's hash (canonical JSON and SHA-256 of an event),
an Ed25519 signature, and a signature the cache already holds.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from api.service.games import GameService  # noqa: E402
from domain import session as sessions  # noqa: E402
from domain.playout import random_command  # noqa: E402
from eventstore import PostgresEventStore, migrate  # noqa: E402
from eventstore.chain import canonical_json, link_hash, salt  # noqa: E402
from eventstore.servers import temporary_database, temporary_server  # noqa: E402


def _new_game(service, chain_version: int):
    ada, _ = service.players.register("bench-a")
    bob, _ = service.players.register("bench-b")
    new_games, sessions.CHAIN_VERSION = sessions.CHAIN_VERSION, chain_version
    try:
        game_id = service.create(ada, "cronberg", {"players": 2, "rounds": 4}, None)
    finally:
        sessions.CHAIN_VERSION = new_games
    service.join(game_id, bob, None)
    service.start(game_id, ada)
    return game_id, {"p1": ada, "p2": bob}


EVENTS = {"commands": 0, "events": 0}


def commands_per_second(service, with_receipts: bool, seconds: float, rng) -> float:
    """Commands/s of one writer for ``seconds``, new games as games end."""
    if not with_receipts:  # the commit as it was: no head computed
        service.heads.appended_heads = lambda *args, **kwargs: []

    def respond(session, events, seat):
        answer = {"version": session.version, "events": len(events)}
        if with_receipts:
            answer["receipt"] = service.heads.receipt_for(game_id, session)
        return answer

    count, began = 0, time.perf_counter()
    try:
        while time.perf_counter() - began < seconds:
            game_id, players = _new_game(service, 2 if with_receipts else 1)
            while time.perf_counter() - began < seconds:
                rules, session = service.load(game_id)
                if session.status != sessions.ACTIVE:
                    break
                seat = sorted(sessions.to_act(rules, session))[0]
                command = random_command(rules, session.state, seat, rng)
                answer = service.act(game_id, players[seat], command.to_json(), respond=respond)
                assert ("receipt" in answer) == with_receipts and (answer.get("receipt") or not with_receipts)
                count += 1
                EVENTS["commands"] += 1
                EVENTS["events"] += answer["events"]
    finally:
        vars(service.heads).pop("appended_heads", None)
    return count / (time.perf_counter() - began)


def micro(action, repeat: int = 20000) -> float:
    """Microseconds per call, best of three; each call gets a number no other call got."""
    best = float("inf")
    for run in range(3):
        began = time.perf_counter()
        for i in range(run * repeat, (run + 1) * repeat):
            action(i)
        best = min(best, time.perf_counter() - began)
    return best / repeat * 1e6


def bench_pieces(service) -> dict:
    seed = os.urandom(32)
    event = {"data": {"seat": "p1", "triangles": ["T11", "T12"], "turned": True}, "event_id": "6b412c28-7532-4bce-"
             "b877-08fe12df5bd8", "metadata": {"actor": "8f61ed93-652b-4b2d-ac76-4a582ff5a6f6", "seat": "p1",
             "command": {"type": "PlaceBuilding", "turned": True, "triangles": ["T11", "T12"]}, "decided_at": 88,
             "salt": salt(seed, 89)}, "schema_version": 1, "stream_id": "game-x", "type": "BuildingPlaced",
             "version": 89}
    previous = "ab" * 32
    signer = service.signer
    signer.current()
    pieces = {"salt": micro(lambda i: salt(seed, i)),
              "hash": micro(lambda i: link_hash(previous, canonical_json(event))),
              "signature": micro(lambda i: signer.receipt("game-bench", i, previous), 3000),
              "cached": micro(lambda i: signer.receipt("game-bench", 1, previous))}
    print(f"pieces: a salt {pieces['salt']:5.1f} us   a head's hash {pieces['hash']:5.1f} us   a signature "
          f"{pieces['signature']:5.1f} us   a cached signature {pieces['cached']:5.1f} us")
    return pieces


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per side and round")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds per side")
    args = parser.parse_args()
    server_url = os.environ.get("DATABASE_URL")
    print(f"server: {'DATABASE_URL' if server_url else 'embedded PostgreSQL (fsync off)'}")
    with temporary_server(server_url) as server, temporary_database(server, "boardlog_bench") as url:
        migrate(url)
        store = PostgresEventStore.connect(url, min_size=2, max_size=4)
        try:
            service = GameService(store)
            pieces = bench_pieces(service)
            rng = random.Random(1)
            rates: dict[bool, list[float]] = {False: [], True: []}
            for _ in range(args.rounds):
                for side in (False, True):
                    rates[side].append(commands_per_second(service, side, args.seconds, rng))
            before, after = statistics.median(rates[False]), statistics.median(rates[True])
            print(f"command cycle: before receipts {before:6.0f}/s ({1e3 / before:.2f} ms)   with salts, head and "
                  f"signature {after:6.0f}/s ({1e3 / after:.2f} ms)   ratio {after / before:.2f}   (goal >= 0.90)")
            per_command = EVENTS["events"] / max(1, EVENTS["commands"])
            added = per_command * (pieces["salt"] + pieces["hash"]) + pieces["signature"]
            print(f"added per command from the pieces ({per_command:.1f} events a command): {added:.0f} us, "
                  f"{added / (1e6 / before):.1%} of the cycle before receipts")
        finally:
            store.close()


if __name__ == "__main__":
    main()
