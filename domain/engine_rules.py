"""The rules every game's log obeys, whatever the game: who holds which seat,
which actor may cause which batch, what may follow the end, and that a
finished log ends in its standings.

They are checked from the engine's own events and the metadata alone, never
from a game's rules, exactly as section 5 of openapi/verifying-a-game.md
states them (the rule numbers below are that section's), so that a verifier
in another language checks the same. ``domain.audit`` checks these first and
then re-decides every batch with the rules, which proves more.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from . import engine_rules_agreement as agreement
from .engine_rules_time import away_or_back, giving_time, pausing, taking_back
from .seat_holders import (
    ACTIVE,
    CANCELLED,
    FINISHED,
    LOBBY,
    SCORING,
    SEAT_LIFE_COMMANDS,
    Seats,
)

SYSTEM = "system"
DEFAULT_ABANDON_AFTER = 3
# Every type the engine records; any other type is a game's own event.
ENGINE_TYPES = frozenset({
    "GameCreated", "SeatTaken", "SeatLeft", "GameCancelled", "PlayersSeated", "TurnTimedOut", "GameOver",
    "GameScored", "BotSeated", "SeatResigned", "GameAborted", "SeatAbandoned", "InviteIssued", "InviteRedeemed",
    "SeatReplaced", "RematchInvited", "RematchCreated", "ClocksComputed", "SeedContributed", "SeatAway", "SeatBack",
    "PauseAsked", "GamePaused", "GameResumed", "TakebackAsked", "TakebackAccepted", "TakebackRefused", "TakenBack",
    "TimeGiven", "EndProposed", "EndAccepted", "EndWithdrawn", "EndAgreed",
})
# Rule 5.4: the kinds of batch each status takes.
ALLOWED = {
    LOBBY: {"JoinGame", "LeaveGame", "StartGame", "IssueInvite", "RedeemInvite", "ContributeRandomness"},
    ACTIVE: {"move", "bot", "timeout", "ResignSeat", "AbortGame", "IssueInvite", "RedeemInvite", "AbandonSeat",
             "ComputeClocks", "MarkAway", "ReturnSeat", "AskPause", "ResumeGame",
             "AskTakeback", "AcceptTakeback", "RefuseTakeback", "GiveTime", *agreement.KINDS},
    SCORING: {"ScoreGame", "CreateRematch"},
    FINISHED: {"CreateRematch"},
    CANCELLED: set(),
}
PLAYER_KINDS = {"JoinGame", "LeaveGame", "StartGame", "IssueInvite", "RedeemInvite", "move", "ResignSeat",
                "AbortGame", "CreateRematch", "ContributeRandomness", "AskPause", "ResumeGame",
                "AskTakeback", "AcceptTakeback", "RefuseTakeback", "GiveTime", *agreement.KINDS}
SYSTEM_KINDS = {"timeout", "AbandonSeat", "ComputeClocks", "ScoreGame", "MarkAway", "ReturnSeat"}
LIFECYCLE_COMMANDS = SEAT_LIFE_COMMANDS


def batch_key(meta: Mapping[str, Any]) -> tuple:
    """Rule 5.2: consecutive events with the same key are one batch."""
    return (meta.get("decided_at"), meta.get("seat"), bool(meta.get("timeout")),
            json.dumps(meta.get("command"), sort_keys=True))


def command_type(meta: Mapping[str, Any]) -> Any:
    command = meta.get("command")
    return command.get("type") if isinstance(command, Mapping) else None


def batch_kind(meta: Mapping[str, Any], first: bool) -> str:
    """Rule 5.3: what caused a batch."""
    command = command_type(meta)
    if first:
        return "create"
    if meta.get("timeout"):
        return "timeout"
    if meta.get("bot") is not None:
        return "bot"
    if meta.get("lifecycle") and command in LIFECYCLE_COMMANDS:
        return command
    if command in ("CreateGame", "JoinGame", "LeaveGame", "StartGame", "ScoreGame", "ContributeRandomness"):
        return command
    return "move"


def _strings(value) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


# Rule 5.0: the members of metadata and their types (a member left out is fine unless required).
METADATA_TYPES = {
    "actor": (lambda v: isinstance(v, str), "a string", True),
    "seat": (lambda v: v is None or isinstance(v, str), "a string or null", True),
    "command": (lambda v: isinstance(v, dict) and isinstance(v.get("type"), str), "an object with a string type", True),
    "decided_at": (lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0, "a whole number", True),
    "timeout": (lambda v: isinstance(v, bool), "true or false", False),
    "lifecycle": (lambda v: isinstance(v, bool), "true or false", False),
    "bot": (lambda v: v is None or isinstance(v, str), "a string", False),
    "to_act": (_strings, "a list of seats", False),
    "turn_came": (_strings, "a list of seats", False),
    "seated": (lambda v: isinstance(v, dict) and all(isinstance(p, str) for p in v.values()), "an object of seats",
               False),
}


def metadata_problems(records: Sequence[Mapping[str, Any]]) -> list[str]:
    """Rule 5.0: every event's metadata has its members, of their types."""
    for version, record in enumerate(records, 1):
        meta = record["metadata"]
        for name, (fits, kind, required) in METADATA_TYPES.items():
            if (name in meta or required) and not fits(meta.get(name)):
                return [f"at version {version}: the metadata's {name} is not {kind} (rule 5.0)"]
    return []


