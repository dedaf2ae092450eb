"""Ending a game by agreement, in every game alike: the players propose and
accept ending it cancelled or as it stands (ranked by the game's own score
now), every step an event shown to all, the outcome saying so and agreeing
with the standings, the audit verifying it; bad proposals and acceptances
are refused with a sentence and store nothing. Through the API on PostgreSQL."""

from __future__ import annotations

import uuid

import pytest

from .conftest import started_game

GAMES = {
    "cronberg": {"players": 2},
    "coronation": {"detective_seats": 1},
    "court-of-miracles": {"players": 2},
    "runebound": {"players": 2},
    "the-coil": {"players": 2},
}


def _play_a_little(game_id, by_player, steps: int = 3) -> None:
    """A few moves, so that the game is under way (each seat to act plays its first legal command)."""
    for _ in range(steps):
        view = by_player[0].view(game_id).json
        if view["status"] != "active" or not view["to_act"]:
            return
        mover = next(p for p in by_player if p.view(game_id).json.get("seat") in view["to_act"])
        assert mover.act(game_id, mover.legal(game_id)[0]).status_code == 200


def _version(service, game_id) -> int:
    return service.load(uuid.UUID(game_id))[1].version


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_players_end_a_game_as_it_stands_and_the_audit_verifies_it(players, client, service, game):
    ada, bob = players(2)
    game_id = started_game([ada, bob], game, GAMES[game])
    _play_a_little(game_id, [ada, bob])

    proposed = ada.post(f"/v1/games/{game_id}/end-proposal", json={"ending": "as-it-stands"})
    assert proposed.status_code == 200, proposed.json
    bob_seat = bob.view(game_id).json["seat"]
    assert proposed.json["proposal"]["waiting_for"] == [bob_seat] and proposed.json["status"] == "active"
    accepted = bob.post(f"/v1/games/{game_id}/end-proposal/accept", json={})
    assert accepted.status_code == 200, accepted.json
    assert accepted.json["status"] == "scoring" and accepted.json["proposal"] is None
    outcome = accepted.json["outcome"]
    assert outcome.startswith("Ended by agreement of its players, as it stands: ")
    assert service.score(uuid.UUID(game_id))

    for who in (ada, bob, client):  # shown to all, a spectator too
        events = who.get(f"/v1/games/{game_id}/events").json["events"]
        assert [e["type"] for e in events if e["type"].startswith("End")] == ["EndProposed", "EndAccepted", "EndAgreed"]
    view = ada.view(game_id).json
    first = sorted(s["seat"] for s in view["standings"] if s["rank"] == 1)
    assert first and all(view["names"][seat] in outcome for seat in first), "the outcome names who is first, by name"
    assert ("share first place" in outcome) == (len(first) > 1), "and how many are"
    audit = client.get(f"/v1/games/{game_id}/audit").json
    assert audit["verdict"] == "VERIFIED", audit


def test_a_game_whose_other_seat_a_bot_plays_is_cancelled_at_once_when_its_player_proposes_it(players, client, service):
    (ada,) = players(1)
    game_id = ada.create("cronberg", {"players": 2, "bots": {"p2": "random"}})
    assert ada.post(f"/v1/games/{game_id}/start").status_code == 200
    ended = ada.post(f"/v1/games/{game_id}/end-proposal", json={"ending": "cancelled"})
    assert ended.status_code == 200, ended.json
    assert ended.json["status"] == "cancelled"
    assert ended.json["outcome"] == "Ended by agreement of its players: cancelled, with no result"
    events = client.get(f"/v1/games/{game_id}/events").json["events"]
    assert [e["type"] for e in events][-2:] == ["EndProposed", "EndAgreed"]
    assert ada.get(f"/v1/games/{game_id}").json["status"] == "cancelled"
    assert client.get(f"/v1/games/{game_id}/audit").json["chain"]["ok"]


def test_a_game_with_clocks_ended_as_it_stands_while_paused_is_verified_by_the_audit(players, client, service):
    ada, bob = players(2)
    game_id = started_game([ada, bob], options={"players": 2, "time_bank_seconds": 86400})
    _play_a_little(game_id, [ada, bob])
    for who in (ada, bob):
        assert who.post(f"/v1/games/{game_id}/pause").status_code == 200
    assert bob.post(f"/v1/games/{game_id}/end-proposal", json={"ending": "as-it-stands"}).status_code == 200
    assert ada.post(f"/v1/games/{game_id}/end-proposal/accept", json={"seat": ada.view(game_id).json["seat"]}
                    ).json["status"] == "scoring"
    assert service.score(uuid.UUID(game_id))
    assert client.get(f"/v1/games/{game_id}/audit").json["verdict"] == "VERIFIED"


