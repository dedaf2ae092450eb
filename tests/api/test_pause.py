"""Pause and resume through the API: every player asks, any player resumes."""

from __future__ import annotations

from tests.api.conftest import started_game


def test_a_game_is_paused_when_both_players_asked_and_resumed_when_one_asks(players):
    ada, bob = players(2)
    game_id = started_game([ada, bob], "cronberg", {"players": 2})
    first = ada.post(f"/v1/games/{game_id}/pause")
    assert first.status_code == 200 and first.json["paused"] is False and len(first.json["pause_asked"]) == 1
    again = ada.post(f"/v1/games/{game_id}/pause")
    assert again.status_code == 409 and "asked to pause already" in again.json["detail"]
    assert ada.post(f"/v1/games/{game_id}/resume").status_code == 409, "a game not paused cannot be resumed"
    assert bob.post(f"/v1/games/{game_id}/pause").json["paused"] is True
    view = bob.view(game_id).json
    assert view["paused"] is True
    mover = {view["to_act"][0]: None}
    seat = view["to_act"][0]
    player = ada if ada.view(game_id).json["seat"] == seat else bob
    refused = player.act(game_id, player.legal(game_id)[0])
    assert refused.status_code == 409 and "paused" in refused.json["detail"]
    assert bob.post(f"/v1/games/{game_id}/resume").json["paused"] is False
    assert player.act(game_id, player.legal(game_id)[0]).status_code == 200
    assert mover


def test_a_spectator_cannot_ask_to_pause(players):
    ada, bob, cy = players(3)
    game_id = started_game([ada, bob], "cronberg", {"players": 2})
    refused = cy.post(f"/v1/games/{game_id}/pause")
    assert refused.status_code == 403 and refused.json["detail"]