def check(records: Sequence[Mapping[str, Any]], complete: bool = False) -> list[str]:
    """The broken rules of a log (``records``: type, data, metadata, in
    version order), each a sentence naming its version and rule. ``complete``:
    the log is a finished game's whole log (an export), so it must end in
    its standings (rule 5.8)."""
    problems = metadata_problems(records)
    if problems:
        return problems
    game = Seats()
    batches: list[tuple[int, list]] = []
    previous = None
    for version, record in enumerate(records, 1):
        key = batch_key(record["metadata"])
        if batches and key == previous:
            batches[-1][1].append(record)
        else:
            batches.append((version, [record]))
        previous = key
    closing: dict | None = None  # metadata of the last event that closed a commit (rule 5.7)
    commit: list[tuple[int, Mapping]] = []  # events since then: (version, metadata)
    for first_version, batch in batches:
        meta = batch[0]["metadata"]
        kind = batch_kind(meta, first_version == 1)
        # A batch that opens a commit may check its seat against the to_act just recorded.
        found = _batch_problems(game, kind, meta, batch, first_version, closing if not commit else None)
        problems += [f"at version {first_version}: {problem}" for problem in found]
        for offset, record in enumerate(batch):
            version = first_version + offset
            if record["type"] in ENGINE_TYPES:
                game.fold(record["type"], record["data"])
            else:
                game.takeback = None  # a move by anyone ends an open takeback request
            commit.append((version, record["metadata"]))
            if "to_act" in record["metadata"]:
                problems += [f"at version {version}: {p}" for p in _closing_problems(game, commit, closing)]
                closing, commit = dict(record["metadata"]), []
        game.count(kind, meta)
        if kind in ("move", "bot", "timeout", "StartGame"):
            game.last_move = (kind, meta.get("seat"), meta.get("decided_at"), bool(meta.get("draws")))
    if any("seated" in meta or "turn_came" in meta for _, meta in commit):
        problems.append(f"at version {commit[-1][0]}: seated or turn_came is recorded, but no to_act closes the "
                        "decision (rule 5.7)")
    over = [v for v, r in enumerate(records, 1) if r["type"] == "GameOver"]
    scored = [v for v, r in enumerate(records, 1) if r["type"] == "GameScored"]
    if complete and over and not scored:
        problems.append(f"at version {len(records)}: the game ended at version {over[0]} (GameOver) but the log "
                        "holds no GameScored: its standings are cut off (rule 5.8)")
    if complete and not over and game.status != CANCELLED:
        problems.append(f"at version {len(records)}: the log holds no GameOver: the game has not ended (rule 5.8)")
    return problems


