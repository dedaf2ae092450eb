"""The view declaration (RULES.view_shape) describes every view every viewer
gets: through seeded playouts of every seat count, and in the views a playout
rarely reaches."""

import random
from dataclasses import replace

import pytest

from domain.engine import EVERYONE
from domain.games.runebound import RULES, data
from domain.games.runebound import messages as m
from domain.playout import start, step


def described(state):
    for viewer in (*state.seats, None, EVERYONE):
        assert RULES.view_shape.problems(RULES.view(state, viewer)) == [], (viewer, state.step)


def test_every_object_and_field_of_the_declaration_has_a_description():
    assert RULES.view_shape.undescribed() == []


# A seed for each seat count (one whose game is not among the longest).
SEEDS = {2: 0, 3: 1, 4: 0, 5: 3, 6: 2}


@pytest.mark.parametrize("players", sorted(SEEDS))
def test_every_view_of_a_seeded_playout_is_described(players):
    options = {"players": players, "choose_heroes": players % 2 == 0}
    playout = start(RULES, options, SEEDS[players])
    rng = random.Random(SEEDS[players])
    steps = set()
    while True:
        if playout.steps % 4 == 0 or playout.over or playout.state.step in ("choosing", "placing"):
            described(playout.state)
            steps.add(playout.state.step)
        if playout.over:
            break
        step(playout, rng, check=False)
    assert {"move", "combat", "over"} <= steps


def test_a_challengers_declaration_is_described_for_him_the_referee_and_the_others(rb):
    from tests.games.runebound.test_endgame import confronting

    state = confronting(rb, players=3)
    _, state = rb.act(state, state.combat.seat, m.Defend())
    assert RULES.view(state, state.combat.seat)["combat"]["declared"] == "defend"
    assert RULES.view(state, EVERYONE)["combat"]["declared"] == "defend"
    described(state)


def test_the_view_after_both_heroes_fall_together_is_described(rb):
    from tests.games.runebound.test_endgame import confronting

    state = confronting(rb, players=2)
    state = RULES.replay([m.Suffered(seat="p1", wounds=11, exhaustion=0),
                          m.Suffered(seat="p2", wounds=9, exhaustion=0)], state)
    _, state = rb.act(state, "p2", m.Attack())
    _, state = rb.act(state, "p1", m.Attack(), rb.Dice(10))
    assert state.endgame.king is None and state.step == "over"
    described(state)


def test_the_view_when_no_adventure_is_left_is_described(rb):
    blue_only = tuple(place for place in data.WILDS if data.PLACES[place]["counter"] == "blue")
    state = replace(rb.given(m.Moved(seat="p1", place="Tamalir"), players=2, decks={"crown_blue": ()}),
                    counters=blue_only)
    _, state = rb.act(state, "p1", m.EndTurn())
    assert state.result and state.winner is None
    described(state)


def test_the_view_while_heroes_are_chosen_and_once_dealt_is_described():
    for choose in (True, False):
        described(RULES.replay(RULES.setup(("p1", "p2", "p3"), {"players": 3, "choose_heroes": choose},
                                           random.Random(0))))
