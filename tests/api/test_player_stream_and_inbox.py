"""The player's stream (what concerns you across your games) and the inbox's
long-poll, through Flask's test client.

The player stream follows the global feed, which shows an event only once
every transaction that began before it has ended, on the whole (shared)
PostgreSQL server: so these tests read a stream until what they expect came,
never for a fixed time."""

from __future__ import annotations

import threading

import pytest

from api.http.app import create_app
from tests.support.sse import parse, read_until

from .conftest import Player, started_game


@pytest.fixture(scope="module")
def stream_client(service):
    app = create_app({"RATE_LIMIT_PER_MINUTE": 0, "STREAMS": {"lifetime": 60, "heartbeat": 0.2}}, service=service)
    return app.test_client()


def read_notices(response, count):
    """The first ``count`` notices of an open stream (heartbeats skipped)."""
    text, found = "", []
    for chunk in response.response:
        text += chunk.decode()
        found = [m for m in parse(text[: text.rfind("\n\n") + 2])[0]]
        if len(found) >= count:
            break
    response.close()
    return found


def notices(client, player, count, query="?after=0", headers=None):
    response = client.get(f"/v1/players/me/stream{query}", headers={**player.auth, **(headers or {})},
                          buffered=False)
    assert response.status_code == 200, response.get_data(as_text=True)
    return read_notices(response, count)


def test_the_player_stream_tells_of_joins_the_start_and_whose_turn_it_is(players, stream_client):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    first = ada.view(game_id).json
    ada_first = first["seat"] in first["to_act"]
    mine = notices(stream_client, ada, 3 if ada_first else 2)
    assert [m.event for m in mine] == ["joined", "started", "turn"][:len(mine)]
    assert all(m.json["game_id"] == game_id and ada.id in m.json["players"] for m in mine)
    if ada_first:
        assert mine[-1].json["seats"] == [first["seat"]]
    else:
        assert [m.event for m in notices(stream_client, bob, 2)] == ["started", "turn"]
    ids = [int(m.id) for m in mine]
    assert ids == sorted(ids)


def test_the_player_stream_resumes_after_the_last_id_it_sent(players, stream_client):
    ada, bob = players(2)
    started_game([ada, bob])
    everything = notices(stream_client, ada, 2)
    rest = notices(stream_client, ada, 1, "", {"Last-Event-ID": everything[0].id})
    assert rest[0].data == everything[1].data


def test_a_game_taken_up_while_the_stream_is_open_is_followed_too(players, stream_client):
    ada, bob, cy = players(3)
    response = stream_client.get("/v1/players/me/stream", headers=ada.auth, buffered=False)
    chunks = iter(response.response)
    next(chunks)  # the retry hint: the stream is open, from now on
    game_id = cy.create(options={"players": 3})
    assert ada.post(f"/v1/games/{game_id}/join", json={}).status_code == 200
    assert bob.post(f"/v1/games/{game_id}/join", json={}).status_code == 200
    [joined] = read_notices(response, 1)
    assert (joined.event, joined.json["game_id"], joined.json["data"]["player"]) == ("joined", game_id, bob.id)


def test_a_player_stream_cannot_resume_from_a_position_not_yet_written(players, client):
    ada = players(1)[0]
    response = client.get("/v1/players/me/stream", headers={**ada.auth, "Last-Event-ID": str(2**62)})
    assert response.status_code == 422
    assert client.get("/v1/players/me/stream", headers={**ada.auth, "Last-Event-ID": "x"}).status_code == 422


def test_the_inbox_answers_304_while_unchanged_and_its_wait_ends_when_a_game_moves(players, client):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    inbox = ada.get("/v1/players/me/inbox")
    etag = inbox.headers["ETag"]
    assert ada.get("/v1/players/me/inbox", headers={"If-None-Match": etag}).status_code == 304
    answers = []
    waiter = threading.Thread(target=lambda: answers.append(
        Player.get(ada, "/v1/players/me/inbox?wait=30", headers={"If-None-Match": etag})))
    waiter.start()
    by_seat = {p.view(game_id).json["seat"]: p for p in (ada, bob)}
    view = ada.view(game_id).json
    mover = by_seat[view["to_act"][0]]
    assert mover.act(game_id, mover.legal(game_id)[0]).status_code == 200
    waiter.join(30)
    [answer] = answers
    assert answer.status_code == 200 and answer.headers["ETag"] != etag
    assert answer.json["games"][0]["version"] == ada.view(game_id).json["version"]


def test_an_inbox_wait_without_a_change_answers_304_after_the_wait(players):
    ada = players(1)[0]
    ada.create()
    etag = ada.get("/v1/players/me/inbox").headers["ETag"]
    assert ada.get("/v1/players/me/inbox?wait=1", headers={"If-None-Match": etag}).status_code == 304


