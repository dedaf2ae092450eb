"""Takebacks with consent (domain.lifecycle.takeback) through the one write
path: the decision to take back is found in the game's recent log.
``GameService`` holds one ``Takebacks`` as ``takebacks``."""

from __future__ import annotations

import contextlib
import uuid
from itertools import groupby

from domain import engine_rules
from domain import session as sessions
from domain.lifecycle import takeback as takeback_rules
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
            meta = {**decisions.metadata(player, session.seat_of(player), {"type": command}, session.version),
                    "lifecycle": True}
            return Decision(events, [meta] * len(events))

        return self.execute(game_id, decide)[0]

    def ask_takeback(self, game_id: uuid.UUID, player: str) -> Session:
        def events(rules, session):
            start = max(1, session.version - 2 * sessions.RECENT_STATES)
            tail = self.store.read_stream(f"game-{game_id}", start)
            batches = recent_batches(rules, tail)
            return takeback_rules.ask(rules, session, player, batches[1:] if start > 1 else batches)

        return self._takeback(game_id, player, "AskTakeback", events)

    def accept_takeback(self, game_id: uuid.UUID, player: str) -> Session:
        return self._takeback(game_id, player, "AcceptTakeback", lambda rules, s: takeback_rules.accept(s, player))

    def last_taken_back(self, game_id: uuid.UUID) -> int | None:
        tail = self.store.read_stream(f"game-{game_id}", max(1, self.current_version(game_id) - 3))
        return next((r.data["version"] for r in reversed(tail) if r.type == "TakenBack"), None)

    def refuse_takeback(self, game_id: uuid.UUID, player: str) -> Session:
        return self._takeback(game_id, player, "RefuseTakeback", lambda rules, s: takeback_rules.refuse(s, player))
