"""Resign, abort, invites and replacements, private games and rematches over
HTTP, on a real PostgreSQL. Bots here are moved by calling the service's bot
job directly (tests/workers/test_bots.py runs them from RQ)."""

from __future__ import annotations

import random

import pytest

from tests.api.conftest import started_game


def summary(player, game_id):
    return player.get(f"/v1/games/{game_id}").json


def feed(player, game_id):
    return player.get(f"/v1/games/{game_id}/events", query_string={"limit": 1000}).json["events"]


def act_until(players_by_seat, game_id, done, rng, steps=500):
    """Whoever is to act plays a random legal command until ``done(view)``."""
    anyone = next(iter(players_by_seat.values()))
    for _ in range(steps):
        view = anyone.view(game_id).json
        if done(view):
            return view
        seat = sorted(s for s in view["to_act"] if s in players_by_seat)[0]
        player = players_by_seat[seat]
        response = player.act(game_id, rng.choice(player.legal(game_id)))
        assert response.status_code == 200, response.json
    raise AssertionError("never done")


def assert_refused(response, status, kind):
    assert response.status_code == status, response.json
    assert response.mimetype == "application/problem+json"
    assert response.json["type"].endswith("/" + kind), response.json
    assert response.json["detail"]


# Resign


def test_a_resigned_seat_is_played_by_a_bot_its_player_is_refused_and_everyone_is_told(players, service, client):
    ada, bob, cy = players(3)
    game_id = started_game([ada, bob, cy])
    response = bob.post(f"/v1/games/{game_id}/resign")
    assert response.status_code == 200, response.json
    assert response.json["bots"] == {"p2": response.json["bots"]["p2"]}
    resigned = [e for e in feed(cy, game_id) if e["type"] == "SeatResigned"]
    assert resigned and resigned[0]["data"] == {"type": "SeatResigned", "seat": "p2", "player": bob.id, "bot": response.json["bots"]["p2"]}
    assert ada.view(game_id).json["resigned"] == ["p2"]

    act_until({"p1": ada, "p3": cy}, game_id, lambda view: "p2" in view["to_act"], random.Random(1))
    version = summary(ada, game_id)["version"]
    assert bob.view(game_id).json == client.get(f"/v1/games/{game_id}/view").json  # a spectator's now
    assert bob.legal(game_id) == []
    inbox = bob.get("/v1/players/me/inbox").json["games"]
    assert [g["your_turn"] for g in inbox if g["id"] == game_id] == [False]  # p2 is to act, but a bot plays it
    assert_refused(bob.act(game_id, {"type": "DrawBuilding"}), 409, "seat-played-by-bot")
    assert service.bots.play_bots(__import__("uuid").UUID(game_id), version)
    moved = [e for e in feed(ada, game_id) if e["version"] > version]
    assert moved and moved[0]["seat"] == "p2"


def test_coronation_lind_resigning_over_http_ends_the_game_with_the_detectives_winning(players):
    ada, bob = players(2)
    game_id = started_game([ada, bob], "coronation", {"detective_seats": 1})
    response = ada.post(f"/v1/games/{game_id}/resign")
    assert response.status_code == 200
    assert response.json["status"] == "scoring"
    assert "detectives win" in response.json["outcome"]


def test_coronation_the_last_detective_seat_resigning_over_http_makes_lind_win_at_once(players, service):
    ada, bob, cy = players(3)
    game_id = started_game([ada, bob, cy], "coronation", {"detective_seats": 2})
    assert bob.post(f"/v1/games/{game_id}/resign").status_code == 200
    response = cy.post(f"/v1/games/{game_id}/resign")
    assert response.status_code == 200, response.json
    assert response.json["status"] == "scoring" and response.json["bots"] == {}
    assert f"{ada.name} wins" in response.json["outcome"]  # Lind's seat, named by its player
    assert service.score(__import__("uuid").UUID(game_id))
    assert ada.view(game_id).json["standings"][0]["seat"] == "lind"


def test_resigning_without_a_seat_in_the_lobby_or_twice_is_refused_and_changes_nothing(players):
    ada, bob, cy, stranger = players(4)
    lobby = ada.create(options={"players": 3})
    assert_refused(ada.post(f"/v1/games/{lobby}/resign"), 409, "wrong-status")
    game_id = started_game([ada, bob, cy])
    assert_refused(stranger.post(f"/v1/games/{game_id}/resign"), 403, "not-permitted")
    assert cy.post(f"/v1/games/{game_id}/resign").status_code == 200
    version = summary(ada, game_id)["version"]
    assert_refused(cy.post(f"/v1/games/{game_id}/resign"), 409, "wrong-status")
    assert summary(ada, game_id)["version"] == version
    assert ada.post(f"/v1/games/not-a-game/resign").status_code == 404
    assert ada.client.post(f"/v1/games/{game_id}/resign").status_code == 401


