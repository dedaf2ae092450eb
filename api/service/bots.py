"""The bots' moves: every seat a bot plays moves when it is to act, one job
per version of the game (``workers.bots.play_bots``), a while after the
version it answers (BOARDLOG_BOT_DELAY). A bot decides with the game's
draws (domain.lifecycle.bots), so its move replays like anyone's.

``GameService`` holds one ``Bots`` as ``bots``; a missed turn is played out
seat by seat the same way (``seat_by_seat``, ``GameService.fire_deadline``).
"""

from __future__ import annotations

import datetime as dt
import uuid

from domain import session as sessions
from domain.lifecycle import bots as bot_rules
from domain.session import Session

from .settings import env_number
from . import decisions
from .decisions import Decision
from .errors import PreconditionFailed


def bot_delay_seconds() -> float:
    """How long a bot waits before it moves (BOARDLOG_BOT_DELAY, seconds)."""
    return env_number("BOARDLOG_BOT_DELAY", 2.0, minimum=0, kind=float)


class Bots:
    """Each decision goes through ``execute``, the service's one write path,
    with the draws of the game's ``seed``; ``scheduler`` sets the bots' jobs."""

    def __init__(self, execute, seed, scheduler):
        self.execute = execute
        self.seed = seed
        self.scheduler = scheduler

    def play_bots(self, game_id: uuid.UUID, version: int) -> bool:
        """Every seat a bot plays and that is to act moves, if the game is
        still at ``version``; a bot job that runs twice or late changes nothing."""
        seed = self.seed(game_id)

        def bot_move(rules, current, seat):
            kind = current.life.plays(seat)
            draws = sessions.source(current, seed)
            command = bot_rules.decide_for(rules, current.state, seat, bot_rules.make(rules.name, kind),
                                          draws.bot(seat, current.version))
            batch = sessions.play(rules, current, seat, command, draws.game(current.version), seed)
            meta = decisions.metadata(f"bot:{kind}", seat, command.to_json(), current.version, draws=draws.draws())
            return batch, [{**meta, "bot": kind}] * len(batch)

        return self.seat_by_seat(game_id, version, self.bots_to_act, bot_move)

    def seat_by_seat(self, game_id, version: int, seats_of, one_seat, afterwards=None) -> bool:
        """One decision for several seats at ``version`` (timeouts, bots):
        each seat still to act in turn moves on the state the previous left;
        nothing if the game moved since. ``one_seat`` gives a seat's events
        and the metadata of each. ``afterwards`` may add a decision."""

        def decide(rules, session):
            if session.version != version or session.status != sessions.ACTIVE:
                return Decision([], [])
            events, metadata, current = [], [], session
            seats = seats_of(rules, session)
            for seat in seats:
                if current.status != sessions.ACTIVE or seat not in sessions.to_act(rules, current):
                    continue
                batch, meta = one_seat(rules, current, seat)
                events += batch
                metadata += meta
                current = sessions.replay(rules, batch, current)
            if afterwards is not None and current.status == sessions.ACTIVE:
                more = afterwards(rules, current, seats)
                events += more.events
                metadata += more.metadata
            return Decision(events, metadata)

        try:
            _, events = self.execute(game_id, decide, if_match=version)
        except PreconditionFailed:
            return False
        return bool(events)

    def bots_to_act(self, rules, session: Session) -> list[str]:
        if session.status != sessions.ACTIVE or session.life.paused:
            return []
        return sorted(seat for seat in sessions.to_act(rules, session) if session.life.plays(seat))

    def schedule_bots(self, game_id, rules, session: Session) -> None:
        if self.bots_to_act(rules, session):
            at = dt.datetime.now(dt.timezone.utc) + dt.timedelta(seconds=bot_delay_seconds())
            self.scheduler.schedule_bot(str(game_id), session.version, at)