def _batch_problems(game: Seats, kind: str, meta, batch, version: int, opened) -> list[str]:
    """``opened``: the metadata of the event that closed the commit before,
    when this batch opens the next commit."""
    types = [record["type"] for record in batch]
    data = [record["data"] for record in batch]
    actor = meta.get("actor")
    command = command_type(meta)
    found = []
    if kind != "ComputeClocks" and meta.get("decided_at") != version - 1:
        found.append(f"the batch was decided at version {meta.get('decided_at')!r}, not on the version before it "
                     f"({version - 1}) (rule 5.2)")
    if kind == "ComputeClocks" and not (isinstance(meta.get("decided_at"), int) and meta["decided_at"] <= version - 1):
        found.append(f"ClocksComputed was decided at version {meta.get('decided_at')!r}, after it (rule 5.2)")
    shape = _shape(kind, types)
    if shape:
        found.append(f"the {kind} batch holds {', '.join(types)}: {shape} (rule 5.3)")
    if "GameOver" in types[:-1]:
        found.append("GameOver is not the last event of its batch (rule 5.3)")
    if "GameCreated" in types and version != 1:
        found.append("GameCreated after the first event (rule 5.3)")
    if kind == "create":
        if command not in ("CreateGame", "CreateRematch"):
            found.append(f"the first batch's command is {command!r}, not CreateGame or CreateRematch (rule 5.3)")
        if types[0] == "GameCreated" and actor != data[0].get("host"):
            found.append(f"the game is created by {actor!r}, not by its host {data[0].get('host')!r} (rule 5.5)")
        if len(types) > 1 and types[1] == "SeatTaken" and data[1].get("player") != data[0].get("host"):
            found.append("the host's SeatTaken names another player (rule 5.5)")
        return found
    if kind not in ALLOWED[game.status]:
        after = {SCORING: "after GameOver", FINISHED: "after GameScored", CANCELLED: "after the game was cancelled",
                 LOBBY: "in the lobby", ACTIVE: "while the game runs"}[game.status]
        found.append(f"the {kind} batch comes {after}, where only {', '.join(sorted(ALLOWED[game.status])) or 'nothing'} "
                     f"may come (rule 5.4)")
    if kind == "CreateRematch" and game.rematch is not None:
        found.append(f"a second rematch; the game had its rematch {game.rematch} already (rule 5.4)")
    found += _actor_problems(game, kind, meta, batch, opened)
    return found


def _shape(kind: str, types: list[str]) -> str | None:
    """Rule 5.3: the events each kind of batch holds; None when they fit."""
    body = types[:-1] if types and types[-1] == "GameOver" else types
    fits = {
        "create": types[:2] == ["GameCreated", "SeatTaken"] and all(t == "BotSeated" for t in
                                                                    (types[2:-1] if types[-1] == "RematchInvited" else types[2:])),
        "JoinGame": types == ["SeatTaken"],
        "LeaveGame": types in (["SeatLeft"], ["SeatLeft", "GameCancelled"]),
        "StartGame": types[:1] == ["PlayersSeated"] and all(t not in ENGINE_TYPES for t in types[1:]),
        "move": bool(types) and all(t not in ENGINE_TYPES for t in body),
        "bot": bool(types) and all(t not in ENGINE_TYPES for t in body),
        "timeout": body[:1] == ["TurnTimedOut"] and all(t not in ENGINE_TYPES for t in body[1:]),
        "ResignSeat": body[:1] == ["SeatResigned"] and all(t not in ENGINE_TYPES for t in body[1:]),
        "AbortGame": types == ["GameAborted"],
        "IssueInvite": types == ["InviteIssued"],
        "RedeemInvite": types in (["InviteRedeemed", "SeatTaken"], ["InviteRedeemed", "SeatReplaced"]),
        "CreateRematch": types == ["RematchCreated"],
        "AbandonSeat": bool(types) and all(t == "SeatAbandoned" for t in types),
        "ComputeClocks": types == ["ClocksComputed"],
        "ScoreGame": types == ["GameScored"],
        "ContributeRandomness": types == ["SeedContributed"],
        "MarkAway": types == ["SeatAway"],
        "ReturnSeat": types == ["SeatBack"],
        "AskPause": types in (["PauseAsked"], ["PauseAsked", "GamePaused"]),
        "ResumeGame": types == ["GameResumed"],
        "AskTakeback": types == ["TakebackAsked"],
        "AcceptTakeback": types in (["TakebackAccepted"], ["TakebackAccepted", "TakenBack"]),
        "RefuseTakeback": types == ["TakebackRefused"],
        "GiveTime": types == ["TimeGiven"],
        **{name: agreement.fits(name, types) for name in agreement.KINDS},
    }
    return None if fits.get(kind, False) else "not the events such a batch holds"