# Abort


def test_abort_before_every_seat_has_acted_ends_the_game_with_no_result(players):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    response = bob.post(f"/v1/games/{game_id}/abort")
    assert response.status_code == 200
    assert response.json["status"] == "cancelled" and f"aborted by {bob.name}" in response.json["outcome"]
    assert_refused(ada.post(f"/v1/games/{game_id}/abort"), 409, "wrong-status")


def test_abort_is_refused_once_every_seat_has_acted_and_nothing_changes(players):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    act_until({"p1": ada, "p2": bob}, game_id, lambda view: False if view["version"] < 0 else _both_acted(ada, game_id),
              random.Random(2))
    version = summary(ada, game_id)["version"]
    response = ada.post(f"/v1/games/{game_id}/abort")
    assert_refused(response, 409, "wrong-status")
    assert "resign instead" in response.json["detail"]
    assert summary(ada, game_id)["version"] == version


def test_a_player_who_saw_his_hand_cannot_abort_the_deal_and_the_players_may_still_cancel_it_together(players):
    """The Court of Miracles deals hands at the start: an abort would let a
    player throw back every deal he dislikes."""
    ada, bob = players(2)
    game_id = started_game([ada, bob], "court-of-miracles", {"players": 2})
    version = summary(ada, game_id)["version"]
    response = bob.post(f"/v1/games/{game_id}/abort")
    assert_refused(response, 409, "wrong-status")
    assert "private information is dealt" in response.json["detail"] and "propose to cancel it" in response.json["detail"]
    assert summary(ada, game_id)["version"] == version and summary(ada, game_id)["status"] == "active"
    assert bob.post(f"/v1/games/{game_id}/end-proposal", json={"ending": "cancelled"}).status_code == 200
    assert ada.post(f"/v1/games/{game_id}/end-proposal/accept", json={}).json["status"] == "cancelled"


def test_a_host_cannot_set_the_deal_rule_it_is_recorded_by_the_server(players):
    ada, _ = players(2)
    response = ada.post("/v1/games", json={"game": "cronberg", "options": {"players": 2, "no_abort_once_dealt": False}})
    assert response.status_code == 422 and "no_abort_once_dealt" in response.json["detail"]


def test_coronation_a_detective_seat_that_resigned_before_acting_no_longer_lets_the_game_be_aborted(players):
    ada, bob, cy = players(3)
    game_id = started_game([ada, bob, cy], "coronation", {"detective_seats": 2})
    assert bob.post(f"/v1/games/{game_id}/resign").status_code == 200  # detective-1 never acted
    seats = {"lind": ada, "detective-2": cy}
    act_until(seats, game_id, lambda view: {"lind", "detective-2"} <= {e["seat"] for e in feed(ada, game_id)},
              random.Random(4))
    version = summary(ada, game_id)["version"]
    response = ada.post(f"/v1/games/{game_id}/abort")
    assert_refused(response, 409, "wrong-status")
    assert "can no longer be aborted" in response.json["detail"]
    assert summary(ada, game_id)["version"] == version and summary(ada, game_id)["status"] == "active"


def _both_acted(player, game_id) -> bool:
    seats = {e["seat"] for e in feed(player, game_id) if e["seat"]}
    return {"p1", "p2"} <= seats


# Invites, replacement, private games


def _abandon(service, game_id, seat, players_by_seat, rng):
    """Time ``seat`` out once (abandon_after is 1 in these games)."""
    import uuid

    act_until(players_by_seat, game_id, lambda view: view["to_act"] == [seat], rng)
    gid = uuid.UUID(game_id)
    _, session = service.load(gid)
    assert service.fire_deadline(gid, session.version)
    assert service.load(gid)[1].life.abandoned == (seat,)


