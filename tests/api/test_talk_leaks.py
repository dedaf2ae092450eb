"""Table talk's hidden side, door by door: who may read a message is decided
per message (a stream opened before a player left his seat carries nothing
said in its channels after), and who muted whom is nobody's business but
the muter's."""

from __future__ import annotations

from tests.api.conftest import started_game
from tests.support.sse import parse, read_until


def send(player, game_id, channel, text):
    response = player.post(f"/v1/games/{game_id}/channels/{channel}/messages", json={"text": text})
    assert response.status_code == 201, response.json
    return response.json


def coronation(players, detectives=2):
    """A started Coronation game and its players by seat."""
    people = players(detectives + 1)
    game_id = started_game(people, "coronation", {"detective_seats": detectives})
    return game_id, {p.view(game_id).json["seat"]: p for p in people}


def test_a_detective_who_resigned_hears_no_more_team_talk_on_a_stream_he_opened_before(players, client):
    # Given a detective holding the game's stream open
    game_id, seats = coronation(players)
    leaver, stayer = seats["detective-1"], seats["detective-2"]
    response = client.get(f"/v1/games/{game_id}/stream", headers=leaver.auth, buffered=False)
    chunks = iter(response.response)
    try:
        text = read_until(chunks, "event: view")
        send(stayer, game_id, "team:detectives", "before: meet at the docks")
        text = read_until(chunks, "before: meet at the docks", text)
        # When he resigns, and the team talks on
        assert leaver.post(f"/v1/games/{game_id}/resign").status_code == 200
        send(stayer, game_id, "team:detectives", "after: he is at the bridge")
        send(stayer, game_id, "table", "marker at the table")
        text = read_until(chunks, "marker at the table", text)
    finally:
        response.close()
    # Then his stream carried what was said while he played, and nothing after
    talk = [m.json["text"] for m in parse(text)[0] if m.event == "talk"]
    assert talk == ["before: meet at the docks", "marker at the table"]
