from tests.api.conftest import started_game


def test_creating_a_game_seats_the_host_in_the_lobby(players):
    (ada,) = players(1)
    game_id = ada.create(options={"players": 3})
    summary = ada.get(f"/v1/games/{game_id}").json
    assert summary["status"] == "lobby"
    assert summary["seats"] == [{"seat": "p1", "player": ada.id, "name": ada.name}]
    assert summary["options"]["players"] == 3


def test_creating_an_unknown_game_is_a_404_naming_the_hosted_games(players):
    (ada,) = players(1)
    response = ada.post("/v1/games", json={"game": "chess"})
    assert response.status_code == 404
    assert "cronberg" in response.json["detail"]


def test_an_unknown_option_is_refused_at_creation(players):
    (ada,) = players(1)
    response = ada.post("/v1/games", json={"game": "cronberg", "options": {"colour": "red"}})
    assert response.status_code == 422
    assert "colour" in response.json["detail"]


def test_an_option_out_of_bounds_is_refused_at_creation(players):
    (ada,) = players(1)
    response = ada.post("/v1/games", json={"game": "cronberg", "options": {"players": 9}})
    assert response.status_code == 422
    assert "players" in response.json["detail"]


def test_a_turn_deadline_below_one_second_or_above_thirty_days_is_refused(players):
    (ada,) = players(1)
    for seconds in (0, 30 * 24 * 3600 + 1, "soon", True):
        response = ada.post("/v1/games", json={"game": "cronberg", "options": {"turn_seconds": seconds}})
        assert response.status_code == 422, seconds
        assert "turn_seconds" in response.json["detail"]


def test_joining_takes_the_first_free_seat_or_the_one_asked_for(players):
    ada, bob, cy = players(3)
    game_id = ada.create(options={"players": 3})
    assert bob.post(f"/v1/games/{game_id}/join", json={"seat": "p3"}).status_code == 200
    cy.post(f"/v1/games/{game_id}/join", json={})
    seats = {s["seat"]: s["player"] for s in ada.get(f"/v1/games/{game_id}").json["seats"]}
    assert seats == {"p1": ada.id, "p2": cy.id, "p3": bob.id}


def test_a_taken_seat_cannot_be_joined(players):
    ada, bob = players(2)
    game_id = ada.create(options={"players": 3})
    response = bob.post(f"/v1/games/{game_id}/join", json={"seat": "p1"})
    assert response.status_code == 422
    assert "taken" in response.json["detail"]


def test_a_player_cannot_sit_twice_in_one_game(players):
    (ada,) = players(1)
    game_id = ada.create(options={"players": 3})
    response = ada.post(f"/v1/games/{game_id}/join", json={})
    assert response.status_code == 422
    assert "already sit" in response.json["detail"]


def test_only_the_host_may_start_and_only_with_every_seat_taken(players):
    ada, bob, cy = players(3)
    game_id = ada.create(options={"players": 3})
    bob.post(f"/v1/games/{game_id}/join", json={})
    assert "still empty" in ada.post(f"/v1/games/{game_id}/start").json["detail"]
    cy.post(f"/v1/games/{game_id}/join", json={})
    assert "only the host" in bob.post(f"/v1/games/{game_id}/start").json["detail"]
    assert ada.post(f"/v1/games/{game_id}/start").json["status"] == "active"


def test_leaving_frees_the_seat_and_a_leaving_host_hands_over(players):
    ada, bob = players(2)
    game_id = ada.create(options={"players": 3})
    bob.post(f"/v1/games/{game_id}/join", json={})
    summary = ada.post(f"/v1/games/{game_id}/leave").json
    assert summary["host"] == bob.id
    assert [s["player"] for s in summary["seats"]] == [bob.id]


def test_the_last_player_leaving_cancels_the_lobby(players):
    (ada,) = players(1)
    game_id = ada.create()
    assert ada.post(f"/v1/games/{game_id}/leave").json["status"] == "cancelled"


def test_a_started_game_cannot_be_joined_or_left(players):
    ada, bob, cy = players(3)
    game_id = started_game([ada, bob])
    assert cy.post(f"/v1/games/{game_id}/join", json={}).status_code == 422
    assert bob.post(f"/v1/games/{game_id}/leave").status_code == 422


def test_games_can_be_listed_by_player_and_status(players):
    ada, bob = players(2)
    active = started_game([ada, bob])
    lobby = ada.create()
    mine = ada.get(f"/v1/games?player={ada.id}").json["games"]
    assert {g["id"] for g in mine} == {active, lobby}
    lobbies = ada.get(f"/v1/games?player={ada.id}&status=lobby").json["games"]
    assert [g["id"] for g in lobbies] == [lobby]


def test_an_unknown_game_id_is_a_404(players):
    (ada,) = players(1)
    assert ada.get("/v1/games/not-a-uuid").status_code == 404
    assert ada.get("/v1/games/6f1c4b8e-0000-4000-8000-000000000000/view").status_code == 404


def test_the_lobby_shows_every_seat_who_holds_it_and_which_are_free(players):
    ada, bob = players(2)
    game_id = ada.create("cronberg", {"players": 3})
    joined = bob.post(f"/v1/games/{game_id}/join", json={"seat": "p3"}).json
    assert joined["seats"] == [{"seat": "p1", "player": ada.id, "name": ada.name},
                               {"seat": "p3", "player": bob.id, "name": bob.name}]
    assert joined["free_seats"] == ["p2"]
    listed = next(g for g in ada.get("/v1/games?game=cronberg&status=lobby&limit=200").json["games"] if g["id"] == game_id)
    assert listed["free_seats"] == ["p2"]


def test_the_lobby_pages_through_public_games_and_the_callers_private_ones_most_recently_moved_first(players):
    ada, bob = players(2)
    made = [ada.create(game="cronberg", options={"players": 2, "visibility": "private" if n % 2 else "public"})
            for n in range(6)]
    newest_first = list(reversed(made))

    def page(who, **query):
        text = "&".join(f"{key}={value}" for key, value in {"game": "cronberg", "status": "lobby", **query}.items())
        return [g["id"] for g in who.get(f"/v1/games?{text}").json["games"] if g["id"] in made]

    assert page(ada, limit=200) == newest_first, "ada sees her private games among the public ones, in order"
    pages = [page(ada, limit=2, offset=offset) for offset in range(0, 200, 2)]
    assert [game for part in pages for game in part] == newest_first, "pages neither skip nor repeat a game"
    assert page(bob, limit=200) == [g for g in newest_first if made.index(g) % 2 == 0], "bob sees the public ones"
    assert page(bob, limit=200, player=ada.id) == [g for g in newest_first if made.index(g) % 2 == 0]
    assert page(ada, limit=200, player=ada.id) == newest_first


def test_a_game_whose_rules_are_no_longer_hosted_is_listed_as_stored_with_no_seat_to_offer(players, monkeypatch):
    import dataclasses

    from domain import games as registry

    (ada,) = players(1)
    retired = dataclasses.replace(registry.REGISTRY["cronberg"], name="retiredberg")
    monkeypatch.setitem(registry.REGISTRY, "retiredberg", retired)
    game_id = ada.create(game="retiredberg", options={"players": 3})
    monkeypatch.delitem(registry.REGISTRY, "retiredberg")
    listing = ada.get("/v1/games")
    assert listing.status_code == 200
    (listed,) = [game for game in listing.json["games"] if game["id"] == game_id]
    assert listed["game"] == "retiredberg" and listed["free_seats"] == []
    assert ada.get(f"/v1/games/{game_id}").json["free_seats"] == []
