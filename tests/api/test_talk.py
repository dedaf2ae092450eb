"""Table talk through the API: channels, limits, read marks, mutes, and the
doors a team's messages never pass."""

from __future__ import annotations

import json
import uuid

from domain.lifecycle import talk as talk_rules
from tests.api.conftest import started_game


def send(player, game_id, channel, text):
    return player.post(f"/v1/games/{game_id}/channels/{channel}/messages", json={"text": text})


def read(player, game_id, channel, **query):
    return player.get(f"/v1/games/{game_id}/channels/{channel}/messages", query_string=query)


def seat_of(player, game_id):
    return player.view(game_id).json["seat"]


def test_every_player_at_the_table_reads_what_one_said_there_and_a_spectator_does_not(players):
    ada, bob, cy = players(3)
    game_id = started_game([ada, bob], "cronberg", {"players": 2})
    sent = send(ada, game_id, "table", "  good luck  ")
    assert sent.status_code == 201, sent.json
    assert sent.json["text"] == "good luck" and sent.json["version"] == 1 and sent.json["player"] == ada.id
    page = read(bob, game_id, "table").json
    assert [m["text"] for m in page["messages"]] == ["good luck"] and page["next_after"] is None
    assert read(cy, game_id, "table").status_code == 422, "spectators read the table only when the host allows it"
    assert [c["channel"] for c in cy.get(f"/v1/games/{game_id}/channels").json["channels"]] == []


def test_spectators_read_the_table_when_the_host_allowed_it_but_never_write(players):
    ada, bob, cy = players(3)
    game_id = started_game([ada, bob], "cronberg", {"players": 2, "spectators_read_table": True})
    send(ada, game_id, "table", "hello")
    assert [m["text"] for m in read(cy, game_id, "table").json["messages"]] == ["hello"]
    refused = send(cy, game_id, "table", "me too")
    assert refused.status_code == 422 and "only the host and the players" in refused.json["detail"]


def test_a_message_to_the_game_does_not_move_the_game(players):
    ada, bob = players(2)
    game_id = started_game([ada, bob], "cronberg", {"players": 2})
    before = ada.view(game_id).json
    send(ada, game_id, "table", "thinking...")
    after = ada.view(game_id).json
    assert after["version"] == before["version"] and after == before


def test_the_detectives_talk_in_their_team_channel_and_lind_reads_none_of_it(players):
    lind, d1, d2 = players(3)
    game_id = started_game([lind, d1, d2], "coronation", {"detective_seats": 2})
    seats = {seat_of(p, game_id): p for p in (lind, d1, d2)}
    lind, d1, d2 = seats["lind"], seats["detective-1"], seats["detective-2"]
    assert send(d1, game_id, "team:detectives", "he went north").status_code == 201
    assert [m["text"] for m in read(d2, game_id, "team:detectives").json["messages"]] == ["he went north"]
    refused = read(lind, game_id, "team:detectives")
    assert refused.status_code == 422 and refused.json["type"].endswith("/not-in-channel")
    assert send(lind, game_id, "team:detectives", "hi").status_code == 422
    channels = [c["channel"] for c in lind.get(f"/v1/games/{game_id}/channels").json["channels"]]
    assert channels == ["table"]
    assert [c["channel"] for c in d2.get(f"/v1/games/{game_id}/channels").json["channels"]] == \
        ["table", "team:detectives"]


def _lind_doors(lind, game_id) -> dict:
    """Everything the Lind player can ask for about the game."""
    doors = {
        "view": lind.view(game_id).json,
        "feed": lind.get(f"/v1/games/{game_id}/events").json,
        "summary": lind.get(f"/v1/games/{game_id}").json,
        "channels": lind.get(f"/v1/games/{game_id}/channels").json["channels"],
        "table": read(lind, game_id, "table").json["messages"],
        "inbox": [{k: v for k, v in g.items() if k not in ("id", "updated_at")}
                  for g in lind.get("/v1/players/me/inbox").json["games"]],
        "export": lind.get(f"/v1/games/{game_id}/export").get_data(as_text=True),
        "audit": lind.get(f"/v1/games/{game_id}/audit").json,
    }
    return json.loads(json.dumps(doors, default=str))


