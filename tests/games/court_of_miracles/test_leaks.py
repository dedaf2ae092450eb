"""Whole-game leak test: two games that differ only in what a seat may not know
look the same to that seat, view by view and event by event.

Game A is a seeded random game. For each viewer (every seat and the spectator)
game B is its twin (RULES.twin, domain/games/court_of_miracles/twin.py): the
Plot cards and rogues the viewer never sees re-dealt. B is then checked to be
a real game: every command of A (with the kinds of B) is decided again on B's
states with the same random sources and must give exactly B's events. Then
the viewer's view, legal commands and event feed must be byte-identical in A
and B after every step."""

from __future__ import annotations

import json
import random
from collections import defaultdict
from dataclasses import replace

from domain.engine import rng_for
from domain.games.court_of_miracles import RULES
from domain.games.court_of_miracles import messages as m
from domain.kit import Step
from domain.playout import random_command, start
from tests.games.told import seen


def dump(value):
    return json.dumps(value, sort_keys=True)


def play_a(players, seed):
    """Game A: its setup events and every step (seat, command, version, events)."""
    playout = start(RULES, {"players": players}, seed)
    bot = random.Random(seed)
    steps = []
    while not playout.over:
        seat = bot.choice(sorted(RULES.to_act(playout.state)))
        command = random_command(RULES, playout.state, seat, bot)
        version = len(playout.events)
        events = RULES.decide(playout.state, seat, command, rng_for(playout.seed, version))
        playout.state = RULES.replay(events, playout.state)
        playout.events.extend(events)
        steps.append(Step(seat, command, version, tuple(events)))
    setup = playout.events[: len(playout.events) - sum(len(s.events) for s in steps)]
    return playout.seed, setup, steps


def game_b(setup, steps, viewer, rng):
    """B's setup and steps: RULES.twin's events, cut as A's steps are, with the
    commands that give them (a placed or discarded rogue of B's kind)."""
    events = RULES.twin(setup, steps, viewer, rng)
    b_setup, at = events[: len(setup)], len(setup)
    b_steps = []
    for s in steps:
        b_events = tuple(events[at: at + len(s.events)])
        at += len(s.events)
        command = s.command
        if isinstance(command, m.PlaceRogue):
            command = replace(command, rogue=b_events[0].rogue)
        elif isinstance(command, m.DiscardRogue):
            command = replace(command, rogue=next(e for e in b_events if isinstance(e, m.RogueDiscarded)).rogue)
        b_steps.append(Step(s.seat, command, s.version, b_events))
    return b_setup, b_steps


def compare(viewer, seed, a_setup, a_steps, b_setup, b_steps):
    """B is a real game (decided again from its commands), and looks like A to ``viewer``."""
    a_state, b_state = RULES.replay(a_setup), RULES.replay(b_setup)
    differing = 0
    for ea, eb in zip(a_setup, b_setup):
        assert dump(seen(RULES, ea, viewer)) == dump(seen(RULES, eb, viewer))
        differing += ea != eb
    for sa, sb in zip(a_steps, b_steps):
        decided = RULES.decide(b_state, sb.seat, sb.command, rng_for(seed, sb.version))
        assert tuple(decided) == sb.events, (sb.command, decided, sb.events)
        for ea, eb in zip(sa.events, sb.events):
            assert dump(seen(RULES, ea, viewer)) == dump(seen(RULES, eb, viewer)), (viewer, ea, eb)
            differing += ea != eb
        a_state, b_state = RULES.replay(sa.events, a_state), RULES.replay(sb.events, b_state)
        assert dump(RULES.view(a_state, viewer)) == dump(RULES.view(b_state, viewer)), (viewer, sa.command)
        if viewer is not None:
            assert RULES.legal_commands(a_state, viewer) == RULES.legal_commands(b_state, viewer)
        differing += a_state != b_state
    return differing


def test_leak_whole_games_differing_only_in_hidden_facts_look_the_same_to_each_seat():
    rng = random.Random(7)
    totals = defaultdict(int)
    for seed in range(6):
        players = 2 + seed % 4
        game_seed, a_setup, a_steps = play_a(players, 300 + seed)
        for viewer in (*RULES.seats({"players": players}), None):
            b_setup, b_steps = game_b(a_setup, a_steps, viewer, rng)
            totals["differing events and states"] += compare(viewer, game_seed, a_setup, a_steps, b_setup, b_steps)
            kinds_changed = {type(ea).__name__ for sa, sb in zip(a_steps, b_steps)
                             for ea, eb in zip(sa.events, sb.events) if ea != eb}
            for name in kinds_changed:
                totals[name] += 1
    # The alternatives really differ: other hands, the bag, and the rogues placed face down.
    assert totals["differing events and states"] > 1000, totals
    assert totals["PlotsDrawn"] > 10 and totals["RoguePlaced"] > 10 and totals["RogueDrawn"] > 3, totals


# Seat life: a player who resigned or was abandoned sees what a spectator sees


def _spectators_twin_state(state, rng):
    """Every fact a spectator may not know drawn again (counts kept): hands,
    supplies, the kinds of the rogues on the board, the drawn rogue, sealed
    Swordsmen answers, the pile's and the bag's order and the Seine."""
    from domain.games.court_of_miracles.data import PLOT_KINDS, ROGUES

    kinds = sorted(ROGUES)
    players = tuple(replace(p, hand=tuple(rng.choice(PLOT_KINDS) for _ in p.hand),
                            supply=tuple(sorted(rng.choice(kinds) for _ in p.supply))) for p in state.players)
    board = tuple(tuple(None if o is None else (o[0], rng.choice(kinds)) for o in row) for row in state.board)
    standoff = state.standoff
    if standoff is not None:
        standoff = replace(standoff, chosen=tuple((s, rng.randint(0, 3)) for s, _ in standoff.chosen))
    return replace(state, players=players, board=board, standoff=standoff,
                   drawn=None if state.drawn is None else rng.choice(kinds),
                   pile=tuple(rng.sample(state.pile, len(state.pile))), bag=tuple(rng.sample(state.bag, len(state.bag))),
                   seine=tuple(rng.choice(kinds) for _ in state.seine))


def _spectators_twin_event(event, rng):
    from domain.games.court_of_miracles.data import PLOT_KINDS, ROGUES

    if isinstance(event, m.PlotsDrawn):
        return replace(event, cards=tuple(rng.choice(PLOT_KINDS) for _ in event.cards))
    if isinstance(event, (m.RoguePlaced, m.RogueDrawn, m.RogueDiscarded)):
        return replace(event, rogue=rng.choice(sorted(ROGUES)))
    if isinstance(event, m.SwordsmenChosen):
        return replace(event, count=rng.randint(0, 3))
    if isinstance(event, m.PlotPileReshuffled):
        return replace(event, pile=tuple(rng.sample(event.pile, len(event.pile))))
    return event


def test_leak_a_seat_s_former_holder_cannot_tell_twin_games_apart_once_he_resigned_or_was_abandoned():
    from tests.games.seat_life import compare_every_scenario

    compared = compare_every_scenario("court-of-miracles", {"players": 3}, "p2",
                                      _spectators_twin_state, _spectators_twin_event)
    assert all(n >= 60 for n in compared.values()), compared
