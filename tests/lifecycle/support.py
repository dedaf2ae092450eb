"""Pure sessions for the lifecycle's domain tests: created, joined and
started through the session's and the lifecycle's own decisions."""

from __future__ import annotations

import random

from domain import games as registry
from domain import session as sessions
from domain.engine import rng_for
from domain.lifecycle import decide as lifecycle

SEED = b"lifecycle-test-seed-0123456789ab"


class Game:
    def __init__(self, game, options: dict | None = None, seed: bytes = SEED):
        """``game``: a hosted game's name, or a game itself (the conformance suite's example)."""
        self.rules = registry.get(game) if isinstance(game, str) else game
        self.seed = seed
        self.events = lifecycle.create(self.rules, "player-1", options or {}, seed, None)
        self.session = sessions.replay(self.rules, self.events)

    def apply(self, events):
        events = list(events)
        self.events += events
        self.session = sessions.replay(self.rules, events, self.session)
        return events

    def fill_and_start(self):
        n = 2
        for seat in self.session.seats:
            if seat not in self.session.players and seat not in self.session.life.bots:
                self.apply(sessions.join(self.session, f"player-{n}", seat))
                n += 1
        return self.apply(sessions.start(self.rules, self.session, self.session.host, rng_for(self.seed, self.session.version)))

    def player(self, seat: str) -> str:
        return self.session.players[seat]

    @property
    def to_act(self):
        return sessions.to_act(self.rules, self.session)

    def move(self, seat: str | None = None, rng: random.Random | None = None):
        """A random legal command of ``seat`` (or of the first seat to act)."""
        seat = seat or sorted(self.to_act)[0]
        command = (rng or random.Random(self.session.version)).choice(self.rules.legal_commands(self.session.state, seat))
        return self.apply(sessions.play(self.rules, self.session, seat, command,
                                        rng_for(self.seed, self.session.version), self.seed))

    def time_out(self, seat: str):
        command = self.rules.on_timeout(self.session.state, seat, rng_for(self.seed + b"/timeout", self.session.version))
        return self.apply(sessions.timed_out(self.rules, self.session, seat, command,
                                             rng_for(self.seed, self.session.version), self.seed))


def started(game: str, options: dict | None = None) -> Game:
    table = Game(game, options)
    table.fill_and_start()
    return table