def test_a_team_message_of_the_detectives_is_absent_from_every_door_lind_has(players, service):
    """Lind's view, feed, summary, channels, table, inbox and (once the game
    is over) export, before and after the detectives talk, byte for byte: the
    same. Only a message at the table reaches him."""
    lind, d1 = players(2)
    game_id = started_game([lind, d1], "coronation", {"detective_seats": 1})
    if seat_of(lind, game_id) != "lind":
        lind, d1 = d1, lind
    before = _lind_doors(lind, game_id)
    for n in range(3):
        assert send(d1, game_id, "team:detectives", f"plan {n}").status_code == 201
    assert _lind_doors(lind, game_id) == before
    assert send(d1, game_id, "table", "good luck, Lind").status_code == 201
    assert _lind_doors(lind, game_id) != before, "a table message does reach him (the comparison can fail)"
    assert d1.post(f"/v1/games/{game_id}/resign").status_code == 200  # the last detective: Lind wins
    service.score(uuid.UUID(game_id))  # what the scoring worker does
    over = _lind_doors(lind, game_id)
    lines = [json.loads(line) for line in over["export"].splitlines() if line]
    assert lines[-2]["type"] == "GameScored" and not any("plan" in json.dumps(line) for line in lines)
    assert "plan" not in json.dumps(over)
    assert [m["text"] for m in read(d1, game_id, "team:detectives").json["messages"]] == ["plan 0", "plan 1", "plan 2"], \
        "the detective who resigned keeps what was said while he played"


def test_a_message_refused_is_stored_nowhere(players):
    ada, bob = players(2)
    game_id = started_game([ada, bob], "cronberg", {"players": 2})
    for text, words in (("", "needs some text"), ("   ", "needs some text"), ("x" * 2001, "at most 2000"),
                        ("bell\x07", "may not contain U+0007")):
        refused = send(ada, game_id, "table", text)
        assert refused.status_code == 422 and words in refused.json["detail"], refused.json
        assert refused.headers["Content-Type"].startswith("application/problem+json")
    wrong_type = ada.post(f"/v1/games/{game_id}/channels/table/messages", json={"text": 5})
    assert wrong_type.status_code == 422
    unknown = send(ada, game_id, "team:detectives", "hi")
    assert unknown.status_code == 422 and "has no channel" in unknown.json["detail"]
    assert read(ada, game_id, "table").json["messages"] == []


def test_talk_refuses_what_player_names_refuse_invisible_text_and_reversed_text(players):
    """One rule for every free text people read: a message of zero-width
    spaces only, or with a right-to-left override, is refused as such a
    name is; lines, tabs and emoji sequences pass."""
    ada, bob = players(2)
    game_id = started_game([ada, bob], "cronberg", {"players": 2})
    for text, words in (("\u200b\u200b\u200b", "may not contain U+200B"),
                        ("gg \u202eesrever", "may not contain U+202E"),
                        ("\u3164\u3164", "at least one visible character")):
        refused = send(ada, game_id, "table", text)
        assert refused.status_code == 422 and words in refused.json["detail"], refused.json
        named = ada.client.post("/v1/players", json={"name": text})
        assert named.status_code == 422, "the same text is refused as a name"
    for text in ("good game\nwell played\t!", "\U0001F469\u200d\U0001F680 to the moon"):
        assert send(ada, game_id, "table", text).status_code == 201, text
    assert len(read(bob, game_id, "table").json["messages"]) == 2


def test_two_players_talk_privately_in_a_game_of_three_and_the_third_reads_nothing(players):
    ada, bob, cy = players(3)
    game_id = started_game([ada, bob, cy], "cronberg", {"players": 3})
    seats = {seat_of(p, game_id): p for p in (ada, bob, cy)}
    p1, p2, p3 = seats["p1"], seats["p2"], seats["p3"]
    assert send(p1, game_id, "private:p1+p2", "deal?").status_code == 201
    assert [m["text"] for m in read(p2, game_id, "private:p1+p2").json["messages"]] == ["deal?"]
    assert read(p3, game_id, "private:p1+p2").status_code == 422
    assert send(p3, game_id, "private:p1+p2", "let me in").status_code == 422
    channels = [c["channel"] for c in p3.get(f"/v1/games/{game_id}/channels").json["channels"]]
    assert channels == ["table", "private:p1+p3", "private:p2+p3"]


def test_a_player_may_send_ten_messages_a_minute_in_a_game_and_the_eleventh_waits(players):
    ada, bob = players(2)
    game_id = started_game([ada, bob], "cronberg", {"players": 2})
    for n in range(talk_rules.RATE[0]):
        assert send(ada, game_id, "table", f"message {n}").status_code == 201
    refused = send(ada, game_id, "table", "one more")
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert refused.json["type"].endswith("/too-many-messages")
    assert len(read(bob, game_id, "table", limit=100).json["messages"]) == talk_rules.RATE[0]
    assert send(bob, game_id, "table", "my turn to talk").status_code == 201, "the limit is the sender's own"


