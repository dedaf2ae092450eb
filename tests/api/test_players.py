from tests.api.conftest import Player, started_game


def test_registering_returns_an_id_and_a_token_shown_once(client):
    response = client.post("/v1/players", json={"name": "Ada"})
    assert response.status_code == 201
    assert response.json["name"] == "Ada"
    assert response.json["token"].startswith("bl_") and len(response.json["token"]) > 40


def test_tokens_are_stored_hashed(client, service):
    player = Player(client, "Hashed")
    with service.pool.connection() as conn:
        stored = conn.execute("select token_sha256 from player_tokens where player_id = %s", (player.id,)).fetchone()[0]
    assert player.token.encode() not in bytes(stored)
    assert len(bytes(stored)) == 32


def test_registration_without_a_name_is_refused_field_by_field(client):
    response = client.post("/v1/players", json={"name": ""})
    assert response.status_code == 422
    assert response.mimetype == "application/problem+json"
    assert "name" in response.json["errors"]


def test_the_inbox_needs_a_token(client):
    response = client.get("/v1/players/me/inbox")
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert "POST /v1/players" in response.json["detail"]


def test_an_unknown_token_is_refused(client):
    response = client.get("/v1/players/me/inbox", headers={"Authorization": "Bearer bl_not-a-token"})
    assert response.status_code == 401
    assert response.json["detail"] == "unknown or revoked token"


def test_a_malformed_authorization_header_is_refused(client):
    response = client.get("/v1/players/me/inbox", headers={"Authorization": "Basic abc"})
    assert response.status_code == 401


def test_the_inbox_lists_games_waiting_on_the_player_first(players):
    ada, bob = players(2)
    waiting_on_bob = started_game([ada, bob])
    first = ada.view(waiting_on_bob).json["to_act"][0]
    lobby = bob.create()
    inbox = bob.get("/v1/players/me/inbox").json
    ids = [game["id"] for game in inbox["games"]]
    assert set(ids) == {waiting_on_bob, lobby}
    bob_seat = next(g["seat"] for g in inbox["games"] if g["id"] == waiting_on_bob)
    if first == bob_seat:
        assert ids[0] == waiting_on_bob and inbox["games"][0]["your_turn"] is True
        assert inbox["waiting"] == 1
    else:
        assert inbox["waiting"] == 0


def _waiting_on(player, others, game_id):
    """Play legal commands for the others until the game waits on ``player``."""
    for _ in range(20):
        view = player.view(game_id).json
        if view["seat"] in view["to_act"]:
            return
        acting = next(p for p in others if p.view(game_id).json["seat"] in view["to_act"])
        assert acting.act(game_id, acting.legal(game_id)[0]).status_code == 200
    raise AssertionError("the game never came to wait on the player")


def test_the_inbox_gives_each_game_waiting_on_the_player_its_deadline_soonest_first(players):
    ada, bob = players(2)
    games = {}
    for turn_seconds in (3600, None, 60):
        game_id = ada.create(options={"players": 2, **({"turn_seconds": turn_seconds} if turn_seconds else {})})
        assert bob.post(f"/v1/games/{game_id}/join", json={}).status_code == 200
        assert ada.post(f"/v1/games/{game_id}/start").status_code == 200
        _waiting_on(bob, [ada], game_id)
        games[turn_seconds] = game_id
    inbox = bob.get("/v1/players/me/inbox").json
    assert inbox["waiting"] == 3
    assert [game["id"] for game in inbox["games"]] == [games[60], games[3600], games[None]]
    assert all(game["your_turn"] for game in inbox["games"])
    soon, later, never = (game["deadline"] for game in inbox["games"])
    assert soon < later and never is None


def test_a_player_asks_who_their_token_belongs_to(client):
    registered = client.post("/v1/players", json={"name": "Grace"}).json
    me = client.get("/v1/players/me", headers={"Authorization": f"Bearer {registered['token']}"})
    assert me.status_code == 200
    assert me.json["id"] == registered["id"] and me.json["name"] == "Grace" and "token" not in me.json
    anonymous = client.get("/v1/players/me")
    assert anonymous.status_code == 401 and anonymous.json["type"].endswith("/token-missing")


def test_the_inbox_and_the_game_s_summary_say_the_outcome_with_the_players_names_as_the_view_does(players):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    assert ada.post(f"/v1/games/{game_id}/resign").status_code == 200
    named = ada.view(game_id).json["outcome"]
    assert ada.name in named and bob.name in named and "p1" not in named and "p2" not in named
    listed = next(g for g in bob.get("/v1/players/me/inbox").json["games"] if g["id"] == game_id)
    assert listed["outcome"] == named
    assert bob.get(f"/v1/games/{game_id}").json["outcome"] == named
