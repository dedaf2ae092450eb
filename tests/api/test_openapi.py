from api.processes.openapi_doc import DEFAULT, render


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


def test_an_interactive_docs_page_is_served_with_its_scripts_from_the_server_itself(client):
    import re

    response = client.get("/v1/docs")
    assert response.status_code == 200
    assert b"swagger" in response.data.lower()
    page = response.data.decode()
    assets = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert any(a.endswith("swagger-ui-bundle.js") for a in assets) and any(a.endswith(".css") for a in assets)
    for asset in assets:
        assert asset.startswith("/v1/docs/swagger-ui-5."), f"{asset} is not served by boardlog (offline it would fail)"
        loaded = client.get(asset)
        assert loaded.status_code == 200 and len(loaded.data) > 1000, asset
        assert "immutable" in loaded.headers["Cache-Control"]
    bundle = client.get(next(a for a in assets if a.endswith("swagger-ui-bundle.js")))
    assert b"SwaggerUIBundle" in bundle.data and bundle.mimetype in ("text/javascript", "application/javascript")
    assert client.get(assets[0].rsplit("/", 1)[0] + "/../../../etc/passwd").status_code == 404
    assert client.get(assets[0].rsplit("/", 1)[0] + "/index.j2").status_code == 404


def test_the_rules_catalogue_lists_seats_options_and_command_schemas(client):
    catalogue = client.get("/v1/rules").json["games"]
    assert "cronberg" in [g["name"] for g in catalogue]
    cronberg = client.get("/v1/rules/cronberg").json
    assert "turn_seconds" in [o["name"] for o in cronberg["options"]]
    assert cronberg["command_schemas"]["PlaceMember"]["properties"]["crossing"]["type"] == "string"
    assert client.get("/v1/rules/chess").status_code == 404


def test_a_field_a_request_may_leave_out_is_optional_for_generators_and_its_default_is_said_in_words(client):
    schemas = client.get("/v1/openapi.json").json["components"]["schemas"]
    last_turn = schemas["CoronationOptions"]["properties"]["last_turn"]
    trap = schemas["CoronationMoveLind"]["properties"]["trap"]
    assert "default" not in last_turn and last_turn["description"].endswith("Default: `21`.")
    assert "default" not in trap and "trap" not in schemas["CoronationMoveLind"]["required"]
    assert "default" not in schemas["CronbergCreateGame"]["properties"]["seat"]
    assert "seat" not in schemas["CronbergCreateGame"]["required"]