def _actor_problems(game: Seats, kind: str, meta, batch, opened) -> list[str]:
    """Rules 5.5 and 5.6: the actor of each kind of batch, and the seat's holder."""
    actor, seat = meta.get("actor"), meta.get("seat")
    first = batch[0]["data"]
    found = []
    is_player = isinstance(actor, str) and actor != SYSTEM and not actor.startswith("bot:")
    if kind in PLAYER_KINDS and not is_player:
        found.append(f"the {kind} batch must be a player's, not {actor!r}'s (rule 5.5)")
    if kind in SYSTEM_KINDS and actor != SYSTEM:
        found.append(f"the {kind} batch is the system's, not {actor!r}'s (rule 5.5)")
    if kind in ("AbandonSeat", "ComputeClocks", "ScoreGame", "JoinGame", "LeaveGame", "StartGame") \
            and seat is not None:
        found.append(f"the {kind} batch names no seat, not {seat!r} (rule 5.5)")
    if kind == "IssueInvite" and seat != game.seat_of(actor):
        found.append(f"the IssueInvite batch names seat {seat}, not the seat its actor holds (rule 5.5)")
    held = game.holders.get(seat) if seat is not None else None
    if kind in ("move", "ResignSeat", "AbortGame"):
        if seat is None or held != actor:
            holder = f"held by {held}" if held else "held by nobody"
            found.append(f"the {kind} batch of seat {seat} is credited to {actor}, who does not hold it ({holder}) "
                         f"(rule 5.5)")
        elif seat in game.resigned:
            found.append(f"{seat} resigned before: it takes no more player commands (rule 5.5)")
        elif kind == "move" and seat in game.bots:
            found.append(f"a {game.bots[seat]} bot plays {seat}: the seat takes no player commands (rule 5.5)")
    if kind in ("move", "bot", "timeout") and opened is not None and isinstance(opened.get("to_act"), list) \
            and seat not in opened["to_act"]:
        found.append(f"{seat} acts but was not to act (to_act: {', '.join(map(str, opened['to_act'])) or 'nobody'}) "
                     "(rule 5.7)")
    if kind == "bot" and (actor != f"bot:{meta.get('bot')}" or game.bots.get(seat) != meta.get("bot")):
        playing = f"a {game.bots[seat]} bot plays it" if seat in game.bots else "no bot plays it"
        found.append(f"a {meta.get('bot')} bot's batch for {seat} by {actor!r}, where {playing} (rule 5.5)")
    if kind == "timeout" and (seat is None or first.get("seat") != seat
                              or first.get("deadline_version") != meta.get("decided_at")):
        found.append(f"the timeout of {seat} does not start with its TurnTimedOut at the version decided on (rule 5.5)")
    if kind == "ResignSeat" and (first.get("seat"), first.get("player")) != (seat, actor):
        found.append(f"SeatResigned names {first.get('seat')} and {first.get('player')}, not the batch's seat "
                     f"and actor (rule 5.5)")
    if kind == "AbortGame":
        if (first.get("seat"), first.get("player")) != (seat, actor):
            found.append("GameAborted names another seat or player than the batch's (rule 5.5)")
        if set(game.seats) <= game.acted | set(game.resigned):
            found.append("the game is aborted after every seat had acted or resigned (rule 5.6)")
    if kind in ("StartGame", "IssueInvite") and actor != game.host:
        found.append(f"only the host ({game.host}) may {'start the game' if kind == 'StartGame' else 'invite'}, "
                     f"not {actor} (rule 5.5)")
    if kind == "StartGame" and batch[0]["type"] == "PlayersSeated":
        empty = [s for s in game.seats if s not in game.holders and s not in game.bots]
        if empty or dict(first.get("players") or {}) != game.holders:
            found.append("PlayersSeated does not name the seats' holders, or a seat is empty (rule 5.5)")
    if kind == "JoinGame" and batch[0]["type"] == "SeatTaken":
        found += _taking(game, actor, first, None)
    if kind == "LeaveGame" and batch[0]["type"] == "SeatLeft":
        found += _leaving(game, actor, batch)
    if kind == "IssueInvite" and first.get("seat") != meta["command"].get("seat"):
        found.append("InviteIssued names another seat than the command (rule 5.5)")
    if kind == "RedeemInvite" and len(batch) == 2:
        found += _redeeming(game, actor, seat, batch)
    if kind == "CreateRematch" and (game.seat_of(actor) is None or game.seat_of(actor) != seat):
        found.append(f"a rematch asked by {actor}, who does not hold seat {seat} (rule 5.5)")
    if kind == "AbandonSeat":
        found += _abandoning(game, batch)
    if kind == "ComputeClocks" and not _clocked(game.options):
        found.append("ClocksComputed in a game that keeps no clocks (rule 5.5)")
    if kind == "ScoreGame" and batch[0]["type"] == "GameScored":
        found += _standings(game, first.get("standings")) or agreement.ranked_as_it_stands(game, first.get("standings"))
    if kind == "ContributeRandomness":
        found += _contributing(game, actor, seat, first, meta["command"])
    if kind in ("MarkAway", "ReturnSeat"):
        found += away_or_back(game, kind, seat, first)
    if kind in ("AskPause", "ResumeGame"):
        found += pausing(game, kind, actor, seat, batch)
    if kind in ("AskTakeback", "AcceptTakeback", "RefuseTakeback"):
        found += taking_back(game, kind, actor, seat, batch)
    if kind in agreement.KINDS:
        found += agreement.agreeing(game, kind, actor, seat, meta, batch)
    if kind == "GiveTime":
        found += giving_time(game, actor, seat, first, _clocked(game.options))
    if kind in ("move", "bot", "timeout") and game.paused:
        found.append(f"a {kind} batch of {seat} while the game is paused (GamePaused, no GameResumed since) (rule 5.5)")
    if kind == "timeout" and seat in game.away:
        found.append(f"{seat} is timed out while it is away (SeatAway, no SeatBack since) (rule 5.6)")
    return found


