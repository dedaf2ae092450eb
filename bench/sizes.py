"""Sizes benchmark: what a frontend downloads, plain and gzipped, from the
production server (gunicorn with boardlog's settings).

    python bench/sizes.py

PostgreSQL: DATABASE_URL's server, or an embedded one; a throwaway database.
Prints, for the OpenAPI document, a Coronation legal-command list (3 players,
`equipment: choose`, a detective seat's first turn: the longest list the
games give) and that game's view, the bytes sent without and with
`Accept-Encoding: gzip`, and their ratio. Fails when an answer is not
compressed when asked, or its compressed form does not unpack to the plain one.
"""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api import GEVENT, Client, gunicorn  # noqa: E402
from eventstore import migrate  # noqa: E402
from eventstore.servers import temporary_database, temporary_server  # noqa: E402


def sent(url: str, headers: dict) -> tuple[int, int]:
    """Bytes on the wire for ``url`` plain and gzipped (the body as sent, not decoded)."""
    sizes = []
    for encoding in ("identity", "gzip"):
        response = requests.get(url, headers={**headers, "Accept-Encoding": encoding}, stream=True, timeout=30)
        assert response.status_code == 200, (url, response.status_code)
        body = response.raw.read(decode_content=False)
        sizes.append((response.headers.get("Content-Encoding"), body))
    (_, plain), (encoding, packed) = sizes
    assert encoding == "gzip", f"{url} was not gzipped when asked"
    assert gzip.decompress(packed) == plain, f"{url}: the gzipped body is not the plain one"
    return len(plain), len(packed)


def coronation_with_choices(base: str) -> tuple[str, Client]:
    players = [Client(base, f"sizes-{n}") for n in range(3)]
    game = players[0].call("POST", "/v1/games", json={
        "game": "coronation", "options": {"players": 3, "equipment": "choose"}}).json()["id"]
    for player in players[1:]:
        player.call("POST", f"/v1/games/{game}/join", json={})
    players[0].call("POST", f"/v1/games/{game}/start")
    for player in players:
        view = player.call("GET", f"/v1/games/{game}/view").json()
        if view["seat"] != "lind" and view["seat"] in view["to_act"]:
            return game, player
    raise AssertionError("no detective seat is to act at the start")


def main() -> None:
    with temporary_server(os.environ.get("DATABASE_URL")) as server, \
            temporary_database(server, "boardlog_bench_sizes") as url:
        migrate(url)
        api, base = gunicorn("api.processes.wsgi:app", {"DATABASE_URL": url, "REDIS_URL": "", "BOARDLOG_RATE_LIMIT": "0"},
                             workers=GEVENT, log=subprocess.DEVNULL)
        try:
            game, detective = coronation_with_choices(base)
            rows = [
                ("the OpenAPI document, GET /v1/openapi.json", sent(f"{base}/v1/openapi.json", {})),
                ("Coronation's legal commands (3 players, equipment: choose, a detective seat's first turn)",
                 sent(f"{base}/v1/games/{game}/legal-commands", detective.auth)),
                ("that Coronation game's view, for the detective seat",
                 sent(f"{base}/v1/games/{game}/view", detective.auth)),
            ]
        finally:
            api.terminate()
            api.wait(timeout=30)
    print("| answer | plain | gzipped | gzipped / plain |")
    print("|---|---|---|---|")
    for name, (plain, packed) in rows:
        print(f"| {name} | {plain / 1000:.1f} KB | {packed / 1000:.1f} KB | {packed / plain:.3f} |")


if __name__ == "__main__":
    main()
