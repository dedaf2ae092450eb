"""Declaring, listing and ending absences through the API; every refusal
is a 422 with a sentence, and stores nothing."""

from __future__ import annotations

import datetime as dt

import pytest

DAY = dt.timedelta(days=1)


def _at(moment: dt.datetime) -> str:
    return moment.isoformat()


def _declare(player, starts, ends):
    return player.post("/v1/players/me/absences", json={"from": _at(starts), "to": _at(ends)})


def _listed(player):
    response = player.get("/v1/players/me/absences")
    assert response.status_code == 200
    return response.json


@pytest.fixture
def soon():
    return dt.datetime.now(dt.timezone.utc) + dt.timedelta(hours=1)


def test_a_declared_absence_is_listed_and_ended_early(players, soon):
    (ada,) = players(1)
    declared = _declare(ada, soon, soon + 3 * DAY)
    assert declared.status_code == 201, declared.json
    listed = _listed(ada)
    assert [a["id"] for a in listed["absences"]] == [declared.json["id"]]
    assert listed["allowance_days"] == 30 and listed["used_this_year_days"] in (0, 3.0)
    ended = ada.client.delete(f"/v1/players/me/absences/{declared.json['id']}", headers=ada.auth)
    assert ended.status_code == 200
    assert _listed(ada)["absences"] == []
    again = ada.client.delete(f"/v1/players/me/absences/{declared.json['id']}", headers=ada.auth)
    assert again.status_code == 404 and again.json["type"].endswith("absence-not-found")


@pytest.mark.parametrize("case", ["overlaps", "past", "ends-before-start", "over-allowance", "years-ahead"])
def test_a_bad_absence_is_refused_with_a_sentence_and_nothing_is_stored(players, soon, case):
    (ada,) = players(1)
    assert _declare(ada, soon + 10 * DAY, soon + 12 * DAY).status_code == 201
    starts, ends = {
        "overlaps": (soon + 11 * DAY, soon + 13 * DAY),
        "past": (soon - 2 * DAY, soon + DAY),
        "ends-before-start": (soon + 3 * DAY, soon + 2 * DAY),
        "over-allowance": (soon + 20 * DAY, soon + 60 * DAY),
        "years-ahead": (dt.datetime(9999, 12, 1, tzinfo=dt.timezone.utc), dt.datetime(9999, 12, 2, tzinfo=dt.timezone.utc)),
    }[case]
    before = _listed(ada)
    response = _declare(ada, starts, ends)
    assert response.status_code == 422, response.json
    assert response.json["type"].endswith("absence-refused") and len(response.json["detail"]) > 20
    assert _listed(ada) == before


def test_a_game_s_view_shows_a_seat_away_until_its_date_and_the_option_is_recorded(players):
    ada, bob = players(2)
    game_id = ada.create("cronberg", {"players": 2})
    assert ada.get(f"/v1/games/{game_id}").json["options"]["absences"] == "allowed"
    assert bob.post(f"/v1/games/{game_id}/join", json={}).status_code == 200
    assert ada.post(f"/v1/games/{game_id}/start").status_code == 200
    assert ada.view(game_id).json["away"] == {}
    refused = ada.post("/v1/games", json={"game": "cronberg", "options": {"absences": "sometimes"}})
    assert refused.status_code == 422 and "absences" in refused.json["detail"]


def test_an_absence_ended_at_the_instant_it_begins_is_withdrawn(service, players, monkeypatch):
    (ada,) = players(1)
    soon = dt.datetime.now(dt.timezone.utc).replace(microsecond=0) + dt.timedelta(hours=1)
    declared = _declare(ada, soon, soon + DAY)
    assert declared.status_code == 201, declared.json
    monkeypatch.setattr(service.absences, "clock", lambda: soon)  # the very instant it begins
    ended = ada.client.delete(f"/v1/players/me/absences/{declared.json['id']}", headers=ada.auth)
    assert ended.status_code == 200, ended.json
    assert _listed(ada)["absences"] == [] and _listed(ada)["used_this_year_days"] == 0
