"""RULES.twin through every door: for each viewer (every seat, the spectator,
the referee) the twin of a seeded game replays, and after every one of its
events the viewer's view, who is to act, the viewer's legal commands and
what the viewer is told of the event are those of the game itself; the twin
really differs where the viewer cannot see, and the referee's is the game.
(test_leaks.py decides the twin's commands again to show it is a real game.)"""

from __future__ import annotations

import json
import random

from domain.engine import EVERYONE, rng_for
from domain.games.court_of_miracles import RULES
from domain.kit import Step
from domain.playout import random_command, start
from tests.games.told import seen


def dump(value):
    return json.dumps(value, sort_keys=True)


def played(players, seed):
    """A seeded random game: its setup events and its steps."""
    playout = start(RULES, {"players": players}, seed)
    setup, bot, steps = list(playout.events), random.Random(seed), []
    while not playout.over:
        seat = bot.choice(sorted(RULES.to_act(playout.state)))
        command = random_command(RULES, playout.state, seat, bot)
        version = len(playout.events)
        events = RULES.decide(playout.state, seat, command, rng_for(playout.seed, version))
        playout.state = RULES.replay(events, playout.state)
        playout.events.extend(events)
        steps.append(Step(seat, command, version, tuple(events)))
    return setup, steps


def doors(state, event, viewer):
    legal = RULES.legal_commands(state, viewer) if viewer not in (None, EVERYONE) else []
    return dump([RULES.view(state, viewer), sorted(RULES.to_act(state)), [c.to_json() for c in legal],
                 seen(RULES, event, viewer)])


def test_the_twin_looks_the_same_as_the_game_to_every_viewer_through_every_door_and_differs_where_unseen():
    rng = random.Random(26)
    differing = {}
    for players in (2, 3, 4, 5):
        setup, steps = played(players, 700 + players)
        events = [*setup, *(e for s in steps for e in s.events)]
        for viewer in (*RULES.seats({"players": players}), None, EVERYONE):
            twin = RULES.twin(setup, steps, viewer, rng)
            assert len(twin) == len(events) and [type(e) for e in twin] == [type(e) for e in events]
            state = twin_state = None
            for event, twin_event in zip(events, twin):
                state, twin_state = RULES.evolve(state, event), RULES.evolve(twin_state, twin_event)
                assert doors(twin_state, twin_event, viewer) == doors(state, event, viewer), (viewer, event)
            assert RULES.outcome(twin_state) == RULES.outcome(state)
            differing[(players, viewer)] = sum(a != b for a, b in zip(events, twin))
    assert all(n == 0 for (_, viewer), n in differing.items() if viewer == EVERYONE), differing
    assert all(n > 0 for (_, viewer), n in differing.items() if viewer != EVERYONE), differing
    assert sum(differing.values()) > 100, differing