def test_a_resignation_reaches_the_other_players_stream_with_the_bot_that_plays_the_seat(players, stream_client):
    ada, bob, cy = players(3)
    game_id = started_game([ada, bob, cy], options={"players": 3})
    response = stream_client.get("/v1/players/me/stream", headers=ada.auth, buffered=False)
    chunks = iter(response.response)
    next(chunks)  # the retry hint: the stream is open, from now on
    resigned = bob.post(f"/v1/games/{game_id}/resign")
    assert resigned.status_code == 200, resigned.json
    text, found = "", []
    for chunk in chunks:  # until the resignation came (the stream ends after its lifetime)
        text += chunk.decode()
        found = [m for m in parse(text[: text.rfind("\n\n") + 2])[0] if m.event == "resigned"]
        if found:
            break
    response.close()
    [notice] = found
    seat = notice.json["data"]["seat"]
    assert (notice.json["game_id"], notice.json["seats"]) == (game_id, [seat])
    assert notice.json["data"] == {"seat": seat, "player": bob.id, "bot": resigned.json["bots"][seat]}
    assert ada.id in notice.json["players"] and bob.id not in notice.json["players"]


def test_a_message_reaches_the_other_players_stream_with_its_text_and_never_its_sender(players, service):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    sent = ada.post(f"/v1/games/{game_id}/channels/table/messages", json={"text": "your move"})
    assert sent.status_code == 201
    # Each whole stream from the start, read until it ends (how many notices each has depends on who was
    # drawn to act first), on streams that last 2 s.
    brief = create_app({"RATE_LIMIT_PER_MINUTE": 0, "STREAMS": {"lifetime": 2, "heartbeat": 0.2}},
                       service=service).test_client()
    told = [m for m in notices(brief, bob, 1000) if m.event == "message"]
    assert [(m.json["data"]["text"], m.json["data"]["player"], m.json["id"]) for m in told] == \
        [("your move", ada.id, f"{game_id}:table:1:message")]
    mine = notices(brief, ada, 1000)
    assert "started" in [m.event for m in mine] and "message" not in [m.event for m in mine]


def test_a_message_in_a_channel_first_used_while_the_player_stream_is_open_reaches_it(players, stream_client):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    response = stream_client.get("/v1/players/me/stream", headers=bob.auth, buffered=False)
    chunks = iter(response.response)
    text = next(chunks).decode()  # the stream is open: its cursor is now
    assert ada.post(f"/v1/games/{game_id}/channels/table/messages", json={"text": "live"}).status_code == 201
    text = read_until(chunks, "event: message", text)
    response.close()
    told = [m for m in parse(text)[0] if m.event == "message"]
    assert [m.json["data"]["text"] for m in told] == ["live"]


def test_a_proposal_to_end_reaches_the_other_players_stream_as_a_sentence_naming_its_proposer(players, service):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    proposed = ada.post(f"/v1/games/{game_id}/end-proposal", json={"ending": "cancelled"})
    assert proposed.status_code == 200, proposed.json
    brief = create_app({"RATE_LIMIT_PER_MINUTE": 0, "STREAMS": {"lifetime": 2, "heartbeat": 0.2}},
                       service=service).test_client()
    [told] = [m for m in notices(brief, bob, 1000) if m.event == "end-proposed"]
    assert told.json["data"] == {"seat": ada.view(game_id).json["seat"], "player": ada.id, "ending": "cancelled",
                                 "text": f"{ada.name} proposes to end your game of Cronberg cancelled, with no result:"
                                         f" accept or decline at http://127.0.0.1:8000/#/games/{game_id}"}
    assert "end-proposed" not in [m.event for m in notices(brief, ada, 1000)], "the proposer is not told"


def test_a_player_who_resigned_is_not_asked_to_accept_a_proposal_to_end(players, service):
    ada, bob, carl = players(3)
    game_id = started_game([ada, bob, carl])
    assert carl.post(f"/v1/games/{game_id}/resign").status_code == 200  # a bot plays his seat from now on
    proposed = ada.post(f"/v1/games/{game_id}/end-proposal", json={"ending": "cancelled"})
    assert proposed.status_code == 200, proposed.json
    brief = create_app({"RATE_LIMIT_PER_MINUTE": 0, "STREAMS": {"lifetime": 2, "heartbeat": 0.2}},
                       service=service).test_client()
    assert "end-proposed" in [m.event for m in notices(brief, bob, 1000)]
    assert "end-proposed" not in [m.event for m in notices(brief, carl, 1000)], \
        "his seat is a bot's now: the proposal is not his to accept"
