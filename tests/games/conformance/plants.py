"""Checks for the faults a game author plants without noticing, each failing
with a sentence that names the rule broken and where:

- ``decide`` or ``setup`` drawing outside the random source it is given (the
  audit re-runs every decision from its seed; a draw from ``random`` or the
  clock makes a history no referee can re-run);
- ``evolve`` changing the state it was given in place (a held game, a
  snapshot and a replay would then disagree);
- a bot that chooses from anything but its seat's view and legal commands
  (a module-level cache of the state, say): its choice on the real history
  and on the seat's twin, which it cannot tell apart, must be the same.
"""

from __future__ import annotations

import copy
import random

from domain.engine import resolve_options, rng_for
from domain.lifecycle.bots import decide_for

from .playouts import Played, hook, playouts

RERUN_SEEDS = (1, 2)  # the module-level random source is set to each before a re-run
PURITY_EVENTS_PER_PLAYOUT = 300
BOT_CHOICES_PER_SEAT = 6


def _secret(played: Played) -> bytes:
    return f"conformance-{played.seed}".encode()  # as playouts.play draws


def check_decisions_rerun_from_their_seed(game) -> None:
    """Every playout's setup and decisions, re-run from the same seed with the
    module-level random source set otherwise, give the same events."""
    for played in playouts(game):
        resolved = resolve_options(game.options, played.options)
        states = [played.states[n] for n in played.boundaries()]
        for outside in RERUN_SEEDS:
            random.seed(outside)
            again = game.setup(played.seats, resolved, rng_for(_secret(played), 0))
            assert list(again) == list(played.setup), (
                f"{played}: setup gave other events when re-run from the same seed: it draws from something "
                "other than the rng it is given (random's module functions, the clock, a set's order); draw "
                "every random choice from that rng")
            for step, state in zip(played.steps, states):
                random.seed(outside)
                events = game.decide(state, step.seat, step.command, rng_for(_secret(played), step.version))
                assert tuple(events) == step.events, (
                    f"{played}: decide gave other events when {step.seat}'s {step.command!r} at version "
                    f"{step.version} was re-run from the same seed: it draws from something other than the rng "
                    "it is given; draw every random choice from that rng, as the audit re-runs every decision")


def check_evolve_leaves_its_state_alone(game) -> None:
    """``evolve`` returns a new state and leaves the one it was given as it was."""
    for played in playouts(game):
        events = played.events
        every = max(1, len(events) // PURITY_EVENTS_PER_PLAYOUT)
        for n in range(1, len(events), every):
            given = played.states[n - 1]
            before = copy.deepcopy(given)
            game.evolve(given, events[n])
            assert given == before, (
                f"{played}: evolve changed the state it was given in place at event {n} "
                f"({type(events[n]).__name__}): evolve must return a new state (dataclasses.replace) and "
                "leave its argument alone, or a held game, a snapshot and a replay disagree")


def check_bots_choose_from_their_seat_s_view_only(game) -> None:
    """Each bot chooses the same command on the real history and on its
    seat's twin (what the seat may not know drawn again), from one seed."""
    bots = hook(game, "bots")
    twin = hook(game, "twin")
    for played in playouts(game):
        events = played.events
        rests = played.boundaries()
        for seat in played.seats:
            twinned = list(twin(played.setup, played.steps, seat, random.Random(f"{played.seed}/{seat}")))
            if twinned == events:
                continue
            acting = [n for n in rests[:-1] if seat in game.to_act(played.states[n])]
            chosen = set(acting[:: max(1, len(acting) // BOT_CHOICES_PER_SEAT)][:BOT_CHOICES_PER_SEAT])
            twin_state = None
            for n, event in enumerate(twinned):
                previous, twin_state = twin_state, game.evolve(twin_state, event)
                if n not in chosen:
                    continue
                real_state = game.evolve(played.states[n - 1] if n else None, events[n])
                for kind, make in bots.items():
                    real = decide_for(game, real_state, seat, make(), random.Random(f"{played.seed}/{n}"))
                    game.evolve(previous, event)  # the twin's last event again: the bot's world is now the twin's
                    seen = decide_for(game, twin_state, seat, make(), random.Random(f"{played.seed}/{n}"))
                    assert real == seen, (
                        f"{played}: {game.name}'s {kind} bot for {seat} after event {n} chose {real!r} in the real "
                        f"history and {seen!r} in a history {seat} cannot tell from it: a bot chooses from its "
                        "seat's view and legal commands only (choose(view, legal_commands, rng)), never from "
                        "the state or anything kept of it")