def test_a_declined_proposal_ends_and_the_game_goes_on(players, service):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    assert ada.post(f"/v1/games/{game_id}/end-proposal", json={"ending": "cancelled"}).status_code == 200
    declined = bob.post(f"/v1/games/{game_id}/end-proposal/withdraw")
    assert declined.status_code == 200, declined.json
    assert declined.json["proposal"] is None and declined.json["status"] == "active"
    again = bob.post(f"/v1/games/{game_id}/end-proposal", json={"ending": "as-it-stands"})
    assert again.status_code == 200 and again.json["proposal"]["seat"] == bob.view(game_id).json["seat"]


def _open(ada, game_id):
    assert ada.post(f"/v1/games/{game_id}/end-proposal", json={"ending": "cancelled"}).status_code == 200


@pytest.mark.parametrize("case, status, says", [
    ("accepting twice", 409, "has accepted this proposal already"),
    ("accepting for another seat", 403, "you may accept for your own seat only"),
    ("the proposer accepting", 409, "your proposal counts as your acceptance"),
    ("proposing while one is open", 409, "before proposing another ending"),
    ("a spectator proposing", 403, "only a player who plays a seat of this game may propose ending the game"),
    ("proposing in a finished game", 409, "the game is cancelled"),
    ("accepting with none open", 409, "nobody has proposed ending the game"),
    ("an unknown ending", 422, "an ending is cancelled (no result) or as-it-stands"),
])
def test_a_bad_proposal_or_acceptance_is_refused_with_a_sentence_and_nothing_stored(
        players, service, case, status, says):
    ada, bob, cy, dee = players(4)
    game_id = started_game([ada, bob, cy])
    ada_seat = ada.view(game_id).json["seat"]
    if case == "accepting twice":
        _open(ada, game_id)
        assert bob.post(f"/v1/games/{game_id}/end-proposal/accept", json={}).status_code == 200
        call = lambda: bob.post(f"/v1/games/{game_id}/end-proposal/accept", json={})  # noqa: E731
    elif case == "accepting for another seat":
        _open(ada, game_id)
        call = lambda: bob.post(f"/v1/games/{game_id}/end-proposal/accept", json={"seat": ada_seat})  # noqa: E731
    elif case == "the proposer accepting":
        _open(ada, game_id)
        call = lambda: ada.post(f"/v1/games/{game_id}/end-proposal/accept", json={})  # noqa: E731
    elif case == "proposing while one is open":
        _open(ada, game_id)
        call = lambda: bob.post(f"/v1/games/{game_id}/end-proposal", json={"ending": "as-it-stands"})  # noqa: E731
    elif case == "a spectator proposing":
        call = lambda: dee.post(f"/v1/games/{game_id}/end-proposal", json={"ending": "cancelled"})  # noqa: E731
    elif case == "proposing in a finished game":
        _open(ada, game_id)
        for who in (bob, cy):
            assert who.post(f"/v1/games/{game_id}/end-proposal/accept", json={}).status_code == 200
        call = lambda: bob.post(f"/v1/games/{game_id}/end-proposal", json={"ending": "cancelled"})  # noqa: E731
    elif case == "accepting with none open":
        call = lambda: bob.post(f"/v1/games/{game_id}/end-proposal/accept", json={})  # noqa: E731
    else:
        call = lambda: ada.post(f"/v1/games/{game_id}/end-proposal", json={"ending": "draw"})  # noqa: E731
    version = _version(service, game_id)
    refused = call()
    assert refused.status_code == status and refused.mimetype == "application/problem+json", refused.json
    assert says in refused.json["detail"], refused.json["detail"]
    assert _version(service, game_id) == version, "nothing stored"


def test_a_proposal_to_end_the_game_tells_no_seat_anything_hidden(players, client):
    """Each seat's view, and a spectator's, is what it was but for the proposal;
    the proposal's event holds who proposed and how, nothing of the game."""
    ada, bob = players(2)
    game_id = started_game([ada, bob], "coronation", {"detective_seats": 1})
    _play_a_little(game_id, [ada, bob])
    viewers = (ada, bob, client)

    def seen():
        return [{k: v for k, v in who.get(f"/v1/games/{game_id}/view").json.items() if k not in ("version", "receipt")}
                for who in viewers]

    before = seen()
    assert ada.post(f"/v1/games/{game_id}/end-proposal", json={"ending": "as-it-stands"}).status_code == 200
    assert seen() == before
    for who in viewers:
        event = who.get(f"/v1/games/{game_id}/events").json["events"][-1]
        assert event["type"] == "EndProposed"
        assert set(event["data"]) == {"type", "seat", "player", "ending"}
