"""Bad input of any kind gets a problem document with the right status."""


def _is_problem(response, status):
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    assert response.json["status"] == status
    assert response.json["detail"]


def test_malformed_json_is_a_400(client):
    response = client.post("/v1/players", data="{not json", content_type="application/json")
    _is_problem(response, 400)


def test_a_body_that_is_not_json_is_a_415(client):
    response = client.post("/v1/players", data="name=ada", content_type="application/x-www-form-urlencoded")
    _is_problem(response, 415)


def test_a_huge_body_is_a_413(client):
    response = client.post("/v1/players", data='{"name": "' + "a" * 200_000 + '"}', content_type="application/json")
    _is_problem(response, 413)


def test_an_unknown_path_is_a_404(client):
    _is_problem(client.get("/v1/nothing-here"), 404)


def test_a_wrong_method_is_a_405_with_allow(client):
    response = client.delete("/v1/players")
    _is_problem(response, 405)
    assert "POST" in response.headers["Allow"]


def test_a_wrong_type_in_a_field_is_a_422_naming_the_field(client):
    response = client.post("/v1/players", json={"name": 12})
    _is_problem(response, 422)
    assert "name" in response.json["errors"]


def test_a_json_array_body_is_a_422(players):
    (ada,) = players(1)
    response = ada.post("/v1/games", json=[1, 2])
    _is_problem(response, 422)


def test_query_parameters_of_the_wrong_type_are_a_422(players):
    (ada,) = players(1)
    _is_problem(ada.get("/v1/games?limit=many"), 422)


def test_a_nul_character_in_a_body_or_query_is_a_422(client, players):
    response = client.post("/v1/players", json={"name": "a\x00b"})
    _is_problem(response, 422)
    assert "NUL" in response.json["detail"]
    (ada,) = players(1)
    _is_problem(ada.get("/v1/games", query_string={"game": "x\x00"}), 422)


def test_an_unpaired_surrogate_in_a_body_is_a_422(client):
    response = client.post("/v1/players", data='{"name": "a\\ud800b"}', content_type="application/json")
    _is_problem(response, 422)


def test_a_command_with_no_body_or_broken_json_is_a_400_that_says_what_to_send(players):
    from tests.api.conftest import started_game

    ada, bob = players(2)
    game_id = started_game([ada, bob])
    for data in ("", "{not json", '{"type": "DrawBuilding"'):
        response = ada.post(f"/v1/games/{game_id}/commands", data=data, content_type="application/json")
        _is_problem(response, 400)
        assert "JSON object" in response.json["detail"], response.json
    response = ada.post(f"/v1/games/{game_id}/commands")
    _is_problem(response, 400)
    assert "JSON object" in response.json["detail"]


def test_an_unreachable_or_exhausted_database_is_a_503_with_retry_after_not_a_500(players, service, monkeypatch):
    import psycopg
    import psycopg_pool

    from tests.api.conftest import started_game

    ada, bob = players(2)
    game_id = started_game([ada, bob])
    for error in (psycopg_pool.PoolTimeout("couldn't get a connection after 30.00 sec"),
                  psycopg.OperationalError("connection refused")):
        def down(*args, error=error, **kwargs):
            raise error

        monkeypatch.setattr(service, "load", down)
        monkeypatch.setattr(service, "load_for_reading", down)  # what legal commands ask first
        response = ada.get(f"/v1/games/{game_id}/legal-commands")
        _is_problem(response, 503)
        assert response.headers["Retry-After"] == "5"


def test_json_nested_too_deeply_is_a_400_not_a_500(client, players):
    (ada,) = players(1)
    game_id = ada.create()
    for depth in (40, 900, 30_000):
        nested = "[" * depth + "]" * depth
        for path, body in (("/v1/players", nested), (f"/v1/games/{game_id}/commands", '{"type": "DrawBuilding", "x": ' + nested + "}"),
                           ("/v1/games", '{"game": "cronberg", "options": {"players": ' + nested + "}}")):
            response = client.post(path, data=body, content_type="application/json", headers=ada.auth)
            _is_problem(response, 400)
            assert "nests too deeply" in response.json["detail"], (path, depth)
