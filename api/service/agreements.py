"""Ending a game by agreement (domain.lifecycle.agreement) through the one
write path. ``GameService`` holds one ``Agreements`` as ``agreements``."""

from __future__ import annotations

import uuid

from domain.games import title_of
from domain.lifecycle import agreement
from domain.notices import END_PROPOSED, Notice, proposal_sentence
from domain.session import Session

from .lifecycle import lifecycle_decision, refusals
from .settings import settings


class Agreements:
    """Each decision goes through ``execute``; a game ended as it stands
    publishes its ``seed`` in GameOver, as every ending does."""

    def __init__(self, execute, seed):
        self.execute = execute
        self.seed = seed

    def _decide(self, game_id: uuid.UUID, player: str, command: dict, decide_events) -> Session:
        def decide(rules, session):
            with refusals():
                events = decide_events(rules, session)
            return lifecycle_decision(player, session.seat_of(player), command, session, events)

        return self.execute(game_id, decide)[0]

    def propose(self, game_id: uuid.UUID, player: str, ending: str) -> Session:
        seed = self.seed(game_id)
        return self._decide(game_id, player, {"type": "ProposeEnd", "ending": ending},
                            lambda rules, session: agreement.propose(rules, session, player, ending, seed))

    def accept(self, game_id: uuid.UUID, player: str, seat: str | None = None) -> Session:
        seed = self.seed(game_id)
        return self._decide(game_id, player, {"type": "AcceptEnd"},
                            lambda rules, session: agreement.accept(rules, session, player, seed, seat))

    def withdraw(self, game_id: uuid.UUID, player: str) -> Session:
        return self._decide(game_id, player, {"type": "WithdrawEnd"},
                            lambda rules, session: agreement.withdraw(session, player))


def told(service, notice: Notice) -> dict:
    """A notice as a player's stream tells it: a proposal to end with its
    sentence, naming its proposer (the notifier's say the same: workers/notify/derive.py)."""
    shown = notice.to_json()
    if notice.kind == END_PROPOSED:
        proposer = notice.data.get("player")
        with service.pool.connection() as conn:
            row = conn.execute("select game from games where id = %s", (notice.game_id,)).fetchone()
        shown["data"]["text"] = proposal_sentence(
            service.player_names.of([proposer]).get(proposer) or "A player", title_of(row[0] if row else None),
            notice.data.get("ending"), f"{settings().public_url}/#/games/{notice.game_id}")
    return shown
