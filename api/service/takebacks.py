"""Takebacks with consent (domain.lifecycle.takeback) through the one write
path: the decision to take back is found in the game's recent log.
``GameService`` holds one ``Takebacks`` as ``takebacks``."""

from __future__ import annotations

import contextlib
import uuid
from dataclasses import replace
from itertools import groupby

from domain import engine_rules
from domain import session as sessions
from domain.lifecycle import clocks as clock_rules
from domain.lifecycle import takeback as takeback_rules
from domain.lifecycle.state import TakenBack
from domain.session import Session

from . import decisions
from .decisions import Decision
from .errors import Conflict
from .lifecycle import refusals


class NothingToTakeBack(Conflict):
    kind = "nothing-to-take-back"


@contextlib.contextmanager
def _refusals():
    """Nothing to take back is a 409 of its own; the rest as every seat-life refusal."""
    with refusals():
        try:
            yield
        except takeback_rules.NothingToTakeBack as error:
            raise NothingToTakeBack(error.message) from None


def recent_batches(rules, records) -> list[takeback_rules.Batch]:
    """The decisions of ``records`` (a tail of the log), as batches of decoded events."""
    batches = []
    for _, group in groupby(records, key=lambda record: engine_rules.batch_key(record.metadata)):
        group = list(group)
        events = [sessions.decode_stored(rules, r.type, r.schema_version, r.data) for r in group]
        batches.append(takeback_rules.Batch(group[0].metadata, events))
    return batches


class Takebacks:
    """Each decision goes through ``execute``, the service's one write path;
    the recent log is read from ``store``."""

    def __init__(self, execute, store, current_version):
        self.execute = execute
        self.store = store
        self.current_version = current_version

    def _takeback(self, game_id: uuid.UUID, player: str, command: str, decide_events) -> Session:
        def decide(rules, session):
            with _refusals():
                events = decide_events(rules, session)
            return self._decision(session, player, command, events)

        return self.execute(game_id, decide)[0]

    @staticmethod
    def _decision(session, player: str, command: str, events) -> Decision:
        meta = {**decisions.metadata(player, session.seat_of(player), {"type": command}, session.version),
                "lifecycle": True}
        return Decision(events, [meta] * len(events))

    def ask_takeback(self, game_id: uuid.UUID, player: str) -> Session:
        def events(rules, session):
            start = max(1, session.version - 2 * sessions.RECENT_STATES)
            tail = self.store.read_stream(f"game-{game_id}", start)
            batches = recent_batches(rules, tail)
            return takeback_rules.ask(rules, session, player, batches[1:] if start > 1 else batches)

        return self._takeback(game_id, player, "AskTakeback", events)

    def accept_takeback(self, game_id: uuid.UUID, player: str) -> Session:
        def decide(rules, session):
            with _refusals():
                events = takeback_rules.accept(session, player)
            decision = self._decision(session, player, "AcceptTakeback", events)
            if not any(isinstance(event, TakenBack) for event in decision.events):
                return decision
            request = session.life.takeback
            bank = self._bank_when_moved(game_id, rules, request.version, request.seat)
            return replace(decision, banks_taken_back=None if bank is None else {request.seat: bank})

        return self.execute(game_id, decide)[0]

    def _bank_when_moved(self, game_id: uuid.UUID, rules, version: int, seat: str) -> float | None:
        """The seat's bank when it made the move decided at ``version``
        (domain.lifecycle.clocks.bank_when_moved), from the clocks recorded
        just before the move (the last event of the decision before it) and
        with it."""
        clocks = [(record.version, sessions.decode_stored(rules, record.type, record.schema_version, record.data))
                  for record in self.store.read_stream(f"game-{game_id}", version)
                  if record.type == "ClocksComputed"]
        before = next((tick for at, tick in clocks if at == version), None)
        move = next((tick for at, tick in clocks if at > version), None)
        return clock_rules.bank_when_moved(before, move, seat)

    def last_taken_back(self, game_id: uuid.UUID) -> int | None:
        tail = self.store.read_stream(f"game-{game_id}", max(1, self.current_version(game_id) - 3))
        return next((r.data["version"] for r in reversed(tail) if r.type == "TakenBack"), None)

    def refuse_takeback(self, game_id: uuid.UUID, player: str) -> Session:
        return self._takeback(game_id, player, "RefuseTakeback", lambda rules, s: takeback_rules.refuse(s, player))
