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
    content = operation["responses"]["200"]["content"]["application/x-ndjson"]
    assert content["schema"] == {**content["schema"], "type": "string", "format": "binary"}, "the body is bytes"
    line_schema = content["x-item-schema"]
    validator = jsonschema.Draft202012Validator({**line_schema, "components": document["components"]})
    lines = [json.loads(line) for line in client.get(f"/v1/games/{game_id}/export").get_data(as_text=True).splitlines()]
    for line in lines:
        validator.validate(line)
    assert "head" in lines[-1] and all("version" in line for line in lines[:-1])
    broken = dict(lines[0], hash="not a hash")
    assert not validator.is_valid(broken), "the schema says what a line must hold"


def test_every_exported_event_s_data_is_what_the_document_says_an_event_of_its_type_holds(players, client, service):
    """A referee validates each line's `data` against the schema of the
    line's `type` ({Game}{Type}, or the engine's {Type}): the export carries
    no `type` inside `data`, so the schema must not require one."""
    import random

    from tests.api.conftest import play_until_over

    ada, bob = players(2)
    game_id = started_game([ada, bob], "cronberg", {"players": 2, "rounds": 1})
    play_until_over([ada, bob], game_id, random.Random(5))
    assert service.score(uuid.UUID(game_id))
    document = client.get("/v1/openapi.json").json
    schemas = document["components"]["schemas"]
    lines = [json.loads(line) for line in client.get(f"/v1/games/{game_id}/export").get_data(as_text=True).splitlines()]
    checked = set()
    for line in lines[:-1]:
        name = next(n for n in (f"Cronberg{line['type']}", line["type"]) if n in schemas)
        validator = jsonschema.Draft202012Validator({"$ref": f"#/components/schemas/{name}",
                                                      "components": document["components"]})
        errors = [error.message for error in validator.iter_errors(line["data"])]
        assert not errors, (line["version"], line["type"], errors)
        checked.add(line["type"])
    assert {"GameCreated", "BuildingPlaced", "GameScored"} <= checked
    feed_event = {"$ref": "#/components/schemas/CronbergEvent", "components": document["components"]}
    assert not jsonschema.Draft202012Validator(feed_event).is_valid(lines[1]["data"]), \
        "where an event is shown as you may see it (feed, answers), it names its type"
