"""Every line of an export is an ExportLine of the served document, so a
referee's tool can read exports from the OpenAPI document alone."""

import json
import uuid

import jsonschema

from tests.api.conftest import started_game


def test_every_line_of_an_export_is_an_export_line_of_the_document(players, client, service):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    assert bob.post(f"/v1/games/{game_id}/resign").status_code == 200
    assert service.score(uuid.UUID(game_id))
    document = client.get("/v1/openapi.json").json
    operation = document["paths"]["/v1/games/{game_id}/export"]["get"]
    line_schema = operation["responses"]["200"]["content"]["application/x-ndjson"]["schema"]
    validator = jsonschema.Draft202012Validator({**line_schema, "components": document["components"]})
    lines = [json.loads(line) for line in client.get(f"/v1/games/{game_id}/export").get_data(as_text=True).splitlines()]
    for line in lines:
        validator.validate(line)
    assert "head" in lines[-1] and all("version" in line for line in lines[:-1])
    broken = dict(lines[0], hash="not a hash")
    assert not validator.is_valid(broken), "the schema says what a line must hold"
