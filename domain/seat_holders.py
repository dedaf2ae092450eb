"""The seats of a game as its engine events leave them, and what each seat
did: rule 5.1 and the counts of rule 5.6 of openapi/verifying-a-game.md,
folded from the log alone (``domain.engine_rules`` checks the log with them).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .lifecycle.clocks import continues_missed_turn

LOBBY, ACTIVE, SCORING, FINISHED, CANCELLED = "lobby", "active", "scoring", "finished", "cancelled"
SEAT_LIFE_COMMANDS = {"ResignSeat", "AbortGame", "IssueInvite", "RedeemInvite", "CreateRematch", "AbandonSeat",
                      "ComputeClocks", "MarkAway", "ReturnSeat", "AskPause", "ResumeGame",
                      "AskTakeback", "AcceptTakeback", "RefuseTakeback", "GiveTime",
                      "ProposeEnd", "AcceptEnd", "WithdrawEnd"}


@dataclass
class Seats:
    """The engine's part of a game, folded from its engine events (rule 5.1)."""

    seats: tuple = ()
    host: str = ""
    options: Mapping[str, Any] = field(default_factory=dict)
    status: str = LOBBY
    holders: dict = field(default_factory=dict)  # seat -> player, in the order the seats were taken
    bots: dict = field(default_factory=dict)  # seat -> bot kind
    resigned: list = field(default_factory=list)
    abandoned: list = field(default_factory=list)
    invites: dict = field(default_factory=dict)  # open code sha256 -> seat or None
    spent: set = field(default_factory=set)
    rematch: str | None = None
    acted: set = field(default_factory=set)
    streak: dict = field(default_factory=dict)  # seat -> consecutive timeouts
    randomness_version: int = 1
    contributed: set = field(default_factory=set)  # seats whose SeedContributed came
    away: set = field(default_factory=set)  # seats between their SeatAway and SeatBack
    pause_asked: set = field(default_factory=set)  # seats whose PauseAsked came since the last GameResumed
    paused: bool = False
    takeback: dict | None = None  # the open request: seat, version, accepted (a set of seats)
    last_move: tuple | None = None  # (kind, seat, decided_at, drew) of the last move, bot move or timeout
    given: dict = field(default_factory=dict)  # seat -> the seconds its player gave others (TimeGiven)
    proposal: dict | None = None  # the open proposal to end the game: seat, ending, accepted (a set of seats)
    agreed: str | None = None  # the ending its players agreed on (EndAgreed)

    def fold(self, kind: str, data: Mapping[str, Any]) -> None:
        if kind == "GameCreated":
            self.seats, self.host, self.options = tuple(data["seats"]), data["host"], dict(data["options"])
            self.randomness_version = data.get("randomness_version", 1)
        elif kind == "SeedContributed":
            self.contributed.add(data["seat"])
        elif kind == "SeatTaken":
            self.holders[data["seat"]] = data["player"]
        elif kind == "SeatLeft":
            self.holders.pop(data["seat"], None)
            self.host = data.get("new_host") or self.host
        elif kind in ("GameCancelled", "GameAborted"):
            self.status = CANCELLED
        elif kind == "PlayersSeated":
            self.status, self.holders = ACTIVE, dict(data["players"])
        elif kind == "GameOver":
            self.status = SCORING
        elif kind == "GameScored":
            self.status = FINISHED
        elif kind == "BotSeated":
            self.bots[data["seat"]] = data["kind"]
        elif kind == "SeatResigned":
            self.resigned.append(data["seat"])
            if data.get("bot"):
                self.bots[data["seat"]] = data["bot"]
        elif kind == "SeatAbandoned":
            self.bots[data["seat"]] = data["bot"]
            self.abandoned.append(data["seat"])
        elif kind == "InviteIssued":
            self.invites[data["code_sha256"]] = data.get("seat")
        elif kind == "InviteRedeemed":
            self.invites.pop(data["code_sha256"], None)
            self.spent.add(data["code_sha256"])
        elif kind == "SeatReplaced":
            self.holders[data["seat"]] = data["player"]
            self.bots.pop(data["seat"], None)
            self.abandoned = [s for s in self.abandoned if s != data["seat"]]
        elif kind == "RematchCreated":
            self.rematch = data["game_id"]
        elif kind == "SeatAway":
            self.away.add(data["seat"])
        elif kind == "SeatBack":
            self.away.discard(data["seat"])
        elif kind == "PauseAsked":
            self.pause_asked.add(data["seat"])
        elif kind == "GamePaused":
            self.paused = True
        elif kind == "GameResumed":
            self.paused, self.pause_asked = False, set()
        elif kind == "TimeGiven":
            seconds = data.get("seconds")
            if isinstance(seconds, int) and not isinstance(seconds, bool):
                self.given[data.get("seat")] = self.given.get(data.get("seat"), 0) + seconds
        elif kind == "TakebackAsked":
            self.takeback = {"seat": data["seat"], "version": data["version"], "accepted": set()}
        elif kind == "TakebackAccepted" and self.takeback is not None:
            self.takeback["accepted"].add(data["seat"])
        elif kind == "TakebackRefused":
            self.takeback = None
        elif kind == "EndProposed":
            self.proposal = {"seat": data["seat"], "ending": data["ending"], "accepted": set()}
        elif kind == "EndAccepted" and self.proposal is not None:
            self.proposal["accepted"].add(data["seat"])
        elif kind == "EndWithdrawn":
            self.proposal = None
        elif kind == "EndAgreed":
            self.proposal, self.agreed = None, data["ending"]
            if data["ending"] == "cancelled":
                self.status = CANCELLED
        elif kind == "TakenBack":
            self.takeback, self.last_move = None, None

    def playing(self) -> set:
        """The seats a player plays: held, not by a bot, not resigned."""
        return {seat for seat in self.holders if seat not in self.bots and seat not in self.resigned}

    def seat_of(self, player: str) -> str | None:
        return next((seat for seat, holder in self.holders.items() if holder == player), None)

    def count(self, kind: str, meta: Mapping[str, Any]) -> None:
        """Rule 5.6: who has acted, and each seat's run of consecutive timeouts."""
        seat = meta.get("seat")
        if seat is None or (kind in SEAT_LIFE_COMMANDS and kind != "RedeemInvite") or continues_missed_turn(meta):
            return
        if kind == "RedeemInvite":
            self.streak[seat] = 0
            return
        self.acted.add(seat)
        self.streak[seat] = self.streak.get(seat, 0) + 1 if kind == "timeout" else 0