def test_unread_messages_are_counted_in_the_inbox_until_marked_read(players):
    ada, bob = players(2)
    game_id = started_game([ada, bob], "cronberg", {"players": 2})
    for text in ("one", "two"):
        send(ada, game_id, "table", text)

    def unread(player):
        return next(g["unread_messages"] for g in player.get("/v1/players/me/inbox").json["games"]
                    if g["id"] == game_id)

    assert unread(bob) == 2 and unread(ada) == 0, "one's own messages are read"
    marked = bob.client.put(f"/v1/games/{game_id}/channels/table/read", json={"version": 1}, headers=bob.auth)
    assert marked.status_code == 200 and marked.json == {"channel": "table", "read_version": 1, "unread": 1}
    bob.client.put(f"/v1/games/{game_id}/channels/table/read", json={}, headers=bob.auth)
    assert unread(bob) == 0


def test_a_muted_player_is_silent_for_the_one_who_muted_him_only(players):
    ada, bob, cy = players(3)
    game_id = started_game([ada, bob, cy], "cronberg", {"players": 3})
    muted = bob.client.put(f"/v1/games/{game_id}/mutes/{ada.id}", headers=bob.auth)
    assert muted.status_code == 200 and muted.json["muted"] == [ada.id]
    send(ada, game_id, "table", "blah")
    assert read(bob, game_id, "table").json["messages"] == []
    assert [m["text"] for m in read(cy, game_id, "table").json["messages"]] == ["blah"]
    assert bob.client.delete(f"/v1/games/{game_id}/mutes/{ada.id}", headers=bob.auth).json["muted"] == []
    assert [m["text"] for m in read(bob, game_id, "table").json["messages"]] == ["blah"]
    assert bob.client.put(f"/v1/games/{game_id}/mutes/{bob.id}", headers=bob.auth).status_code == 422
    assert bob.client.put(f"/v1/games/{game_id}/mutes/not-a-uuid", headers=bob.auth).status_code == 422


def test_players_talk_in_the_lobby_and_after_the_end(players):
    ada, bob = players(2)
    game_id = ada.create("cronberg", {"players": 2})
    assert send(ada, game_id, "table", "anyone?").status_code == 201
    assert bob.post(f"/v1/games/{game_id}/join", json={}).status_code == 200
    assert [m["text"] for m in read(bob, game_id, "table").json["messages"]] == ["anyone?"]
    assert ada.post(f"/v1/games/{game_id}/start").status_code == 200
    assert bob.post(f"/v1/games/{game_id}/resign").status_code == 200
    assert send(bob, game_id, "table", "well played").status_code == 201, "a resigned player still talks at the table"
    assert [m["text"] for m in read(ada, game_id, "table").json["messages"]] == ["anyone?", "well played"]


def test_a_message_is_told_to_its_readers_on_their_player_streams_and_never_to_its_sender(players, service):
    from domain.notices import notices_of
    from domain.lifecycle.talk import stream_of

    ada, bob = players(2)
    game_id = started_game([ada, bob], "cronberg", {"players": 2})
    send(ada, game_id, "table", "psst")
    record = service.store.read_stream(stream_of(game_id, "table"))[0]
    found = notices_of(record)
    assert [(n.kind, n.players, n.data["text"]) for n in found] == [("message", (bob.id,), "psst")]
    assert found[0].id == f"{game_id}:table:1:message"


def test_the_chain_of_a_channel_is_intact(players, service):
    ada, bob = players(2)
    game_id = started_game([ada, bob], "cronberg", {"players": 2})
    for text in ("a", "b", "c"):
        send(ada, game_id, "table", text)
    assert service.store.verify(talk_rules.stream_of(game_id, "table")).ok


