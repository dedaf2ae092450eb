"""The command path records what notices need, so that the stored log alone
tells who must hear of what (domain/notices.py reads it without a replay)."""

from __future__ import annotations

from domain.notices import notices_of

from .conftest import started_game


def _notices(service, game_id):
    return [notice for record in service.store.read_stream(f"game-{game_id}") for notice in notices_of(record)]


def test_a_lobby_and_a_start_tell_the_players_of_joins_the_start_and_the_first_turn(players, service):
    ada, bob, cy = players(3)
    game_id = started_game([ada, bob, cy])
    found = _notices(service, game_id)
    joins = [x for x in found if x.kind == "joined"]
    assert [(x.data["player"], x.players) for x in joins] == [
        (bob.id, (ada.id,)), (cy.id, tuple(sorted([ada.id, bob.id])))]
    [started] = [x for x in found if x.kind == "started"]
    assert set(started.players) == {ada.id, bob.id, cy.id}
    [turn] = [x for x in found if x.kind == "turn"]
    to_act = ada.view(game_id).json["to_act"]
    assert list(turn.seats) == to_act and turn.version == ada.view(game_id).json["version"]
    assert all(x.position is not None for x in found)


def test_each_move_tells_the_seats_whose_turn_came_at_the_version_the_move_rests_at(players, service):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    seated = {p.view(game_id).json["seat"]: p for p in (ada, bob)}
    for _ in range(4):
        view = ada.view(game_id).json
        mover = seated[view["to_act"][0]]
        assert mover.act(game_id, mover.legal(game_id)[0]).status_code == 200
        after = ada.view(game_id).json
        turns = [x for x in _notices(service, game_id) if x.kind == "turn" and x.version == after["version"]]
        came = sorted(set(after["to_act"]) - set(view["to_act"]))
        assert [list(x.seats) for x in turns] == ([came] if came else [])
        assert all(x.players == tuple(sorted(seated[s].id for s in came)) for x in turns)
