"""Tampered copies of an exported game, for every verifier's tests
(``boardlog audit`` here; the Node verifier's tests reuse them).

An export is a list of its lines as JSON objects: event lines first, then
any line that is not an event (a signed head). Each case in ``CASES`` takes
those lines and returns a tampered copy and the version the verdict must
name; the copy's hash chain is recomputed after the edit (``rechain``), as
a server rewriting its own log would, so that only the rule the case is
about catches it (and, for chain version 2, the signed head, which no
edit can re-sign). A case that the game cannot show (no resignation to
forge, say) raises ``NotApplicable``.
"""

from __future__ import annotations

import copy
import json
import uuid
from collections.abc import Callable
from types import SimpleNamespace

from eventstore.chain import canonical_json, event_document, link_hash

STRANGER = "00000000-0000-4000-8000-00000000dead"  # a player id that holds no seat in any game
ENGINE_COMMANDS = {"CreateGame", "CreateRematch", "JoinGame", "LeaveGame", "StartGame", "ScoreGame"}


class NotApplicable(Exception):
    """The game holds nothing this case can tamper with."""


def read(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def write(lines: list[dict]) -> str:
    return "".join(json.dumps(line) + "\n" for line in lines)


def split(lines: list[dict]) -> tuple[list[dict], list[dict]]:
    """The event lines and the others (a head line), each a deep copy."""
    events = [copy.deepcopy(line) for line in lines if "version" in line]
    return events, [copy.deepcopy(line) for line in lines if "version" not in line]


def rechain(events: list[dict]) -> list[dict]:
    """Every event's version and hash recomputed in order, as an operator who
    rewrites the log would; the events are changed in place and returned."""
    previous = None
    for version, event in enumerate(events, 1):
        event["version"] = version
        event["hash"] = link_hash(previous, canonical_json(event_document(SimpleNamespace(**event))))
        previous = event["hash"]
    return events


def _batches(events: list[dict]) -> list[list[dict]]:
    """Consecutive events decided together (same decided_at, seat, timeout, command)."""
    def key(event):
        meta = event["metadata"]
        return (meta.get("decided_at"), meta.get("seat"), bool(meta.get("timeout")),
                json.dumps(meta.get("command"), sort_keys=True))

    batches: list[list[dict]] = []
    for event in events:
        if batches and key(batches[-1][-1]) == key(event):
            batches[-1].append(event)
        else:
            batches.append([event])
    return batches


def _is_players_move(meta: dict) -> bool:
    command = (meta.get("command") or {}).get("type")
    return (meta.get("seat") is not None and not meta.get("timeout") and meta.get("bot") is None
            and not meta.get("lifecycle") and command not in ENGINE_COMMANDS)


def _holders(events: list[dict]) -> dict:
    holders: dict = {}
    for event in events:
        if event["type"] == "PlayersSeated":
            holders = dict(event["data"]["players"])
        elif event["type"] in ("SeatTaken", "SeatReplaced"):
            holders[event["data"]["seat"]] = event["data"]["player"]
    return holders


def standings_cut_off(lines):
    """The last event, GameScored (the standings), removed; no rechain is
    needed, the chain of what is left is intact."""
    events, others = split(lines)
    if not events or events[-1]["type"] != "GameScored":
        raise NotApplicable("the export does not end in GameScored")
    events.pop()
    return events + others, len(events)


def resignation_after_the_end(lines):
    """A SeatResigned by the first seat's holder appended after GameScored,
    recorded as the service records a resignation."""
    events, others = split(lines)
    last = events[-1]
    seat, player = next(iter(sorted(_holders(events).items())))
    version = last["version"] + 1
    meta = {"actor": player, "seat": seat, "command": {"type": "ResignSeat"}, "decided_at": last["version"],
            "lifecycle": True, "seated": _holders(events), "to_act": [], "turn_came": []}
    events.append({"stream_id": last["stream_id"], "version": version, "event_id": str(uuid.uuid4()),
                   "type": "SeatResigned", "schema_version": 1,
                   "data": {"seat": seat, "player": player, "bot": None}, "metadata": meta,
                   "recorded_at": last["recorded_at"], "hash": ""})
    return rechain(events) + others, version


def move_credited_to_a_stranger(lines):
    """The first move a player made credited to a player id that holds no seat."""
    events, others = split(lines)
    batch = next((b for b in _batches(events) if _is_players_move(b[0]["metadata"])), None)
    if batch is None:
        raise NotApplicable("no player made a move")
    for event in batch:
        event["metadata"]["actor"] = STRANGER
    return rechain(events) + others, batch[0]["version"]


def to_act_falsified(lines):
    """The first record of whose turn it is, after a player's move of a game
    still running, names another seat than the one to act."""
    events, others = split(lines)
    seats = events[0]["data"]["seats"]
    for batch in _batches(events):
        closing = batch[-1]["metadata"]
        if _is_players_move(batch[0]["metadata"]) and closing.get("to_act"):
            wrong = [s for s in seats if s not in closing["to_act"]][:1] or closing["to_act"][1:]
            closing["to_act"] = sorted(wrong)
            return rechain(events) + others, batch[-1]["version"]
    raise NotApplicable("no move records to_act")


def resignation_by_another_player(lines):
    """The game's resignation credited to a player who does not hold the
    resigning seat (another seat's holder, or a stranger), in the metadata and
    in SeatResigned alike."""
    events, others = split(lines)
    resigned = next((e for e in events if e["type"] == "SeatResigned"), None)
    if resigned is None:
        raise NotApplicable("nobody resigned")
    seat = resigned["data"]["seat"]
    other = next((p for s, p in sorted(_holders(events).items()) if s != seat and p != resigned["data"]["player"]),
                 STRANGER)
    for event in events:
        if event["metadata"].get("decided_at") == resigned["metadata"]["decided_at"] \
                and event["metadata"].get("command") == {"type": "ResignSeat"}:
            event["metadata"]["actor"] = other
    resigned["data"]["player"] = other
    return rechain(events) + others, resigned["version"]


Case = Callable[[list], tuple[list, int]]
CASES: list[tuple[str, Case]] = [
    ("standings cut off", standings_cut_off),
    ("resignation appended after the end", resignation_after_the_end),
    ("move credited to a player without a seat", move_credited_to_a_stranger),
    ("to_act falsified", to_act_falsified),
    ("resignation by a player who does not hold the seat", resignation_by_another_player),
]
