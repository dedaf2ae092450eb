"""Table talk's hidden side, door by door: who may read a message is decided
per message (a stream opened before a player left his seat carries nothing
said in its channels after), and who muted whom is nobody's business but
the muter's."""

from __future__ import annotations

import json

from tests.api.conftest import started_game
from tests.support.sse import parse, read_until
from tests.support.waiting import wait_until


def send(player, game_id, channel, text):
    response = player.post(f"/v1/games/{game_id}/channels/{channel}/messages", json={"text": text})
    assert response.status_code == 201, response.json
    return response.json


def coronation(players, detectives=2):
    """A started Coronation game and its players by seat."""
    people = players(detectives + 1)
    game_id = started_game(people, "coronation", {"detective_seats": detectives})
    return game_id, {p.view(game_id).json["seat"]: p for p in people}


def test_a_detective_who_resigned_hears_no_more_team_talk_on_a_stream_he_opened_before(players, client, service):
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
    # and neither do his player stream's notices nor his notifications (webhooks, mail)
    told = [n["data"]["text"] for n in _player_stream_messages(leaver, client, [game_id])]
    assert told == ["before: meet at the docks", "marker at the table"]
    assert _notified_texts(service, game_id, leaver.id) == told


def _player_stream(player, client, until) -> str:
    """A player's stream from the start, opened again until ``until(notices)``
    (it ends by itself here): the feed shows an event once no transaction
    begun before it is open, anywhere on the server."""
    def read():
        text = client.get("/v1/players/me/stream?after=0", headers=player.auth).get_data(as_text=True)
        return text if until([m for m in parse(text)[0] if m.event not in ("problem", "shutdown")]) else None

    return wait_until(read, timeout=30, what="the notices on the player stream")


def _player_stream_messages(player, client, games) -> list[dict]:
    """The ``message`` notices a player's stream carries from the start, once those of ``games`` came."""
    def told(notices):
        return {m.json["game_id"] for m in notices if m.event == "message"} >= set(games)

    return [m.json for m in parse(_player_stream(player, client, told))[0] if m.event == "message"]


def _notified_texts(service, game_id, player) -> list[str]:
    """The texts of the message notifications the notifier makes for ``player`` from a game's channels."""
    from workers.notify.derive import derive

    from domain.lifecycle.talk import stream_of

    records = service.store.read_all_of([stream_of(game_id, c) for c in ("table", "team:detectives")], 0, 1000)
    return [n.payload["data"]["text"] for n in derive(records, {game_id: "coronation"}) if n.player_id == player]


def _exported_messages(player, client, game_id) -> list[dict]:
    lines = client.get(f"/v1/games/{game_id}/channels/table/export", headers=player.auth).get_data(as_text=True)
    return [json.loads(line) for line in lines.splitlines() if line and "MessageSent" in line]


def _as_seen(notice: dict) -> dict:
    """A notice without what differs between two games anyway (ids, positions)."""
    return {key: value for key, value in notice.items() if key not in ("id", "game_id", "position")}


def test_whom_a_player_muted_is_shown_to_nobody_else_in_exports_or_on_player_streams(players, client, service):
    # Given the same three players at two tables, where in one Bob muted Ada
    ada, bob, cy = players(3)
    muting, plain = (started_game([ada, bob, cy], "cronberg", {"players": 3}) for _ in range(2))
    assert bob.client.put(f"/v1/games/{muting}/mutes/{ada.id}", headers=bob.auth).status_code == 200
    # When Ada says the same at both tables
    for game_id in (muting, plain):
        send(ada, game_id, "table", "blah")
    # Then Cy's export of each table records the same metadata, and nothing of whom to tell
    exported = [_exported_messages(cy, client, game_id) for game_id in (muting, plain)]
    assert [line["metadata"] for line in exported[0]] == [line["metadata"] for line in exported[1]]
    assert all("tell" not in line["metadata"] for line in exported[0])
    # and Cy's player stream tells her the two messages alike
    told = {n["game_id"]: _as_seen(n) for n in _player_stream_messages(cy, client, [muting, plain])}
    assert told[muting] == told[plain] and bob.id in told[muting]["players"]
    # while Bob, who muted Ada, is told only the message at the other table
    assert [n["game_id"] for n in _player_stream_messages(bob, client, [plain])] == [plain]


