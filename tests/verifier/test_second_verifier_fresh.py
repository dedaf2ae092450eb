"""The second verifier judges freshly played games of all five games, and
games through every seat-life decision, as VERIFIED (with the receipts the
players' clients kept and the server's keys, where the server gives them),
and refuses their tampered copies."""

from __future__ import annotations

import json
import uuid

import pytest

from tests.api.test_audit_of_seat_life import _play as _play_with_bots  # the same players' loop as there
from tests.support.hosted import HOSTED
from tests.verifier.harness import (
    NOTES,
    checks_of,
    refuse_every_tampered_copy,
    second_verifier,
)

# --- freshly played games of all five games

class FreshGame:
    """A game played through the API to its end, exported, with the receipts
    its players' clients kept from the command answers (none where the
    server gives none) and the server's key list (None where it has none)."""

    def __init__(self, lines: list[str], receipts: list[dict], keys: dict | None):
        self.lines, self.receipts, self.keys = lines, receipts, keys


def _play_keeping_receipts(client, service, game: str, seed: int) -> FreshGame | None:
    import random

    from tests.golden.record import SPECS, Seat

    spec = SPECS[game][0]
    rng = random.Random(f"second-verifier/{game}/{seed}")
    from domain import games
    from domain.engine import resolve_options

    rules = games.get(spec.game)
    count = len(rules.seats(resolve_options(rules.options, spec.options)))
    seats = [Seat(client, f"referee-{game}-{seed}-{i}") for i in range(count)]
    receipts = []

    def keep(answer):
        receipt = (answer.json or {}).get("receipt") if answer.is_json else None
        if receipt:
            receipts.append(receipt)
        return answer

    created = keep(seats[0].post("/v1/games", json={"game": spec.game, "options": spec.options}))
    assert created.status_code == 201, created.json
    game_id = created.json["id"]
    for seat in seats[1:]:
        assert keep(seat.post(f"/v1/games/{game_id}/join")).status_code == 200
    assert keep(seats[0].post(f"/v1/games/{game_id}/start")).status_code == 200
    for _ in range(spec.max_commands):
        views = [seat.get(f"/v1/games/{game_id}/view").json for seat in seats]
        if views[0]["status"] != "active":
            break
        seat, _ = rng.choice([(s, v) for s, v in zip(seats, views) if v["seat"] in v["to_act"]])
        commands = seat.get(f"/v1/games/{game_id}/legal-commands").json
        commands = commands["commands"] if isinstance(commands, dict) else commands
        assert keep(seat.post(f"/v1/games/{game_id}/commands", json=rng.choice(commands))).status_code == 200
    else:
        return None
    service.score(uuid.UUID(game_id))
    export = client.get(f"/v1/games/{game_id}/export")
    assert export.status_code == 200
    keys = client.get("/v1/keys")
    return FreshGame(export.get_data(as_text=True).splitlines(), receipts, keys.json if keys.status_code == 200 else None)


@pytest.fixture(scope="module")
def fresh_games(app, service):
    played = {}

    def fresh(game: str) -> FreshGame:
        if game not in played:
            client = app.test_client()
            played[game] = next(g for g in (_play_keeping_receipts(client, service, game, seed)
                                            for seed in range(1, 20)) if g is not None)
        return played[game]

    return fresh


@pytest.mark.parametrize("game", HOSTED)
def test_the_second_verifier_verifies_a_freshly_played_game(node, fresh_games, game, tmp_path):
    fresh = fresh_games(game)
    extra = []
    if fresh.keys is not None:
        (tmp_path / "keys.json").write_text(json.dumps(fresh.keys))
        extra += ["--keys", str(tmp_path / "keys.json")]
    if fresh.receipts:
        (tmp_path / "receipts.json").write_text(json.dumps(fresh.receipts))
        extra += ["--receipts", str(tmp_path / "receipts.json")]
    else:
        NOTES.append("freshly played games: the server gave no receipts, so none were compared")
    answer = second_verifier(fresh.lines, tmp_path, extra=extra)
    assert answer["verdict"] == "VERIFIED", answer
    if fresh.receipts:
        assert f"{len(fresh.receipts)} receipt(s) agree" in checks_of(answer)["receipts"]["reason"]


@pytest.mark.parametrize("game", HOSTED)
def test_the_second_verifier_refuses_every_tampered_fresh_game(node, fresh_games, game, tmp_path):
    refuse_every_tampered_copy(f"{game} (fresh)", fresh_games(game).lines, tmp_path)


# --- games through every seat-life decision (invites, leaving, bots,
# abandonment, a replacement, a resignation a bot plays on, a rematch; time
# banks), as tests/api/test_audit_of_seat_life.py plays them for boardlog audit