def test_a_player_who_takes_a_seat_over_reads_its_channels_from_their_start_and_the_one_who_left_no_more(
        players, service):
    import random

    from tests.api.test_lifecycle import _abandon

    ada, bob, cy, dan = players(4)
    game_id = started_game([ada, bob, cy], "court-of-miracles", {"players": 3, "abandon_after": 1})
    assert send(bob, game_id, "private:p2+p3", "we share the Halles?").status_code == 201
    _abandon(service, game_id, "p2", {"p1": ada, "p2": bob, "p3": cy}, random.Random(3))
    code = ada.post(f"/v1/games/{game_id}/invites", json={"seat": "p2"}).json["code"]
    assert dan.post(f"/v1/games/{game_id}/invites/redeem", json={"code": code}).status_code == 200
    assert send(cy, game_id, "private:p2+p3", "deal, new p2?").status_code == 201
    assert [m["text"] for m in read(dan, game_id, "private:p2+p3").json["messages"]] == \
        ["we share the Halles?", "deal, new p2?"]
    assert [m["text"] for m in read(bob, game_id, "private:p2+p3").json["messages"]] == ["we share the Halles?"]
    assert send(bob, game_id, "private:p2+p3", "still here").status_code == 422


def test_a_channel_exports_its_chain_and_signed_head_to_its_members_only(players, client):
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    from api.service.receipts import head_message
    from eventstore.chain import verify_chain
    from eventstore.types import RecordedEvent

    lind, d1, d2 = players(3)
    game_id = started_game([lind, d1, d2], "coronation", {"detective_seats": 2})
    seats = {seat_of(p, game_id): p for p in (lind, d1, d2)}
    for n in range(3):
        assert send(seats["detective-1"], game_id, "team:detectives", f"plan {n}").status_code == 201
    answer = seats["detective-2"].get(f"/v1/games/{game_id}/channels/team:detectives/export")
    assert answer.status_code == 200 and answer.mimetype == "application/x-ndjson"
    lines = [json.loads(line) for line in answer.get_data(as_text=True).splitlines()]
    events, head = lines[:-1], lines[-1]["head"]
    assert [e["data"]["text"] for e in events] == ["plan 0", "plan 1", "plan 2"]
    records = [RecordedEvent(0, e["stream_id"], e["version"], uuid.UUID(e["event_id"]), e["type"], e["schema_version"],
                             e["data"], e["metadata"], e["recorded_at"], e["hash"]) for e in events]
    assert verify_chain(records).ok
    assert head["stream_id"] == f"talk-{game_id}/team:detectives" and head["version"] == 3
    assert head["hash"] == events[-1]["hash"]
    key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(head["public_key"]))
    key.verify(bytes.fromhex(head["signature"]), head_message(head["stream_id"], head["version"], head["hash"]))
    refused = seats["lind"].get(f"/v1/games/{game_id}/channels/team:detectives/export")
    assert refused.status_code == 422 and refused.json["type"].endswith("/not-in-channel")


def test_lind_s_game_stream_and_player_stream_carry_the_table_s_messages_and_none_of_the_detectives(players, client):
    from tests.support.sse import parse, read_until

    lind, d1 = players(2)
    game_id = started_game([lind, d1], "coronation", {"detective_seats": 1})
    if seat_of(lind, game_id) != "lind":
        lind, d1 = d1, lind
    game_stream = client.get(f"/v1/games/{game_id}/stream", headers=lind.auth, buffered=False)
    chunks = iter(game_stream.response)
    assert b"event: view" in next(chunks) + next(chunks)
    for n in range(3):
        assert send(d1, game_id, "team:detectives", f"plan {n}").status_code == 201
    assert send(d1, game_id, "table", "good luck, Lind").status_code == 201
    text = read_until(chunks, "good luck")
    game_stream.close()
    assert [m.json["text"] for m in parse(text)[0] if m.event == "talk"] == ["good luck, Lind"]
    assert "plan" not in text
    player_stream = client.get("/v1/players/me/stream?after=0", headers=lind.auth, buffered=False)
    told = read_until(iter(player_stream.response), "good luck")
    player_stream.close()
    assert [m.json["data"]["text"] for m in parse(told)[0] if m.event == "message"] == ["good luck, Lind"]
    assert "plan" not in told


def test_a_read_mark_is_a_whole_version_and_nothing_else(players):
    """The document says integer: 1.5 or "1" is refused, not read as 1."""
    ada, bob = players(2)
    game_id = started_game([ada, bob], "cronberg", {"players": 2})
    send(ada, game_id, "table", "one")
    send(ada, game_id, "table", "two")
    for version in (1.5, "1"):
        marked = bob.client.put(f"/v1/games/{game_id}/channels/table/read", json={"version": version},
                                headers=bob.auth)
        assert marked.status_code == 422, (version, marked.json)
    assert bob.client.put(f"/v1/games/{game_id}/channels/table/read", json={"version": 1},
                          headers=bob.auth).status_code == 200
