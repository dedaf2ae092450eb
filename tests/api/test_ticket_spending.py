"""A stream ticket is spent only by a stream that starts: every refusal
before that (an unknown game, a resume point beyond the game or the feed,
the player's stream cap) leaves it good for the next try."""

from __future__ import annotations

import uuid

from tests.support.open_stream import HeldStream

from .conftest import started_game


def _ticket(player) -> str:
    answer = player.post("/v1/stream-tickets")
    assert answer.status_code == 201
    return answer.json["ticket"]


def _opens_after_refusal(client, refused_path: str, good_path: str, ticket: str, status: int, kind: str) -> None:
    refused = client.get(f"{refused_path}{'&' if '?' in refused_path else '?'}ticket={ticket}")
    assert refused.status_code == status and refused.json["type"].endswith(f"/{kind}"), refused.json
    opened = client.get(f"{good_path}?ticket={ticket}")  # the same ticket: not spent by the refusal
    assert opened.status_code == 200, opened.get_data(as_text=True)
    assert opened.mimetype == "text/event-stream"
    again = client.get(f"{good_path}?ticket={ticket}")  # now it is
    assert again.status_code == 401 and "already used" in again.json["detail"]


def test_a_ticket_refused_for_an_unknown_game_still_opens_a_stream(players, client):
    ada = players(1)[0]
    game_id = ada.create()
    _opens_after_refusal(client, f"/v1/games/{uuid.uuid4()}/stream", f"/v1/games/{game_id}/stream",
                         _ticket(ada), 404, "game-not-found")


def test_a_ticket_refused_for_a_resume_point_beyond_the_game_still_opens_a_stream(players, client):
    ada = players(1)[0]
    game_id = ada.create()
    _opens_after_refusal(client, f"/v1/games/{game_id}/stream?after=999", f"/v1/games/{game_id}/stream",
                         _ticket(ada), 422, "resume-point-invalid")


def test_a_ticket_refused_for_a_position_beyond_the_feed_still_opens_a_player_stream(players, client):
    ada = players(1)[0]
    _opens_after_refusal(client, f"/v1/players/me/stream?after={2**62}", "/v1/players/me/stream",
                         _ticket(ada), 422, "resume-point-invalid")


def test_a_ticket_refused_over_the_stream_cap_still_opens_a_stream_once_one_closed(players, client, app):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    limit = app.extensions["boardlog"].streams.per_player
    held = [client.get(f"/v1/games/{game_id}/stream", headers=ada.auth, buffered=False) for _ in range(limit)]
    ticket = _ticket(ada)
    try:
        assert all(r.status_code == 200 for r in held)
        refused = client.get(f"/v1/games/{game_id}/stream?ticket={ticket}")
        assert refused.status_code == 429 and refused.json["type"].endswith("/too-many-streams")
    finally:
        for response in held:
            response.close()
    opened = HeldStream(client, f"/v1/games/{game_id}/stream?ticket={ticket}")
    assert opened.status == 200
    opened.close()
    assert client.get(f"/v1/games/{game_id}/stream?ticket={ticket}").status_code == 401


def test_a_finished_game_seen_to_its_end_answers_204_without_spending_the_ticket(players, client):
    ada = players(1)[0]
    game_id = ada.create()
    assert ada.post(f"/v1/games/{game_id}/leave").status_code == 200  # cancelled
    version = client.get(f"/v1/games/{game_id}").json["version"]
    ticket = _ticket(ada)
    assert client.get(f"/v1/games/{game_id}/stream?after={version}&ticket={ticket}").status_code == 204
    assert client.get(f"/v1/games/{game_id}/stream?after=0&ticket={ticket}").status_code == 200