def _seat_life_game(client, service) -> list[str]:
    import random

    from tests.api.conftest import Player

    tag = uuid.uuid4().hex[:6]
    ada, bob, cy, dan, eve = (Player(client, f"referee-{tag}-{name}") for name in ("ada", "bob", "cy", "dan", "eve"))
    rng = random.Random(4)
    game_id = ada.create("cronberg", {"players": 4, "rounds": 1, "visibility": "private", "abandon_after": 1,
                                      "turn_seconds": 3600, "deadline_per_seat": False, "bots": {"p4": "random"}})
    for player in (bob, cy):
        code = ada.post(f"/v1/games/{game_id}/invites", json={}).json["code"]
        assert player.post(f"/v1/games/{game_id}/invites/redeem", json={"code": code}).status_code == 200
    assert cy.post(f"/v1/games/{game_id}/leave").status_code == 200
    code = ada.post(f"/v1/games/{game_id}/invites", json={"seat": "p3"}).json["code"]
    assert dan.post(f"/v1/games/{game_id}/invites/redeem", json={"code": code}).status_code == 200
    assert ada.post(f"/v1/games/{game_id}/start").status_code == 200
    holders = {"p1": ada, "p2": bob, "p3": dan}
    summary = _play_with_bots(service, game_id, holders, rng, until=lambda s: s["to_act"] == ["p2"])
    assert service.fire_deadline(uuid.UUID(game_id), summary["version"])  # one timeout abandons p2
    code = ada.post(f"/v1/games/{game_id}/invites", json={"seat": "p2"}).json["code"]
    assert eve.post(f"/v1/games/{game_id}/invites/redeem", json={"code": code}).status_code == 200
    holders["p2"] = eve
    _play_with_bots(service, game_id, holders, rng, until=lambda s: "p3" not in s["to_act"])
    assert dan.post(f"/v1/games/{game_id}/resign").status_code == 200  # a bot plays p3 on
    assert _play_with_bots(service, game_id, holders, rng)["status"] == "scoring"
    assert service.score(uuid.UUID(game_id))
    assert ada.post(f"/v1/games/{game_id}/rematch").status_code == 201
    return ada.get(f"/v1/games/{game_id}/export").get_data(as_text=True).splitlines()  # a private game: its players only


def _time_bank_game(client, service) -> list[str]:
    import random

    from tests.api.conftest import Player

    tag = uuid.uuid4().hex[:6]
    ada, bob = Player(client, f"referee-{tag}-ada"), Player(client, f"referee-{tag}-bob")
    game_id = ada.create("the-coil", {"players": 2, "time_bank_seconds": 3600, "turn_seconds": 600})
    assert bob.post(f"/v1/games/{game_id}/join", json={}).status_code == 200
    assert ada.post(f"/v1/games/{game_id}/start").status_code == 200
    _play_with_bots(service, game_id, {"p1": ada, "p2": bob}, random.Random(2), until=lambda s: s["version"] > 20)
    assert bob.post(f"/v1/games/{game_id}/resign").status_code == 200
    assert service.score(uuid.UUID(game_id))
    return ada.get(f"/v1/games/{game_id}/export").get_data(as_text=True).splitlines()  # a private game: its players only


SEAT_LIFE_GAMES = {"seat life": _seat_life_game, "time banks": _time_bank_game}


@pytest.fixture(scope="module")
def seat_life_games(app, service):
    played = {}

    def game(name: str) -> list[str]:
        if name not in played:
            played[name] = SEAT_LIFE_GAMES[name](app.test_client(), service)
        return played[name]

    return game


@pytest.mark.parametrize("name", SEAT_LIFE_GAMES)
def test_the_second_verifier_verifies_a_game_through_seat_life_decisions(node, seat_life_games, name, tmp_path):
    lines = seat_life_games(name)
    answer = second_verifier(lines, tmp_path)
    assert answer["verdict"] == "VERIFIED", answer
    kinds = {entry["metadata"]["command"]["type"] for entry in map(json.loads, lines) if "metadata" in entry}
    assert kinds & {"ResignSeat", "AbandonSeat", "RedeemInvite", "ComputeClocks"}


@pytest.mark.parametrize("name", SEAT_LIFE_GAMES)
def test_the_second_verifier_refuses_every_tampered_seat_life_game(node, seat_life_games, name, tmp_path):
    refuse_every_tampered_copy(f"{name} (fresh)", seat_life_games(name), tmp_path)



def test_the_second_verifier_verifies_a_game_with_a_pause_and_a_takeback(node, app, service, tmp_path):
    from tests.api.conftest import Player, started_game

    client = app.test_client()
    tag = uuid.uuid4().hex[:6]
    ada, bob = Player(client, f"pause-{tag}-ada"), Player(client, f"pause-{tag}-bob")
    game_id = started_game([ada, bob], "coronation", {"detective_seats": 1})
    assert ada.post(f"/v1/games/{game_id}/pause").status_code == 200
    assert bob.post(f"/v1/games/{game_id}/pause").json["paused"] is True
    assert ada.post(f"/v1/games/{game_id}/resume").status_code == 200
    by_seat = {ada.view(game_id).json["seat"]: ada, bob.view(game_id).json["seat"]: bob}
    taken_back = False
    for _ in range(40):
        view = ada.view(game_id).json
        seat = view["to_act"][0]
        mover = by_seat[seat]
        command = mover.legal(game_id)[0]
        assert mover.act(game_id, command).status_code == 200
        if command["type"] in ("PlaceDetective", "MoveDetective") and mover.post(f"/v1/games/{game_id}/takeback").status_code == 200:
            other = next(p for s, p in by_seat.items() if s != seat)
            assert other.post(f"/v1/games/{game_id}/takeback/accept").status_code == 200
            taken_back = True
            break
    assert taken_back, "no detective move came to be taken back"
    assert by_seat["lind"].post(f"/v1/games/{game_id}/resign").status_code == 200
    assert service.score(uuid.UUID(game_id))
    lines = client.get(f"/v1/games/{game_id}/export").get_data(as_text=True).splitlines()
    kinds = {entry["metadata"]["command"]["type"] for entry in map(json.loads, lines) if "metadata" in entry}
    assert {"AskPause", "ResumeGame", "AskTakeback", "AcceptTakeback"} <= kinds
    answer = second_verifier(lines, tmp_path)
    assert answer["verdict"] == "VERIFIED", answer
