"""One name for one idea: Coronation's seat count is `players`, as in the
other games; its old name `detective_seats` still works, marked deprecated."""

from __future__ import annotations

from api.processes.openapi_doc import document


def test_coronation_takes_players_like_every_other_game(players):
    (ada,) = players(1)
    game_id = ada.create("coronation", {"players": 3})
    summary = ada.get(f"/v1/games/{game_id}").json
    assert len(summary["seats"]) == 1 and summary["options"]["players"] == 3
    assert summary["options"]["detective_seats"] == 2  # the rules' own name, shown beside it


def test_the_old_name_still_works_and_gives_the_same_seats(players, client):
    (ada,) = players(1)
    old = ada.get(f"/v1/games/{ada.create('coronation', {'detective_seats': 2})}").json
    new = ada.get(f"/v1/games/{ada.create('coronation', {'players': 3})}").json
    assert old["options"] == new["options"]


def test_both_names_at_once_or_a_players_count_out_of_bounds_is_refused(players):
    (ada,) = players(1)
    both = ada.post("/v1/games", json={"game": "coronation", "options": {"players": 3, "detective_seats": 2}})
    assert both.status_code == 422 and "not both" in both.json["detail"]
    assert ada.post("/v1/games", json={"game": "coronation", "options": {"players": "3"}}).status_code == 422
    too_many = ada.post("/v1/games", json={"game": "coronation", "options": {"players": 7}})
    assert too_many.status_code == 422 and too_many.json["detail"].startswith("option players must be from 2 to 6, not 7; ")


def test_the_catalogue_and_the_document_mark_the_old_name_deprecated(client):
    options = {o["name"]: o for o in client.get("/v1/rules/coronation").json["options"]}
    assert options["players"]["minimum"] == 2 and options["players"]["maximum"] == 6
    assert options["detective_seats"]["deprecated"] is True and "players" in options["detective_seats"]["description"]
    schema = document()["components"]["schemas"]["CoronationOptions"]["properties"]
    assert schema["detective_seats"]["deprecated"] is True and "deprecated" not in schema["players"]
    for game in ("Cronberg", "CourtOfMiracles", "TheCoil", "Runebound", "Coronation"):
        assert "players" in document()["components"]["schemas"][f"{game}Options"]["properties"]
