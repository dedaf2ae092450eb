"""The twin (RULES.twin): a game a viewer cannot tell from the one played,
with what it never sees dealt again, and still a game of these rules."""

from __future__ import annotations

import json
import random
from collections import Counter
from functools import cache

from domain.engine import EVERYONE, rng_for
from domain.games.the_coil import RULES
from domain.games.the_coil.data import CARDS, STRATEGIES
from domain.games.the_coil.messages import DeckShuffled, StrategyDeckShuffled
from domain.kit import Step
from domain.playout import random_command, start


def played(players: int, seed: int, nations: str = "choose", max_steps: int | None = None):
    """A seeded random game: its setup events and every step, as RULES.twin takes them."""
    playout = start(RULES, {"players": players, "nations": nations}, seed)
    setup_events, steps, rng = list(playout.events), [], random.Random(seed)
    while not playout.over and (max_steps is None or len(steps) < max_steps):
        seat = rng.choice(sorted(RULES.to_act(playout.state)))
        command = random_command(RULES, playout.state, seat, rng)
        version = len(playout.events)
        events = RULES.decide(playout.state, seat, command, rng_for(playout.seed, version))
        playout.state = RULES.replay(events, playout.state)
        playout.events.extend(events)
        steps.append(Step(seat, command, version, tuple(events)))
    return playout, setup_events, steps


def dumps(value) -> str:
    return json.dumps(value, sort_keys=True)


def doors(setup_events, steps, events, viewer):
    """What the viewer is shown: each event as it gets it and who is to act
    then, and at the end of the setup and of every step its view and legal
    commands (``events`` are the original's, or its twin's)."""
    shown, state, at = [], None, 0
    for length in (len(setup_events), *(len(step.events) for step in steps)):
        for event in events[at: at + length]:
            state = RULES.evolve(state, event)
            shown.append(dumps([RULES.visible(event, viewer), sorted(RULES.to_act(state))]))
        at += length
        commands = RULES.legal_commands(state, viewer) if viewer in state.seats else []
        shown.append(dumps([RULES.view(state, viewer), [c.to_json() for c in commands]]))
    return shown


def stacked(rng: random.Random, events) -> random.Random:
    """``rng``, but each shuffle of cards puts them in the order the next
    shuffle among ``events`` shows (after drawing from ``rng`` what the shuffle
    draws, so that every later roll is the one the game made)."""
    orders = [list(e.cards) for e in events if isinstance(e, (DeckShuffled, StrategyDeckShuffled))]
    shuffle = rng.shuffle

    def stacked_shuffle(items: list) -> None:
        shuffle(items)
        if items and all(item in CARDS or item in STRATEGIES for item in items):
            order = orders.pop(0)
            assert sorted(order) == sorted(items), "a shuffle of other cards than the game shuffled"
            items[:] = order

    rng.shuffle = stacked_shuffle
    return rng


@cache
def games():
    """A game of each seat count, chosen and dealt nations, and one cut off in its course."""
    return (*(played(players, players, nations=("choose", "random")[players % 2]) for players in (2, 3, 4, 5)),
            played(3, 7, max_steps=120))


def test_no_viewer_can_tell_the_twin_from_the_game_after_any_step():
    for playout, setup_events, steps in games():
        events = [*setup_events, *(e for step in steps for e in step.events)]
        for viewer in (*playout.seats, None):  # the referee's twin is the game itself (below)
            twin = RULES.twin(setup_events, steps, viewer, random.Random(len(events)))
            assert len(twin) == len(events)
            assert doors(setup_events, steps, twin, viewer) == doors(setup_events, steps, events, viewer), viewer


def test_the_twin_is_the_game_the_same_commands_play_from_other_shuffles():
    for playout, setup_events, steps in games():
        for viewer in (*playout.seats, None):
            twin = RULES.twin(setup_events, steps, viewer, random.Random(3))
            twinned_setup = twin[: len(setup_events)]
            rng = stacked(rng_for(playout.seed, 0), twinned_setup)
            assert RULES.setup(playout.seats, playout.options, rng) == twinned_setup
            state, at = RULES.replay(twinned_setup), len(setup_events)
            for step in steps:
                twinned = twin[at: at + len(step.events)]
                assert step.command in RULES.legal_commands(state, step.seat)
                rng = stacked(rng_for(playout.seed, step.version), twinned)
                assert RULES.decide(state, step.seat, step.command, rng) == twinned
                state, at = RULES.replay(twinned, state), at + len(step.events)
            assert RULES.outcome(state) == RULES.outcome(playout.state)
            if playout.over:
                assert RULES.score(state) == RULES.score(playout.state)


def test_the_twin_deals_again_the_cards_a_viewer_never_sees():
    differs = Counter()
    for playout, setup_events, steps in games():
        events = [*setup_events, *(e for step in steps for e in step.events)]
        for viewer in (*playout.seats, None):
            twin = RULES.twin(setup_events, steps, viewer, random.Random(11))
            differs[viewer is None] += twin != events
            final = RULES.replay(twin)
            differs["another hand"] += any(final.hands[i] != playout.state.hands[i] for i in range(len(final.seats))
                                           if final.seats[i] != viewer)
            others = [i for i, seat in enumerate(playout.seats) if seat != viewer]
            mine = [i for i, seat in enumerate(playout.seats) if seat == viewer]
            assert [final.hands[i] for i in mine] == [playout.state.hands[i] for i in mine]
            assert [len(final.hands[i]) for i in others] == [len(playout.state.hands[i]) for i in others]
    assert differs[True] == 5 and differs[False] >= 12 and differs["another hand"] >= 5, differs


def test_the_referee_s_twin_is_the_game_itself():
    _, setup_events, steps = played(2, 1)
    events = [*setup_events, *(e for step in steps for e in step.events)]
    assert RULES.twin(setup_events, steps, EVERYONE, random.Random(0)) == events