def _contributing(game: Seats, actor, seat, data, command) -> list[str]:
    found = []
    if game.randomness_version < 2:
        found.append("a contribution to a game of randomness version 1, which takes none (rule 5.5)")
    if seat is None or game.holders.get(seat) != actor or data.get("seat") != seat:
        found.append(f"SeedContributed for seat {data.get('seat')} by {actor}, who does not hold it (rule 5.5)")
    if data.get("contribution") != command.get("contribution"):
        found.append("SeedContributed records another contribution than the command (rule 5.5)")
    if data.get("seat") in game.contributed:
        found.append(f"{data.get('seat')} contributed before: a seat contributes once (rule 5.5)")
    return found


def _taking(game: Seats, actor, data, seat_wanted) -> list[str]:
    seat = data.get("seat")
    found = []
    if data.get("player") != actor:
        found.append(f"SeatTaken names {data.get('player')}, not the actor {actor} (rule 5.5)")
    if game.seat_of(actor) is not None:
        found.append(f"{actor} already holds {game.seat_of(actor)} (rule 5.5)")
    if seat not in game.seats or seat in game.holders or seat in game.bots:
        found.append(f"seat {seat} is not a free seat of the game (rule 5.5)")
    if seat_wanted is not None and seat != seat_wanted:
        found.append(f"the invite was for seat {seat_wanted}, not {seat} (rule 5.5)")
    return found


def _leaving(game: Seats, actor, batch) -> list[str]:
    data = batch[0]["data"]
    others = [p for s, p in game.holders.items() if p != actor]
    if data.get("player") != actor or game.holders.get(data.get("seat")) != actor:
        return [f"SeatLeft of {data.get('seat')} by {actor}, who does not hold it (rule 5.5)"]
    wanted = None if actor != game.host or not others else others[0]
    cancelled = actor == game.host and not others
    if data.get("new_host") != wanted or (len(batch) == 2) != cancelled:
        return ["SeatLeft names the wrong new host, or the lobby's cancellation is wrong (rule 5.5)"]
    return []


