"""Pausing a game by its players' agreement, and resuming it
(domain.lifecycle.pause); giving another seat time (domain.lifecycle.give);
through the one write path. ``GameService`` holds one ``Pauses`` as ``pauses``."""

from __future__ import annotations

import uuid

from domain.lifecycle import give as give_rules
from domain.lifecycle import pause as pause_rules
from domain.session import Session

from . import decisions
from .decisions import Decision
from .lifecycle import refusals


class Pauses:
    """Each decision goes through ``execute``, the service's one write path."""

    def __init__(self, execute):
        self.execute = execute

    def _pause_decision(self, game_id: uuid.UUID, player: str, command: str, decide_events,
                        arguments: dict | None = None) -> Session:
        def decide(rules, session):
            with refusals():
                events = decide_events(session, player)
            command_json = {"type": command, **(arguments or {})}
            meta = {**decisions.metadata(player, session.seat_of(player), command_json, session.version),
                    "lifecycle": True}
            return Decision(events, [meta] * len(events))

        return self.execute(game_id, decide)[0]

    def ask_pause(self, game_id: uuid.UUID, player: str) -> Session:
        """The game pauses when the last seat a player plays has asked."""
        return self._pause_decision(game_id, player, "AskPause", pause_rules.ask)

    def resume(self, game_id: uuid.UUID, player: str) -> Session:
        return self._pause_decision(game_id, player, "ResumeGame", pause_rules.resume)

    def give_time(self, game_id: uuid.UUID, player: str, to_seat: str, seconds: int) -> Session:
        """Give another seat more time on its deadline and bank (domain.lifecycle.give)."""
        return self._pause_decision(game_id, player, "GiveTime",
                                    lambda session, who: give_rules.give(session, who, to_seat, seconds),
                                    {"seat": to_seat, "seconds": seconds})