def test_a_replacement_sees_everything_the_abandoned_seat_saw_and_the_others_only_that_it_changed_hands(
    players, service
):
    ada, bob, cy, dan = players(4)
    game_id = started_game([ada, bob, cy], "court-of-miracles", {"players": 3, "abandon_after": 1})
    _abandon(service, game_id, "p2", {"p1": ada, "p2": bob, "p3": cy}, random.Random(3))
    bobs_feed = feed(bob, game_id)  # the seat's until it was abandoned, a spectator's from then on
    told = [e for e in feed(cy, game_id) if e["type"] == "SeatAbandoned"]
    assert [(e["data"]["seat"], e["data"]["player"], e["data"]["timeouts"]) for e in told] == [("p2", bob.id, 1)]

    response = ada.post(f"/v1/games/{game_id}/invites", json={"seat": "p2"})
    assert response.status_code == 201, response.json
    code = response.json["code"]
    response = dan.post(f"/v1/games/{game_id}/invites/redeem", json={"code": code})
    assert response.status_code == 200, response.json
    assert {s["seat"]: s["player"] for s in response.json["seats"]}["p2"] == dan.id
    assert response.json["bots"] == {}

    dans_view = dan.view(game_id).json
    abandoned_at = told[0]["version"]
    before = bob.view(game_id, query_string={"at": abandoned_at - 1}).json
    assert dans_view["seat"] == "p2" and before["seat"] == "p2"
    assert dan.view(game_id, query_string={"at": abandoned_at - 1}).json["view"] == before["view"]
    assert ada.view(game_id).json["view"] != dans_view["view"]  # p2's hand is p2's alone
    dans_feed = feed(dan, game_id)
    assert [e["data"] for e in dans_feed[: abandoned_at - 1]] == [e["data"] for e in bobs_feed[: abandoned_at - 1]]
    changed = [e for e in feed(ada, game_id) if e["type"] == "SeatReplaced"]
    assert [e["data"] for e in changed] == [{"type": "SeatReplaced", "seat": "p2", "player_before": bob.id, "player": dan.id}]
    assert bob.view(game_id).json["seat"] is None  # bob holds no seat now
    assert dan.legal(game_id) or "p2" not in dans_view["to_act"]


def test_invite_codes_are_for_the_host_single_use_and_checked(players, service):
    ada, bob, cy, dan = players(4)
    game_id = started_game([ada, bob, cy], "cronberg", {"players": 3, "abandon_after": 1})
    assert_refused(ada.post(f"/v1/games/{game_id}/invites", json={"seat": "p3"}), 409, "wrong-status")
    _abandon(service, game_id, "p1", {"p1": ada, "p2": bob, "p3": cy}, random.Random(4))
    assert_refused(bob.post(f"/v1/games/{game_id}/invites", json={"seat": "p1"}), 403, "not-permitted")
    assert_refused(ada.post(f"/v1/games/{game_id}/invites", json={}), 422, "invalid-request")
    assert_refused(ada.post(f"/v1/games/{game_id}/invites", json={"seat": "p7"}), 422, "invalid-request")
    code = ada.post(f"/v1/games/{game_id}/invites", json={"seat": "p1"}).json["code"]
    version = summary(ada, game_id)["version"]
    assert_refused(dan.post(f"/v1/games/{game_id}/invites/redeem", json={"code": code + "x"}), 403, "invite-invalid")
    assert_refused(bob.post(f"/v1/games/{game_id}/invites/redeem", json={"code": code}), 409, "wrong-status")
    assert summary(ada, game_id)["version"] == version
    # The host, abandoned, takes the seat back with the code.
    assert ada.post(f"/v1/games/{game_id}/invites/redeem", json={"code": code}).status_code == 200
    assert_refused(dan.post(f"/v1/games/{game_id}/invites/redeem", json={"code": code}), 409, "invite-spent")
    assert summary(ada, game_id)["bots"] == {}


def test_a_private_game_is_not_listed_and_is_joined_by_invite_code_only(players):
    ada, bob, cy = players(3)
    private = ada.create(options={"players": 3, "visibility": "private"})
    public = ada.create(options={"players": 3})
    listed = lambda player: {g["id"] for g in player.get("/v1/games", query_string={"limit": 200}).json["games"]}
    assert public in listed(bob) and private not in listed(bob)
    assert private in listed(ada)
    # Not invited: the game is no game to him (tests/api/test_private_games.py)
    assert_refused(bob.post(f"/v1/games/{private}/join", json={}), 404, "game-not-found")
    code = ada.post(f"/v1/games/{private}/invites", json={}).json["code"]
    assert bob.post(f"/v1/games/{private}/invites/redeem", json={"code": code}).status_code == 200
    assert private in listed(bob)
    assert_refused(cy.post(f"/v1/games/{private}/invites/redeem", json={"code": code}), 409, "invite-spent")
    assert summary(ada, private)["visibility"] == "private"


# Rematch


