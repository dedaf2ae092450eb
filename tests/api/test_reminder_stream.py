"""A reminder reaches its player's stream, only if he chose the stream for
it, and no other player's (tests/api/test_player_stream_and_inbox.py reads
streams the same way)."""

from __future__ import annotations

import datetime as dt

from api.http.app import create_app

from .conftest import started_game
from .test_player_stream_and_inbox import notices

DAY = 86400


def _first_seat(service, game_id) -> tuple[str, str, dt.datetime]:
    rules, session = service.load(game_id)
    seat = sorted(rules.to_act(session.state))[0]
    with service.pool.connection() as conn:
        deadline = conn.execute("select deadline from seat_deadlines where game_id = %s and seat = %s",
                                (game_id, seat)).fetchone()[0]
    return seat, session.players[seat], deadline


def test_a_reminder_reaches_its_player_s_stream_where_he_chose_it_and_nobody_else_s(players, service):
    ada, bob = players(2)
    assert bob.client.patch("/v1/players/me/reminders", json={"stream": []}, headers=bob.auth).status_code == 200
    first: dict[str, tuple] = {}  # who acts first -> (game, seat, deadline): a game of each
    for _ in range(40):
        game_id = started_game([ada, bob], options={"players": 2, "turn_seconds": 2 * DAY, "deadline_per_seat": True})
        seat, holder, deadline = _first_seat(service, game_id)
        first.setdefault(holder, (game_id, seat, deadline))
        if len(first) == 2:
            break
    for game_id, _, deadline in first.values():
        assert service.reminders.fire(game_id, now=deadline - dt.timedelta(minutes=59)) == 1

    brief = create_app({"RATE_LIMIT_PER_MINUTE": 0, "STREAMS": {"lifetime": 2, "heartbeat": 0.2}},
                       service=service).test_client()
    told = {who.id: [m for m in notices(brief, who, 1000) if m.event == "reminder"] for who in (ada, bob)}
    game_id, seat, _ = first[ada.id]
    (reminder,) = told[ada.id]
    assert reminder.json["id"] == f"{game_id}:reminders:1:reminder" and reminder.json["players"] == [ada.id]
    assert reminder.json["data"]["seat"] == seat and reminder.json["data"]["left_seconds"] == 59 * 60
    assert reminder.json["data"]["text"].startswith("59 min left in Cronberg: your turn")
    assert told[bob.id] == [], "Bob chose no reminder on his stream (his went by mail and webhook only)"
