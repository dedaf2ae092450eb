"""The games' data files, served under the catalogue by the sha256 a game's
GameCreated records, so a frontend draws exactly what the game was played with."""

from __future__ import annotations

import dataclasses
import hashlib
import json

import pytest

from domain import games
from domain.games import data_files

GAMES = sorted(games.REGISTRY)


def _created(client, game_id) -> dict:
    events = client.get(f"/v1/games/{game_id}/events").json["events"]
    assert events[0]["type"] == "GameCreated"
    return events[0]["data"]


@pytest.mark.parametrize("game", GAMES)
def test_every_data_file_a_new_game_records_is_served_and_hashes_to_its_name(players, client, game):
    (host,) = players(1)
    game_id = host.create(game, {})
    recorded = _created(client, game_id)["data_files"]
    assert recorded
    for name, digest in recorded.items():
        response = client.get(f"/v1/rules/{game}/data/{digest}")
        assert response.status_code == 200, (name, response.json)
        assert response.mimetype == "application/json"
        assert hashlib.sha256(response.data).hexdigest() == digest
        json.loads(response.data)
        assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert response.headers["ETag"] == f'"{digest}"'


@pytest.mark.parametrize("game", GAMES)
def test_the_listing_names_each_file_with_its_sha256_and_a_description(client, game):
    listing = client.get(f"/v1/rules/{game}/data").json
    assert listing["game"] == game
    by_name = {entry["name"]: entry for entry in listing["files"]}
    assert {name: entry["sha256"] for name, entry in by_name.items()} == games.get(game).data_digests()
    for entry in listing["files"]:
        assert entry["description"] and entry["description"] != data_files.UNDESCRIBED, entry["name"]
        assert entry["url"] == f"/v1/rules/{game}/data/{entry['sha256']}"
        assert games.get(game).version in entry["rules_versions"]
        assert entry["size"] == len(client.get(entry["url"]).data)


def _points(value, found: list) -> list:
    if isinstance(value, dict):
        if isinstance(value.get("x"), (int, float)) and isinstance(value.get("y"), (int, float)):
            found.append((value["x"], value["y"]))
        for inner in value.values():
            _points(inner, found)
    elif isinstance(value, list):
        for inner in value:
            _points(inner, found)
    return found


@pytest.mark.parametrize("game", GAMES)
def test_every_file_with_points_says_how_to_read_them_and_every_point_lies_in_its_extent(client, game):
    for entry in client.get(f"/v1/rules/{game}/data").json["files"]:
        points = _points(json.loads(client.get(entry["url"]).data), [])
        coordinates = entry["coordinates"]
        if not points:
            continue
        assert coordinates is not None, f"{entry['name']} has points but no coordinates"
        assert "down" in coordinates["y_axis"] and coordinates["units"] and coordinates["origin"]
        extent = coordinates["extent"]
        assert extent is not None and extent["x_max"] > extent["x_min"] and extent["y_max"] > extent["y_min"]
        outside = [(x, y) for x, y in points if not (extent["x_min"] <= x <= extent["x_max"]
                                                       and extent["y_min"] <= y <= extent["y_max"])]
        assert outside == [], f"{entry['name']} has points outside its extent"


def test_the_coils_table_layout_is_relative_to_the_northern_die(client):
    entry = next(f for f in client.get("/v1/rules/the-coil/data").json["files"] if f["name"] == "data.json")
    assert entry["coordinates"]["extent"] is None and "(0, 0)" in entry["coordinates"]["where"]


@pytest.mark.parametrize("if_none_match", ['"{}"', 'W/"{}"', '"other", "{}"', "*"])
def test_an_unchanged_file_answers_304_to_its_etag(client, if_none_match):
    digest = games.get("cronberg").data_digests()["board.json"]
    response = client.get(f"/v1/rules/cronberg/data/{digest}", headers={"If-None-Match": if_none_match.format(digest)})
    assert response.status_code == 304 and response.data == b""
    assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"


def test_another_etag_gets_the_file(client):
    digest = games.get("cronberg").data_digests()["board.json"]
    response = client.get(f"/v1/rules/cronberg/data/{digest}", headers={"If-None-Match": f'"{"0" * 64}"'})
    assert response.status_code == 200 and hashlib.sha256(response.data).hexdigest() == digest


def test_a_name_that_is_not_one_of_the_games_files_is_a_404_naming_the_files_there_are(client):
    other = games.get("coronation").data_digests()["board.json"]
    response = client.get(f"/v1/rules/cronberg/data/{other}")
    assert response.status_code == 404 and response.mimetype == "application/problem+json"
    assert response.json["type"].endswith("/data-file-not-found")
    digests = games.get("cronberg").data_digests()
    assert response.json["files"] == [{"name": name, "sha256": digests[name]} for name in ("board.json", "tiles.json")]
    assert all(name in response.json["detail"] and digest in response.json["detail"] for name, digest in digests.items())


def test_a_file_name_instead_of_its_sha256_is_a_404_too(client):
    response = client.get("/v1/rules/cronberg/data/board.json")
    assert response.status_code == 404 and response.json["type"].endswith("/data-file-not-found")


def test_the_data_of_an_unknown_game_is_a_404_unknown_game(client):
    assert client.get("/v1/rules/chess/data").json["type"].endswith("/unknown-game")
    assert client.get(f"/v1/rules/chess/data/{'0' * 64}").json["type"].endswith("/unknown-game")


def test_an_older_rules_versions_data_is_still_served(client, monkeypatch, tmp_path):
    """A board only an older installed version plays with (a newer one changed
    it, in a file of its own) is listed under that version and served by its sha256."""
    newest, older = games.get("court-of-miracles"), games.VERSIONS["court-of-miracles"][1]
    assert older is not newest
    for name, path in older.data_paths().items():  # the older version's data: its own board.json
        (tmp_path / name).write_bytes(path.read_bytes())
    old_board = tmp_path / "board.json"
    old_board.write_bytes(b'{"size": {"width": 900, "height": 700}}\n')
    monkeypatch.setitem(games.VERSIONS["court-of-miracles"], 1, dataclasses.replace(older, data=tmp_path))
    digest = hashlib.sha256(old_board.read_bytes()).hexdigest()
    boards = [e for e in client.get("/v1/rules/court-of-miracles/data").json["files"] if e["name"] == "board.json"]
    assert sorted((e["sha256"], e["rules_versions"][0]) for e in boards) == sorted(
        [(digest, 1), (newest.data_digests()["board.json"], newest.version)])
    served = client.get(f"/v1/rules/court-of-miracles/data/{digest}")
    assert served.status_code == 200 and served.data == old_board.read_bytes()


def test_the_court_of_miracles_cards_carry_their_texts(client):
    rules = games.get("court-of-miracles")
    texts = json.loads(client.get(f"/v1/rules/court-of-miracles/data/{rules.data_digests()['card_texts.json']}").data)
    from domain.games.court_of_miracles import data

    cards = data.CARDS_JSON
    assert sorted(r["kind"] for r in texts["rogues"]) == sorted(r["kind"] for r in cards["rogues"])
    assert sorted(p["card"] for p in texts["plots"]) == sorted(p["card"] for p in cards["plots"])
    assert sorted(n["id"] for n in texts["neighbourhoods"]) == sorted(n["id"] for n in data.BOARD_JSON["neighbourhoods"])
    assert [line["line"] for line in texts["renown_lines"]] == [1, 2, 3, 4, 5]
    assert all(entry["text"] for kind in ("rogues", "plots", "neighbourhoods", "renown_lines") for entry in texts[kind])
