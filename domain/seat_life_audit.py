"""Seat-life batches decided again, for the audit: resign, abort, abandon,
invites and replacements, rematches, with the very functions the live
server decides them with (``domain.lifecycle.decide``), called as the
service calls them (api/service/lifecycle.py).

Two things they depend on are not in the log, so they are stood in for:
an invite code's plain text (only its sha256 is recorded) and the clock
(ClocksComputed). A redemption is decided as if the player had given the
code whose sha256 the log records; clocks are only checked to fold.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from .engine import IllegalCommand
from .kit import Game
from .lifecycle import absence, agreement, give, pause, takeback
from .lifecycle import clocks as clock_rules
from .lifecycle import decide as lifecycle
from .lifecycle.state import InviteIssued, InviteRedeemed, RematchCreated

# The code the audit gives in place of the one the player gave (never recorded).
STAND_IN_CODE = "the code whose sha256 the log records"
STAND_IN = lifecycle.code_sha256(STAND_IN_CODE)


def redecide_seat_life(rules: Game, session, meta: Mapping[str, Any], batch: list, seed: bytes, past,
                       batches=()) -> list | None:
    """The events the recorded seat-life command gives on ``session``
    (``past``: each earlier batch's (seat, timed out, replaced), as
    ``lifecycle.history`` reads them), or None where it is only checked to
    fold. Raises IllegalCommand where the live server refuses it."""
    command = meta.get("command") if isinstance(meta.get("command"), Mapping) else {}
    kind = command.get("type")
    actor = meta.get("actor")
    if kind == "ResignSeat":
        return lifecycle.resign(rules, session, actor, seed)
    if kind == "AbortGame":
        acted, _ = lifecycle.history(past)
        return lifecycle.abort(rules, session, actor, acted)
    if kind == "IssueInvite":
        events = lifecycle.issue_invite(session, actor, command.get("seat"), STAND_IN_CODE)
        recorded = batch[0].code_sha256 if isinstance(batch[0], InviteIssued) else STAND_IN
        return [replace(event, code_sha256=recorded) for event in events]
    if kind == "RedeemInvite":
        return _redeemed(session, actor, batch)
    if kind == "AbandonSeat":
        # The service counts the timeouts before the ones it just decided, plus
        # one; here those are in ``past`` already.
        _, streak = lifecycle.history(past)
        events: list = []
        for event in batch:
            if type(event).__name__ != "SeatAbandoned":
                raise IllegalCommand(f"an abandonment records {type(event).__name__}, not SeatAbandoned")
            events += lifecycle.abandon(rules, session, event.seat, streak.get(event.seat, 0))
        return events
    if kind == "CreateRematch":
        from . import (
            games,  # a rematch is created under the rules installed when it is asked for
        )

        lifecycle.rematch(games.get(rules.name) or rules, session, actor, "", bytes(32))
        return [RematchCreated(getattr(batch[0], "game_id", ""))]
    if kind == "ComputeClocks":
        if session.status != "active" or not clock_rules.clocked(session.options):
            raise lifecycle.NotNow(f"the game is {session.status} and keeps "
                                   f"{'clocks' if clock_rules.clocked(session.options) else 'no clocks'}: "
                                   "no ClocksComputed is recorded")
        return None  # the banks come from the server's clock, which the log does not hold
    if kind == "MarkAway":
        # The absence is the player's, outside the log: its dates are taken as recorded.
        away = batch[0]
        if type(away).__name__ != "SeatAway":
            raise IllegalCommand(f"a seat marked away records {type(away).__name__}, not SeatAway")
        return absence.mark_away(session, meta.get("seat"), away.since, away.until)
    if kind == "ReturnSeat":
        return absence.back(session, meta.get("seat"))
    if kind == "AskTakeback":
        return takeback.ask(rules, session, actor, batches)
    if kind == "AcceptTakeback":
        return takeback.accept(session, actor)
    if kind == "RefuseTakeback":
        return takeback.refuse(session, actor)
    if kind == "AskPause":
        return pause.ask(session, actor)
    if kind == "ResumeGame":
        return pause.resume(session, actor)
    if kind == "GiveTime":
        return give.give(session, actor, command.get("seat"), command.get("seconds"))
    if kind == "ProposeEnd":
        return agreement.propose(rules, session, actor, command.get("ending"), seed)
    if kind == "AcceptEnd":
        return agreement.accept(rules, session, actor, seed)
    if kind == "WithdrawEnd":
        return agreement.withdraw(session, actor)
    raise IllegalCommand(f"{kind!r} is not a seat-life command")


def _redeemed(session, actor: str, batch: list) -> list:
    """``lifecycle.redeem`` on the session with the recorded code's sha256
    swapped for the stand-in's, so that whether it was issued, spent, for
    which seat, in which status, all is decided as the server decides it."""
    digest = batch[0].code_sha256 if isinstance(batch[0], InviteRedeemed) else None
    life = session.life

    def swapped(code: str) -> str:
        return STAND_IN if code == digest else code

    stand_in = replace(session, life=replace(
        life, invites={swapped(code): seat for code, seat in life.invites.items()},
        spent=frozenset(swapped(code) for code in life.spent)))
    events = lifecycle.redeem(stand_in, actor, STAND_IN_CODE)
    return [replace(event, code_sha256=digest) if isinstance(event, InviteRedeemed) else event for event in events]
