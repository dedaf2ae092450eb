"""Constraints the server enforces are stated in the document (issue 35's
schemathesis findings: a generated client, or a fuzzer sending only valid
requests, must not meet a refusal the schema did not announce); each is
checked both ways: the document states it, and the server refuses exactly
what breaks it."""

from __future__ import annotations

import re

from tests.api.conftest import Player, started_game


def test_a_receipt_to_check_has_its_form_stated_and_a_receipt_of_another_form_is_refused(app):
    document = app.test_client().get("/v1/openapi.json").json
    parameters = document["paths"]["/v1/games/{game_id}/audit"]["get"]["parameters"]
    receipt = next(p for p in parameters if p["name"] == "receipt")
    pattern = re.compile(receipt["schema"]["items"]["pattern"])
    client = app.test_client()
    ada, bob = Player(client, "ada"), Player(client, "bob")
    game_id = started_game([ada, bob])
    given = ada.get(f"/v1/games/{game_id}/view").json["receipt"]
    for kept in (f"{given['version']}:{given['hash']}",
                 f"{given['version']}:{given['hash']}:{given['key_id']}:{given['signature']}"):
        assert pattern.fullmatch(kept)
        assert ada.get(f"/v1/games/{game_id}/audit?receipt={kept}").status_code == 200
    for broken in ("1:ABC", "x:" + "0" * 64, "1:" + "0" * 64 + ":abc"):
        assert not pattern.fullmatch(broken)
        answer = ada.get(f"/v1/games/{game_id}/audit?receipt={broken}")
        assert answer.status_code == 422 and "is not <version>:<hash>" in answer.json["detail"]


def test_a_time_increment_or_cap_needs_a_bank_and_the_options_schema_says_so(app):
    document = app.test_client().get("/v1/openapi.json").json
    options = document["components"]["schemas"]["CronbergOptions"]
    assert options["dependentRequired"] == {"time_increment_seconds": ["time_bank_seconds"],
                                            "time_cap_seconds": ["time_bank_seconds"]}
    ada = Player(app.test_client(), "ada")
    refused = ada.post("/v1/games", json={"game": "cronberg", "options": {"players": 2, "time_cap_seconds": 7200}})
    assert refused.status_code == 422 and "need time_bank_seconds" in refused.json["detail"]
    assert ada.create("cronberg", {"players": 2, "time_bank_seconds": 3600, "time_cap_seconds": 7200})