def test_a_notifier_tells_a_muter_nothing_of_the_muted_and_the_others_alike(players, service):
    from workers.notify.derive import derive

    from api.service.talk import mutes_of
    from domain.lifecycle.talk import stream_of

    ada, bob, cy = players(3)
    muting, plain = (started_game([ada, bob, cy], "cronberg", {"players": 3}) for _ in range(2))
    assert bob.client.put(f"/v1/games/{muting}/mutes/{ada.id}", headers=bob.auth).status_code == 200
    records = []
    for game_id in (muting, plain):
        send(ada, game_id, "table", "blah")
        records += service.store.read_stream(stream_of(game_id, "table"))
    with service.pool.connection() as conn:
        muted = mutes_of(conn, [bob.id, cy.id])
    made = derive(records, {muting: "cronberg", plain: "cronberg"}, muted)
    to = {(n.game_id, n.player_id): {k: v for k, v in n.payload.items() if k not in ("id", "game_id", "occurred_at")}
          for n in made}
    assert set(to) == {(muting, cy.id), (plain, cy.id), (plain, bob.id)}
    assert to[(muting, cy.id)] == to[(plain, cy.id)]


def _lind_s_numbers(players, client, service, talk: bool) -> dict:
    """The numbers the Lind player is shown about a game (his player stream's
    ids, its notices' positions, his webhook-ids' numbers), each counted from
    the first, where the detectives plan three times (``talk``) or never, in
    the lobby and between moves of seat life."""
    from workers.notify.derive import derive

    from domain.lifecycle.talk import stream_of

    game_id, seats = coronation(players)
    lind, d1, d2 = seats["lind"], seats["detective-1"], seats["detective-2"]
    for n in range(3 if talk else 0):
        send(d1, game_id, "team:detectives", f"plan {n}")
    assert d1.post(f"/v1/games/{game_id}/resign").status_code == 200
    for n in range(3 if talk else 0):
        send(d2, game_id, "team:detectives", f"alone now {n}")
    send(d2, game_id, "table", "good game")  # one he reads: the comparison covers what he is told too
    assert d2.post(f"/v1/games/{game_id}/resign").status_code == 200
    text = _player_stream(lind, client, lambda notices: [m.event for m in notices].count("resigned") == 2)
    told = [m for m in parse(text)[0] if m.event not in ("problem", "shutdown")]
    ids = [int(m.id) for m in told if m.id is not None]
    positions = [m.json["position"] for m in told if m.json["position"] is not None]
    records = service.store.read_all_of([f"game-{game_id}", stream_of(game_id, "table"),
                                         stream_of(game_id, "team:detectives")], 0, 10000)
    webhooks = [int(n.id[1:].split("-")[0]) for n in derive(records, {game_id: "coronation"})
                if n.player_id == lind.id and n.id.startswith("n")]
    return {"kinds": [m.event for m in told],
            "ids": [i - ids[0] for i in ids], "positions": [p - positions[0] for p in positions],
            "webhook-ids": [w - webhooks[0] for w in webhooks],
            "message ids": [block for block in text.split("\n\n") if "event: message" in block and "id:" in block],
            "message positions": [m.json["position"] for m in told if m.event == "message"]}


def test_lind_s_ids_and_positions_are_the_same_whether_the_detectives_planned_or_not(players, client, service):
    # Given twin games that differ only by the detectives' team talk, which Lind does not read
    quiet = _lind_s_numbers(players, client, service, talk=False)
    talked = _lind_s_numbers(players, client, service, talk=True)
    # Then every number he is shown moves alike in both
    assert len(quiet["ids"]) >= 3 and "message" in quiet["kinds"]
    assert talked == quiet
    assert quiet["message ids"] == [] and quiet["message positions"] == [None]
