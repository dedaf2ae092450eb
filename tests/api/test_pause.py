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


def test_a_turn_deadline_keeps_what_was_left_of_it_across_a_pause(players):
    """Given a seat that used part of its turn, when the game pauses and
    resumes, then its turn deadline has what was left, not a whole turn."""
    import datetime as dt
    import time

    turn = 3600
    ada, bob = players(2)
    game_id = started_game([ada, bob], "cronberg", {"players": 2, "turn_seconds": turn})
    seat = ada.view(game_id).json["to_act"][0]

    def clock():
        clocks = ada.view(game_id).json["clocks"]
        return dt.datetime.fromisoformat(clocks["computed_at"]), clocks["seats"].get(seat)

    started, _ = clock()
    time.sleep(1.5)  # the seat thinks
    assert ada.post(f"/v1/games/{game_id}/pause").status_code == 200
    assert bob.post(f"/v1/games/{game_id}/pause").json["paused"] is True
    paused_at, paused = clock()
    assert paused is None or not paused["running"], "nothing runs while paused"
    time.sleep(1)
    assert bob.post(f"/v1/games/{game_id}/resume").json["paused"] is False
    resumed_at, resumed = clock()
    left = (dt.datetime.fromisoformat(resumed["turn_deadline"]) - resumed_at).total_seconds()
    used = (paused_at - started).total_seconds()
    assert used >= 1.5
    assert abs(left - (turn - used)) < 0.01, (left, used)
