"""One end-to-end game through a real HTTP server on a real socket."""

from __future__ import annotations

import random
import threading

import pytest
import requests
from werkzeug.serving import make_server


@pytest.fixture(scope="module")
def base_url(app):
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=10)


def test_two_players_play_a_whole_cronberg_game_over_a_real_socket(base_url, service):
    http = requests.Session()
    tokens = [http.post(f"{base_url}/v1/players", json={"name": name}, timeout=10).json()["token"] for name in ("ada", "bob")]
    auth = [{"Authorization": f"Bearer {token}"} for token in tokens]
    game = http.post(f"{base_url}/v1/games", json={"game": "cronberg", "options": {"players": 2}}, headers=auth[0], timeout=10)
    assert game.status_code == 201 and game.headers["Location"].endswith(game.json()["id"])
    url = f"{base_url}/v1/games/{game.json()['id']}"
    assert http.post(f"{url}/join", json={}, headers=auth[1], timeout=10).status_code == 200
    assert http.post(f"{url}/start", headers=auth[0], timeout=10).status_code == 200
    rng = random.Random(1)
    etags = [None, None]
    for _ in range(2000):
        for n in (0, 1):
            headers = dict(auth[n])
            if etags[n]:
                headers["If-None-Match"] = etags[n]
            poll = http.get(f"{url}/view", headers=headers, timeout=10)
            if poll.status_code == 304:
                continue
            etags[n] = poll.headers["ETag"]
            view = poll.json()
            if view["status"] != "active":
                break
            if view["seat"] in view["to_act"]:
                commands = http.get(f"{url}/legal-commands", headers=auth[n], timeout=10).json()["commands"]
                assert http.post(f"{url}/commands", json=rng.choice(commands), headers=auth[n], timeout=10).status_code == 200
        else:
            continue
        break
    assert http.get(f"{url}/view", headers=auth[0], timeout=10).json()["status"] == "scoring"
    inbox = http.get(f"{base_url}/v1/players/me/inbox", headers=auth[0], timeout=10).json()
    assert inbox["waiting"] == 0 and inbox["games"][0]["status"] == "scoring"
