"""Rule 5.5 for the batches that stop or turn back a game's time: a seat
away and back (an absence), a pause asked and a game resumed, a takeback
asked and answered; checked from the engine's events and the metadata
alone, as section 5 of openapi/verifying-a-game.md states them (split from
``domain.engine_rules``, which calls them)."""

from __future__ import annotations

from .lifecycle.give import LEAST_GIVEN_SECONDS, MOST_GIVEN_SECONDS
from .seat_holders import Seats


def not_its_player(game: Seats, kind: str, actor, seat, data) -> list[str]:
    """Rule 5.5: the batch's actor plays its seat, and its first event names both."""
    if seat is None or game.holders.get(seat) != actor or seat not in game.playing() \
            or (data.get("seat"), data.get("player")) != (seat, actor):
        return [f"the {kind} batch of {seat} by {actor}, who does not play it, or its event names another "
                "seat or player (rule 5.5)"]
    return []


def taking_back(game: Seats, kind: str, actor, seat, batch) -> list[str]:
    """Rule 5.5: a takeback asked by the seat whose move was the last, answered by the others."""
    data = batch[0]["data"]
    request = game.takeback
    found = []
    found += not_its_player(game, kind, actor, seat, data)
    if kind == "AskTakeback":
        last = game.last_move
        if game.options.get("takebacks", "off") != "with-consent" or game.randomness_version < 2:
            found.append("a takeback asked in a game that takes none (option takebacks, or randomness version 1) "
                         "(rule 5.5)")
        if request is not None:
            found.append("a takeback asked while another is open (rule 5.5)")
        if last is None or last[:3] != ("move", seat, data.get("version")) or last[3]:
            found.append(f"{seat} asks to take back the decision on version {data.get('version')}, which is not its "
                         "own last move that drew nothing, with no other seat acting since (rule 5.5)")
        return found
    if request is None:
        return found + [f"a takeback {'accepted' if kind == 'AcceptTakeback' else 'refused'} where none is open "
                        "(rule 5.5)"]
    if seat == request["seat"] or seat in request["accepted"]:
        found.append(f"{seat} answers a takeback it asked for, or accepted already (rule 5.5)")
    if kind == "AcceptTakeback":
        others = game.playing() - {request["seat"]}
        complete = others <= request["accepted"] | {seat}
        if data.get("version") != request["version"] or (len(batch) == 2) != complete \
                or (complete and batch[1]["data"].get("version") != request["version"]):
            found.append("TakenBack does not follow exactly the last acceptance, or a version is not the one asked "
                         "for (rule 5.5)")
    return found


def pausing(game: Seats, kind: str, actor, seat, batch) -> list[str]:
    """Rule 5.5: a pause asked, or a game resumed, by a player who plays the seat."""
    data = batch[0]["data"]
    found = []
    found += not_its_player(game, kind, actor, seat, data)
    if kind == "AskPause":
        if game.paused or seat in game.pause_asked:
            found.append(f"{seat} asks to pause a game that is paused, or asked already (rule 5.5)")
        if (len(batch) == 2) != (game.playing() <= game.pause_asked | {seat}):
            found.append("GamePaused does not follow exactly the ask of the last seat a player plays (rule 5.5)")
    elif not game.paused:
        found.append(f"{seat} resumes a game that is not paused (rule 5.5)")
    return found




def giving_time(game: Seats, actor, seat, data, clocked: bool) -> list[str]:
    """Rule 5.5: time given by a player who plays the seat, to another seat
    not his, in a game with clocks, a gift within the bound."""
    found = []
    if seat is None or game.holders.get(seat) != actor or seat not in game.playing() \
            or (data.get("seat"), data.get("player")) != (seat, actor):
        found.append(f"the GiveTime batch of {seat} by {actor}, who does not play it, or its event names another "
                     "seat or player (rule 5.5)")
    to_seat, seconds = data.get("to_seat"), data.get("seconds")
    if to_seat == seat or to_seat not in game.seats or game.holders.get(to_seat) == actor:
        found.append(f"{seat} gives time to {to_seat}, which is not another player's seat of the game (rule 5.5)")
    if not clocked or game.paused:
        found.append("time given in a game that keeps no clocks, or while it is paused (rule 5.5)")
    if isinstance(seconds, bool) or not isinstance(seconds, int) or seconds < LEAST_GIVEN_SECONDS \
            or game.given.get(seat, 0) + seconds > MOST_GIVEN_SECONDS:
        found.append(f"{seat} gives {seconds!r} s: not a whole number of at least {LEAST_GIVEN_SECONDS}, or beyond "
                     f"the {MOST_GIVEN_SECONDS} s a seat may give in a game (rule 5.5)")
    return found


def away_or_back(game: Seats, kind: str, seat, data) -> list[str]:
    """Rule 5.5: a seat away, or back, is one a player plays, named by the batch."""
    found = []
    if data.get("seat") != seat:
        found.append(f"the {kind} batch of seat {seat} records {data.get('seat')} (rule 5.5)")
    if kind == "MarkAway":
        if game.options.get("absences", "allowed") == "forbidden":
            found.append(f"{seat} is marked away in a game whose options forbid absences (rule 5.5)")
        if not (game.options.get("turn_seconds") or game.options.get("time_bank_seconds")):
            found.append(f"{seat} is marked away in a game without deadlines (rule 5.5)")
        if seat not in game.holders or seat in game.bots or seat in game.resigned or seat in game.away:
            found.append(f"{seat} is marked away, but it is not a seat its player plays, or it is away already "
                         "(rule 5.5)")
        if not (isinstance(data.get("since"), str) and isinstance(data.get("until"), str)
                and data["since"] < data["until"]):
            found.append(f"the absence of {seat} does not run from a since to a later until (rule 5.5)")
    elif seat not in game.away:
        found.append(f"{seat} is back, but it was not away (rule 5.5)")
    return found