def _redeeming(game: Seats, actor, seat, batch) -> list[str]:
    redeemed, placed = batch[0]["data"], batch[1]
    digest = redeemed.get("code_sha256")
    if redeemed.get("player") != actor:
        return [f"InviteRedeemed names {redeemed.get('player')}, not the actor {actor} (rule 5.5)"]
    if digest not in game.invites:
        return [f"the code {digest} was {'redeemed already' if digest in game.spent else 'never issued'} (rule 5.5)"]
    invited = game.invites[digest]
    if placed["type"] != ("SeatTaken" if game.status == LOBBY else "SeatReplaced"):
        where = "in the lobby" if game.status == LOBBY else "in a running game"
        return [f"a redemption {where} records {placed['type']} (rule 5.3)"]
    if placed["type"] == "SeatTaken":
        return _taking(game, actor, placed["data"], invited) + (
            [] if placed["data"].get("seat") == seat else ["the batch names another seat than SeatTaken (rule 5.5)"])
    data = placed["data"]
    if (data.get("seat"), data.get("player_before"), data.get("player")) != (invited, game.holders.get(invited), actor) \
            or seat != invited or invited not in game.bots or invited in game.resigned \
            or game.seat_of(actor) not in (None, invited):
        return [(f"SeatReplaced of {data.get('seat')} is not the replacement the invite allows: the invite's seat, "
                 "played by a bot, not resigned, taken by the actor (rule 5.5)")]
    return []


def _abandoning(game: Seats, batch) -> list[str]:
    limit = game.options.get("abandon_after", DEFAULT_ABANDON_AFTER)
    found = []
    for record in batch:
        data = record["data"]
        seat = data.get("seat")
        runs = game.streak.get(seat, 0)
        if data.get("player") != game.holders.get(seat) or seat in game.bots or not limit \
                or data.get("timeouts") != runs or runs < limit:
            found.append(f"SeatAbandoned of {seat} after {data.get('timeouts')} timeouts, where the log shows "
                         f"{runs} in a row and abandon_after is {limit} (rule 5.6)")
    return found


def _clocked(options: Mapping[str, Any]) -> bool:
    return bool(options.get("time_bank_seconds") or (options.get("deadline_per_seat") and options.get("turn_seconds")))


def _standings(game: Seats, standings) -> list[str]:
    """Rule 5.8: every seat once; the resigned last, the last to resign first among them."""
    if not isinstance(standings, list) or sorted(s.get("seat") for s in standings) != sorted(game.seats):
        return ["GameScored does not rank every seat exactly once (rule 5.8)"]
    found = []
    if any(not isinstance(s.get("rank"), int) or s["rank"] < 1 for s in standings):
        found.append("a rank in GameScored is not a whole number from 1 (rule 5.8)")
    tail = [s["seat"] for s in standings[len(standings) - len(game.resigned):]] if game.resigned else []
    if tail != list(reversed(game.resigned)) or any(
            not (s.get("detail") or {}).get("resigned") for s in standings if s["seat"] in game.resigned):
        found.append("the resigned seats are not ranked last, the last to resign first among them (rule 5.8)")
    marked = [s["seat"] for s in standings if s["seat"] not in game.resigned and (s.get("detail") or {}).get("abandoned")]
    if sorted(marked) != sorted(s for s in game.abandoned if s not in game.resigned):
        found.append("the seats marked abandoned in GameScored are not the seats abandoned to a bot (rule 5.8)")
    return found


def _closing_problems(game: Seats, commit, closing) -> list[str]:
    """Rule 5.7: what the closing event of a commit records (to_act, turn_came, seated)."""
    meta = commit[-1][1]
    to_act = meta.get("to_act")
    found = []
    if not isinstance(to_act, list) or any(s not in game.seats for s in to_act) or to_act != sorted(set(to_act)):
        return ["to_act is not a sorted list of distinct seats of the game (rule 5.7)"]
    if game.status != ACTIVE and to_act:
        found.append(f"to_act names {', '.join(to_act)} while the game is {game.status} (rule 5.7)")
    before = closing.get("to_act", []) if closing is not None else []
    if "turn_came" in meta:
        came = set(to_act) - set(before)
        players = {seat for seat in came if seat in game.holders and seat not in game.bots}
        if not _strings(meta["turn_came"]) or meta["turn_came"] != sorted(set(meta["turn_came"])) \
                or not players <= set(meta["turn_came"]) <= came:
            found.append("turn_came is not the seats to act now that were not to act before the decision, "
                         "every one a player plays among them (rule 5.7)")
    for at, seen in commit:
        if "seated" in seen and seen["seated"] != game.holders:
            found.append(f"seated at version {at} is not who holds the seats after the decision (rule 5.7)")
            break
    return found
