"""An integer option sent as a float with no fraction (``8220293.0``, an
integer in JSON Schema's sense, which the document's `integer` promises to
take) is taken as that integer, in every game and for every integer option;
a float with a fraction is still an invalid-option (issue 35 item 13)."""

from __future__ import annotations

import pytest

from api.http import option_names
from domain import games as registry


# The clock's options go together: a bank, and a cap above it.
CLOCK = {"time_bank_seconds": 3600, "time_cap_seconds": 7200}


def _whole(entry: dict) -> int:
    if entry["name"] in CLOCK:
        return CLOCK[entry["name"]]
    return entry["default"] if isinstance(entry["default"], int) else entry["minimum"]


@pytest.mark.parametrize("game", sorted(registry.REGISTRY))
def test_every_integer_option_sent_as_a_whole_float_is_taken_as_its_integer(players, game):
    (ada,) = players(1)
    integers = [entry for entry in option_names.every_option(game)
                if entry["kind"] == "int" and not entry.get("deprecated")]
    assert integers
    for entry in integers:
        value = _whole(entry)
        given = {**(CLOCK if entry["name"].startswith("time_") else {}), entry["name"]: float(value)}
        created = ada.post("/v1/games", json={"game": game, "options": given})
        assert created.status_code == 201, (entry["name"], created.json)
        summary = ada.get(f"/v1/games/{created.json['id']}").json
        shown = summary["options"][entry["name"]]
        assert shown == value and isinstance(shown, int), entry["name"]


def test_turn_seconds_as_a_whole_float_is_taken_and_a_fraction_is_refused(players):
    (ada,) = players(1)
    taken = ada.post("/v1/games", json={"game": "cronberg", "options": {"turn_seconds": 86400.0}})
    assert taken.status_code == 201, taken.json
    refused = ada.post("/v1/games", json={"game": "cronberg", "options": {"turn_seconds": 86400.5}})
    assert refused.status_code == 422 and refused.json["type"].endswith("/invalid-option")
    assert refused.json["option"] == "turn_seconds" and "whole number" in refused.json["detail"]
