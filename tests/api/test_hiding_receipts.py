"""Receipts hide what their holder may not see (openapi/verifying-a-game.md,
section 3.2): a detective who holds the receipt of every version, and is
granted far more than the API shows him (every stored field of Lind's move
but its location: the event id, the kind of move, the card, the metadata),
tries each of the 92 locations, rebuilds the hashed document and compares
its link with the receipt. In a game of chain version 2 no location
matches, since the salt in the metadata comes from the secret seed. The
same attack on the heads of a chain version 1 game finds every location,
which is why such a game shows no head until it is over."""

from __future__ import annotations

import copy
import random
import uuid

from api.service.games import stream_of
from domain import session as sessions
from domain.games.coronation.data import BOARD
from eventstore.chain import canonical_json, link_hash
from tests.api.conftest import started_game

LOCATIONS = sorted(BOARD.locations)


def _play_lind_moves(players, game_id, moves: int, rng) -> None:
    lind, detective = players
    made = 0
    for _ in range(500):
        view = lind.view(game_id).json
        if view["status"] != "active" or made >= moves:
            return
        acting = lind if view["seat"] in view["to_act"] else detective
        commands = acting.legal(game_id)
        if acting is lind:
            moving = [c for c in commands if c["type"] == "MoveLind"]
            commands = moving or commands
            made += bool(moving)
        assert acting.act(game_id, rng.choice(commands)).status_code == 200


def _guesses(record, previous_hash: str, knows_salt: bool) -> list[int]:
    """The locations whose rebuilt document links to the head after the move."""
    template = {"data": copy.deepcopy(record.data), "event_id": str(record.event_id),
                "metadata": copy.deepcopy(record.metadata), "schema_version": record.schema_version,
                "stream_id": record.stream_id, "type": record.type, "version": record.version}
    if not knows_salt:
        template["metadata"].pop("salt", None)  # the one thing nobody has before the seed is published
    found = []
    for location in LOCATIONS:
        template["data"]["to"] = location
        template["metadata"]["command"]["to"] = location
        if link_hash(previous_hash, canonical_json(template)) == record.hash:
            found.append(location)
    return found


def _attack(players, game_id, service, receipts_of) -> tuple[int, int, int]:
    """(Lind moves attacked, locations recovered, locations recovered by one
    who knew the salts too) from the detective's receipts."""
    gid = uuid.UUID(game_id)
    records = {r.version: r for r in service.store.read_stream(stream_of(gid))}
    heads = receipts_of(gid, records)
    attacked = recovered = with_salts = 0
    for version, record in records.items():
        if record.type != "LindMoved" or record.metadata.get("command", {}).get("type") != "MoveLind":
            continue
        assert heads[version] == record.hash  # the receipt he holds is this move's head
        attacked += 1
        found = _guesses(record, heads[version - 1], knows_salt=False)
        recovered += found == [record.data["to"]]
        with_salts += _guesses(record, heads[version - 1], knows_salt=True) == [record.data["to"]]
    return attacked, recovered, with_salts


def test_a_detective_cannot_recover_lind_s_location_from_the_receipts_of_a_salted_game(players, service):
    lind, detective = players(2)
    game_id = started_game([lind, detective], "coronation", {"detective_seats": 1})
    _play_lind_moves((lind, detective), game_id, 6, random.Random(21))

    def detective_receipts(gid, records):
        feed = detective.get(f"/v1/games/{game_id}/events", query_string={"limit": 1000}).json["events"]
        assert all("to" not in event["data"] for event in feed if event["type"] == "LindMoved")
        return {event["version"]: event["receipt"]["hash"] for event in feed}

    attacked, recovered, with_salts = _attack((lind, detective), game_id, service, detective_receipts)
    assert attacked >= 3 and recovered == 0
    assert with_salts == attacked  # the salt is all that stands between him and Lind: the attack itself works


def test_the_same_attack_on_the_heads_of_an_unsalted_game_recovers_every_location(players, service, monkeypatch):
    lind, detective = players(2)
    monkeypatch.setattr(sessions, "CHAIN_VERSION", 1)
    game_id = started_game([lind, detective], "coronation", {"detective_seats": 1})
    monkeypatch.undo()
    _play_lind_moves((lind, detective), game_id, 6, random.Random(21))
    feed = detective.get(f"/v1/games/{game_id}/events", query_string={"limit": 1000}).json["events"]
    assert all(event["receipt"] is None for event in feed)  # so the server shows no head of such a game

    def heads_it_would_have_shown(gid, records):
        return {version: record.hash for version, record in records.items()}

    attacked, recovered, _ = _attack((lind, detective), game_id, service, heads_it_would_have_shown)
    assert attacked >= 3 and recovered == attacked
