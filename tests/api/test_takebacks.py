"""Takebacks through the API: nothing to take back is a 409 that says why;
an accepted one answers the version the game returned to."""

from __future__ import annotations

from tests.api.conftest import started_game


def test_a_takeback_with_nothing_to_take_back_is_a_409_with_the_reason(players):
    ada, bob = players(2)
    game_id = started_game([ada, bob], "cronberg", {"players": 2})
    refused = ada.post(f"/v1/games/{game_id}/takeback")
    assert refused.status_code == 409 and refused.json["type"].endswith("nothing-to-take-back")
    assert "taken back" in refused.json["detail"] or "acted since" in refused.json["detail"] \
        or "not a move of yours" in refused.json["detail"]
    unasked = bob.post(f"/v1/games/{game_id}/takeback/accept")
    assert unasked.status_code == 409 and "no takeback is asked" in unasked.json["detail"]


def test_an_accepted_takeback_returns_the_game_to_the_version_before_the_move(players):
    ada, bob = players(2)
    game_id = started_game([ada, bob], "coronation", {"detective_seats": 1})
    by_seat = {ada.view(game_id).json["seat"]: ada, bob.view(game_id).json["seat"]: bob}
    for _ in range(40):
        view = ada.view(game_id).json
        seat = view["to_act"][0]
        mover = by_seat[seat]
        command = mover.legal(game_id)[0]
        before = view["version"]
        assert mover.act(game_id, command).status_code == 200
        if command["type"] in ("PlaceDetective", "MoveDetective"):
            asked = mover.post(f"/v1/games/{game_id}/takeback")
            if asked.status_code == 409:
                continue  # this move revealed Lind
            assert asked.status_code == 200 and asked.json["takeback"]["version"] == before
            other = next(p for s, p in by_seat.items() if s != seat)
            accepted = other.post(f"/v1/games/{game_id}/takeback/accept")
            assert accepted.status_code == 200 and accepted.json["returned_to"] == before
            assert accepted.json["takeback"] is None
            then = mover.get(f"/v1/games/{game_id}/view", query_string={"at": before}).json
            assert mover.view(game_id).json["view"] == then["view"]
            return
    raise AssertionError("no detective move came to be taken back")


def test_a_move_taken_back_leaves_no_increment_in_its_mover_s_bank_however_often_it_is_replayed(players):
    """Cronberg: a turn is a draw (randomness, never taken back) and a lay,
    which ends the turn and earns the increment. Taking the lay back and
    laying again, three times, must not earn three more increments."""
    ada, bob = players(2)
    day = 86400
    game_id = started_game([ada, bob], "cronberg",
                           {"players": 2, "takebacks": "with-consent", "time_bank_seconds": day,
                            "time_increment_seconds": day, "time_cap_seconds": 10 * day})
    by_seat = {ada.view(game_id).json["seat"]: ada, bob.view(game_id).json["seat"]: bob}
    seat = ada.view(game_id).json["to_act"][0]
    mover, other = by_seat[seat], next(p for s, p in by_seat.items() if s != seat)

    def bank():
        return ada.view(game_id).json["clocks"]["seats"][seat]["bank_seconds"]

    assert mover.act(game_id, mover.legal(game_id)[0]).status_code == 200  # the draw
    before_lay = bank()
    for _ in range(3):
        assert mover.act(game_id, mover.legal(game_id)[0]).status_code == 200  # the lay ends the turn
        assert bank() > before_lay, "the lay earned the increment"
        asked = mover.post(f"/v1/games/{game_id}/takeback")
        assert asked.status_code == 200, asked.json
        assert other.post(f"/v1/games/{game_id}/takeback/accept").status_code == 200
        assert ada.view(game_id).json["to_act"] == [seat]
        assert bank() <= before_lay, "the increment of the move taken back is not kept"
    assert bank() > before_lay - 60, "the time the mover spent stays spent, and no more"
