"""legal_commands is exact, on_timeout keeps the game going, and random
seeded games end for 2, 3, 4 and 5 players, replaying after every step."""

from __future__ import annotations

import random

import pytest

from domain.engine import IllegalCommand, rng_for
from domain.games.the_coil import RULES
from domain.games.the_coil.data import NATION_IDS, STRATEGIES
from domain.games.the_coil.messages import (
    ChooseNation, ChooseStrategy, PlaceRegions, Deploy, EndEscalation, EndTurn, Expand, Muster, PlayTactic, Recruit, Scout, ShiftDie, Stop,
    Strategize,
)
from domain.playout import play, start


def _candidates(state, rng: random.Random) -> list:
    """A broad sample of commands, legal or not."""
    regions = [r.card for r in state.coil] + ["celestos-01", "nowhere"]
    cards = sorted({c for hand in state.hands for c in hand}) + ["dedran-07"]
    commands = [Expand(), Muster(), Recruit(), Strategize(), EndEscalation(), EndTurn(), Stop()]
    commands += [Muster(v) for v in range(0, 8)]
    commands += [Scout(n) for n in NATION_IDS + ("atlantis",)]
    commands += [Deploy(v, r) for v in range(0, 8) for r in regions]
    commands += [ShiftDie(v, up) for v in range(0, 8) for up in (True, False)]
    commands += [ChooseStrategy(s) for s in tuple(STRATEGIES) + ("nothing",)]
    commands += [ChooseNation(n) for n in NATION_IDS + ("atlantis",)]
    for _ in range(20):
        picked = rng.sample(regions, min(len(regions), rng.choice((0, 1, 2, 2, 3, 4))))
        commands.append(PlaceRegions(tuple(sorted(picked) if rng.random() < 0.8 else picked)))
    for _ in range(60):
        size = rng.choice((0, 1, 1, 2, 2, 3))
        dice = tuple(rng.randint(0, 7) for _ in range(size))
        commands.append(PlayTactic(rng.choice(cards), dice, rng.choice((None, None, 0, 1, 3, 6, 7))))
    return commands


def _accepts(state, seat, command) -> bool:
    try:
        RULES.decide(state, seat, command, random.Random(1))
    except IllegalCommand:
        return False
    return True


def test_games_played_by_timeouts_alone_reach_the_end():
    for players in (2, 3, 4, 5):
        playout = start(RULES, {"players": players}, players)
        while not playout.over:
            assert playout.steps < 5000
            seat = sorted(RULES.to_act(playout.state))[0]
            rng = rng_for(playout.seed, len(playout.events))
            command = RULES.on_timeout(playout.state, seat, rng)
            assert command in RULES.legal_commands(playout.state, seat)
            events = RULES.decide(playout.state, seat, command, rng)
            playout.events.extend(events)
            playout.state = RULES.replay(events, playout.state)
            playout.steps += 1
        assert RULES.outcome(playout.state)


def test_timeouts_take_no_escalation_action_and_deploy_a_legal_die_in_battle(b):
    state = b.escalation(b.start())
    assert RULES.on_timeout(state, "p1", random.Random(0)) == EndEscalation()
    state = b.battle(b.seat(b.start(), "p1", reserves=(3,)), coil=[("dedran-02", ())])
    assert RULES.on_timeout(state, "p1", random.Random(0)) == Deploy(3, "dedran-02")
    state = b.battle(b.seat(b.start(), "p1", reserves=(3,)), coil=[], had_turn=("p1", "p2", "p3"))
    assert RULES.on_timeout(state, "p1", random.Random(0)) == Stop()


def test_timeouts_choose_the_first_free_nation_and_keep_the_newest_strategy_card(b):
    from dataclasses import replace

    from domain.engine import resolve_options
    from domain.games.the_coil.messages import ChooseNation
    options = resolve_options(RULES.options, {"players": 3})
    state = RULES.replay(RULES.setup(("p1", "p2", "p3"), options, random.Random(0)))
    state = RULES.replay(RULES.decide(state, "p1", ChooseNation("celestos"), random.Random(0)), state)
    assert RULES.on_timeout(state, "p2", random.Random(0)) == ChooseNation("dedran")
    state = replace(b.seat(b.start(), "p2", strategies=("westward", "raiders")), phase="choose", pending=("p2",))
    assert RULES.on_timeout(state, "p2", random.Random(0)) == ChooseStrategy("raiders")


def test_commands_decode_from_json_and_refuse_nonsense_values(b):
    state = b.battle(b.seat(b.start(), "p1", reserves=(3,)), coil=[("dedran-02", ())])
    command = RULES.decode_command({"type": "Deploy", "value": -4, "region": "x"})
    with pytest.raises(IllegalCommand):
        RULES.decide(state, "p1", command, random.Random(0))
    with pytest.raises(IllegalCommand, match="not a seat"):
        RULES.decide(state, "p9", Stop(), random.Random(0))


def test_random_playouts_reach_every_kind_of_event():
    from domain.games.the_coil.messages import EVENTS
    seen = set()
    for players in (2, 3, 4, 5):
        for seed in range(100, 120):
            seen.update(type(e) for e in play(RULES, {"players": players}, seed, check=False).events)
    assert seen == set(EVENTS)
