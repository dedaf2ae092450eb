from api.openapi_doc import DEFAULT, render


def test_the_committed_openapi_document_matches_the_code():
    assert DEFAULT.read_text() == render(), "openapi/openapi.yaml drifted: run `boardlog openapi` and commit it"


def test_the_openapi_document_is_served(client):
    spec = client.get("/v1/openapi.json").json
    assert spec["openapi"].startswith("3.")
    assert "/v1/games/{game_id}/commands" in spec["paths"]
    assert spec["components"]["securitySchemes"]["bearerAuth"]["scheme"] == "bearer"


def test_every_games_commands_are_a_union_on_type(client):
    schemas = client.get("/v1/openapi.json").json["components"]["schemas"]
    games = [ref["$ref"].rsplit("/", 1)[1] for ref in schemas["Command"]["anyOf"]]
    assert "CronbergCommand" in games
    cronberg = schemas["CronbergCommand"]
    assert cronberg["discriminator"]["propertyName"] == "type"
    assert cronberg["discriminator"]["mapping"]["PlaceMember"] == "#/components/schemas/CronbergPlaceMember"
    assert {"$ref": "#/components/schemas/CronbergPlaceMember"} in cronberg["oneOf"]
    assert schemas["CronbergPlaceMember"]["properties"]["type"]["enum"] == ["PlaceMember"]


def test_every_game_has_a_view_schema(client):
    from domain import games

    schemas = client.get("/v1/openapi.json").json["components"]["schemas"]
    for name in games.REGISTRY:
        assert "".join(p.capitalize() for p in name.split("-")) + "View" in schemas


def test_errors_are_documented_as_problem_documents(client):
    spec = client.get("/v1/openapi.json").json
    assert "application/problem+json" in spec["components"]["responses"]["DEFAULT_ERROR"]["content"]


def test_an_interactive_docs_page_is_served(client):
    response = client.get("/v1/docs")
    assert response.status_code == 200
    assert b"swagger" in response.data.lower()


def test_the_rules_catalogue_lists_seats_options_and_command_schemas(client):
    catalogue = client.get("/v1/rules").json["games"]
    assert "cronberg" in [g["name"] for g in catalogue]
    cronberg = client.get("/v1/rules/cronberg").json
    assert "turn_seconds" in [o["name"] for o in cronberg["options"]]
    assert cronberg["command_schemas"]["PlaceMember"]["properties"]["crossing"]["type"] == "string"
    assert client.get("/v1/rules/chess").status_code == 404