def test_a_rematch_has_the_same_seats_options_and_bots_a_new_seed_and_keeps_each_seat_for_its_player(
    players, service
):
    import uuid

    ada, bob, cy, stranger = players(4)
    options = {"players": 3, "turn_seconds": 3600, "bots": {"p3": "random"}}
    game_id = ada.create(options=options)
    bob.post(f"/v1/games/{game_id}/join", json={})
    ada.post(f"/v1/games/{game_id}/start")
    assert_refused(ada.post(f"/v1/games/{game_id}/rematch"), 409, "wrong-status")
    bob.post(f"/v1/games/{game_id}/resign")  # p1 and the bot at p3 remain: it goes on
    ada.post(f"/v1/games/{game_id}/resign")  # the bot at p3 is the last seat standing
    service.score(uuid.UUID(game_id))
    assert summary(ada, game_id)["status"] == "finished"

    assert_refused(stranger.post(f"/v1/games/{game_id}/rematch"), 403, "not-permitted")
    response = bob.post(f"/v1/games/{game_id}/rematch")
    assert response.status_code == 201, response.json
    rematch = response.json
    assert rematch["status"] == "lobby" and rematch["host"] == bob.id
    assert rematch["seats"] == [{"seat": "p2", "player": bob.id, "name": bob.name}]
    assert rematch["bots"] == {"p3": "random"}
    assert {k: rematch["options"][k] for k in ("players", "turn_seconds")} == {"players": 3, "turn_seconds": 3600}
    created = [e for e in feed(bob, rematch["id"]) if e["type"] == "GameCreated"][0]["data"]
    original = [e for e in feed(bob, game_id) if e["type"] == "GameCreated"][0]["data"]
    assert created["seed_sha256"] != original["seed_sha256"]
    assert ada.view(game_id).json["rematch"] == rematch["id"] == summary(cy, game_id)["rematch"]
    assert [g["rematch"] for g in ada.get("/v1/players/me/inbox").json["games"] if g["id"] == game_id] == [rematch["id"]]
    assert_refused(cy.post(f"/v1/games/{rematch['id']}/join", json={"seat": "p1"}), 403, "not-permitted")
    assert ada.post(f"/v1/games/{rematch['id']}/join", json={}).status_code == 200
    assert {s["seat"]: s["player"] for s in summary(ada, rematch["id"])["seats"]}["p1"] == ada.id
    assert_refused(ada.post(f"/v1/games/{game_id}/rematch"), 409, "wrong-status")


# Creation


@pytest.mark.parametrize("options", [{"bots": {"p2": "deep-blue"}}, {"time_bank_seconds": 5},
                                     {"abandon_after": 1000}, {"visibility": "hidden"}])
def test_unknown_bots_and_out_of_range_options_are_refused_at_creation(players, options):
    (ada,) = players(1)
    response = ada.post("/v1/games", json={"game": "cronberg", "options": {"players": 3, **options}})
    assert response.status_code == 422
    assert next(iter(options)) in response.json["detail"] or "deep-blue" in response.json["detail"]


def test_the_catalogue_lists_each_game_s_bots_and_the_options_of_a_game_s_life(client):
    cronberg = client.get("/v1/rules/cronberg").json
    assert cronberg["bots"] == ["random", "heuristic"]
    names = {option["name"] for option in cronberg["options"]}
    assert {"visibility", "abandon_after", "deadline_per_seat", "time_bank_seconds", "time_increment_seconds",
            "time_cap_seconds"} <= names


def test_when_a_resigned_seat_s_bot_wins_the_summary_feed_and_notices_say_the_winner_the_standings_rank_first(
        players, service):
    import uuid

    from domain.notices import notices_of

    for attempt in range(12):
        ada, bob, cy = players(3)
        game_id = started_game([ada, bob, cy], "cronberg", {"players": 3, "rounds": 1})
        assert bob.post(f"/v1/games/{game_id}/resign").status_code == 200
        rng = random.Random(attempt)
        for _ in range(500):
            view = ada.view(game_id).json
            if view["status"] != "active":
                break
            seat = view["to_act"][0]
            if seat == "p2":
                assert service.bots.play_bots(uuid.UUID(game_id), view["version"])
            else:
                player = {"p1": ada, "p3": cy}[seat]
                assert player.act(game_id, rng.choice(player.legal(game_id))).status_code == 200
        rules, session = service.load(uuid.UUID(game_id))
        if any(s.seat == "p2" and s.rank == 1 for s in rules.score(session.state)):
            break
    else:
        raise AssertionError("the resigned seat's bot never won")
    assert service.score(uuid.UUID(game_id))
    standings = ada.view(game_id).json["standings"]
    first = [s["seat"] for s in standings if s["rank"] == 1]
    assert standings[-1]["seat"] == "p2" and "p2" not in first
    outcome = [e["data"]["outcome"] for e in feed(cy, game_id) if e["type"] == "GameOver"][0]  # the event says seats
    assert outcome.startswith(first[0]) and "p2 wins" not in outcome and "p2 resigned" in outcome
    named = {"p1": ada.name, "p2": bob.name, "p3": cy.name}
    assert summary(ada, game_id)["outcome"] == outcome.replace(first[0], named[first[0]]).replace("p2", bob.name)
    assert summary(ada, game_id)["outcome"] == ada.view(game_id).json["outcome"]  # the listing says it as the view
    ended = [n for r in service.store.read_stream(f"game-{game_id}") for n in notices_of(r) if n.kind == "ended"]
    assert [n.data["outcome"] for n in ended] == [outcome]
