"""The CPU a process spends delivering one move to one spectator's stream
(issue 37, "less per move"), in this process, without sockets: what
bench/versus_boardgameio.py's ``--spectators`` rounds measure over a
server's two gunicorn workers, less the writes and the greenlets.

    python bench/stream_deliveries.py [--spectators 30] [--moves 120] [--rounds 3] [--game example]

The game is the one bench/versus_boardgameio.py plays, boardlog's example
game (hosted here as tests/support/example_hosted hosts it), unless
``--game`` names another of two players. Two apps on one database stand for two processes of a server. Each game
has ``--spectators`` streams (GET /v1/games/ID/stream, no token, through
Flask's test client) on the first app; its moves are POSTed to the first
app (the stream's process made the move) or to the second (another
process made it), alternately, round after round. Measured with
``time.process_time`` (the machine's load moves it less than a rate): from
the move's answer until every stream has yielded the move's view, divided
by the streams; the POST itself is not counted.
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from eventstore.servers import temporary_database, temporary_server  # noqa: E402


class _Match:
    """A game of two players and its spectators' open streams."""

    def __init__(self, apps, game: str, spectators: int):
        self.clients = [app.test_client() for app in apps]
        here = self.clients[0]
        self.seats = [{"Authorization": "Bearer " + here.post("/v1/players", json={"name": f"bench-{n}"}).json["token"]}
                      for n in (1, 2)]
        a, b = self.seats
        self.game = here.post("/v1/games", json={"game": game, "options": {"players": 2}}, headers=a).json["id"]
        here.post(f"/v1/games/{self.game}/join", json={}, headers=b)
        here.post(f"/v1/games/{self.game}/start", headers=a)
        self.streams = [here.get(f"/v1/games/{self.game}/stream", buffered=False) for _ in range(spectators)]
        self.chunks = [iter(response.response) for response in self.streams]
        for each in self.chunks:
            next(each), next(each)  # the retry hint and the view now

    def move(self, by: int) -> int | None:
        """A legal move POSTed through app ``by``; the game's new version, None once it is over."""
        client = self.clients[by]
        view = client.get(f"/v1/games/{self.game}/view", headers=self.seats[0]).json
        if view["status"] != "active":
            return None
        mover = next(s for s in self.seats
                     if client.get(f"/v1/games/{self.game}/view", headers=s).json["seat"] == view["to_act"][0])
        command = client.get(f"/v1/games/{self.game}/legal-commands", headers=mover).json["commands"][0]
        answer = client.post(f"/v1/games/{self.game}/commands", json=command, headers=mover)
        assert answer.status_code == 200, answer.json
        return answer.json["version"]

    def deliver(self, version: int) -> None:
        marker = f"id: {version}\nevent: view"
        for each in self.chunks:
            text = ""
            while marker not in text:
                text += next(each).decode()

    def close(self) -> None:
        for response in self.streams:
            response.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spectators", type=int, default=30)
    parser.add_argument("--moves", type=int, default=120, help="moves of each kind a round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--game", default="example")
    options = parser.parse_args()
    from domain import games
    from domain.games.example import RULES

    games.REGISTRY.update(games.registered([*games.REGISTRY.values(), RULES]))
    from eventstore import migrate

    with temporary_server(os.environ.get("DATABASE_URL")) as server, \
            temporary_database(server, "boardlog_stream_deliveries") as url:
        migrate(url)
        os.environ["DATABASE_URL"] = url
        logging.getLogger("boardlog.requests").setLevel(logging.WARNING)
        from api.http.app import create_app

        settings = {"RATE_LIMIT_PER_MINUTE": 0, "STREAMS": {"lifetime": 3600.0, "heartbeat": 600.0}}
        apps = [create_app(settings), create_app(settings)]

        def round_of(by: int, moves: int) -> float:
            spent, delivered, match = 0.0, 0, None
            while delivered < moves * options.spectators:
                if match is None:
                    match = _Match(apps, options.game, options.spectators)
                version = match.move(by)
                if version is None:
                    match.close()
                    match = None
                    continue
                started = time.process_time()
                match.deliver(version)
                spent += time.process_time() - started
                delivered += options.spectators
            if match is not None:
                match.close()
            return spent / delivered * 1000

        round_of(0, 20), round_of(1, 20)  # warm: imports, caches, prepared statements
        measured: dict[int, list[float]] = {0: [], 1: []}
        for _ in range(options.rounds):
            for by in (0, 1):
                measured[by].append(round_of(by, options.moves))
        for by, what in ((0, "the stream's process made the move"), (1, "another process made the move")):
            ms = measured[by]
            print(f"{what}: {statistics.median(ms):.4f} ms of CPU a move delivered to a stream "
                  f"(median; rounds {', '.join(f'{m:.4f}' for m in ms)})")


if __name__ == "__main__":
    main()
