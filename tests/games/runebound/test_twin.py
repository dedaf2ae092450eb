"""RULES.twin: a game each viewer cannot tell from the one played. The twin
replays, is what these rules decide from its own states, and at every step
shows the viewer the same view, the same seats to act, the same legal
commands and the same events (with their sentences); and it is not the
same game."""

import json
import random

import pytest

from domain.engine import EVERYONE, rng_for
from domain.games.runebound import RULES
from domain.games.runebound import messages as m
from tests.games.runebound.conftest import played
from tests.games.told import seen as told


def dump(value) -> str:
    return json.dumps(value, sort_keys=True)


def cut(game: list, setup, steps):
    """``game`` (a whole history) split as the played one is: setup, then each step's events."""
    first = len(setup)
    parts = [game[:first]]
    for step in steps:
        parts.append(game[first:first + len(step.events)])
        first += len(step.events)
    assert first == len(game)
    return parts


def states(parts):
    """The state after each part of a history."""
    state, out = None, []
    for part in parts:
        state = RULES.replay(part, state)
        out.append(state)
    return out


def doors_match(setup, steps, viewer, twin_events, played_states=None, last=None):
    """Compare every door at every step (or the ``last`` few) of the played game and its twin."""
    events = [*setup, *(e for s in steps for e in s.events)]
    original, twinned = cut(events, setup, steps), cut(twin_events, setup, steps)
    for event, other in zip(events, twin_events):
        if event is not other:
            assert dump(told(RULES, event, viewer)) == dump(told(RULES, other, viewer)), (event, other)
    pairs = list(zip(played_states or states(original), states(twinned)))
    for state, twin in pairs[-last:] if last else pairs:
        assert RULES.view(state, viewer) == RULES.view(twin, viewer)
        assert RULES.to_act(state) == RULES.to_act(twin)
        for seat in state.seats:
            assert RULES.legal_commands(state, seat) == RULES.legal_commands(twin, seat)


def decided_again(seed, setup, steps, twin_events):
    """Each step of the twin is what these rules decide on the twin's own state,
    with the command its events show (a re-drawn declaration is the other command)."""
    parts = cut(twin_events, setup, steps)
    state = RULES.replay(parts[0])
    for step, events in zip(steps, parts[1:]):
        command = step.command
        if isinstance(events[-1], m.ActionDeclared):
            command = m.Defend() if events[-1].action == "defend" else m.Attack()
        assert RULES.decide(state, step.seat, command, rng_for(seed, step.version)) == list(events)
        state = RULES.replay(events, state)


# Every seat count; all but one played to the Elder King's victory, one ended by the doom limit.
GAMES = [(2, 0, 0), (2, 1, 0), (3, 1, 0), (4, 0, 0), (5, 2, 20), (6, 2, 0)]


@pytest.mark.parametrize("players, seed, doom_rounds", GAMES)
def test_no_viewer_can_tell_the_twin_from_the_game_and_the_twin_is_a_game_of_these_rules(players, seed, doom_rounds):
    seed_bytes, setup, steps = played(players, seed, {"doom_rounds": doom_rounds})
    seats = RULES.seats({"players": players})
    played_states = states(cut([*setup, *(e for s in steps for e in s.events)], setup, steps))
    for n, viewer in enumerate((*seats, None, EVERYONE)):
        twin_events = RULES.twin(setup, steps, viewer, random.Random(n))
        decided_again(seed_bytes, setup, steps, twin_events)
        doors_match(setup, steps, viewer, twin_events, played_states)


def test_the_twin_re_stacks_the_cards_never_drawn_and_keeps_those_drawn():
    seed, setup, steps = played(3, 0)
    drawn = {}
    for event in (e for s in steps for e in s.events):
        if isinstance(event, m.CardDrawn):
            drawn.setdefault(event.deck, set()).add(event.card)
    twin = RULES.twin(setup, steps, "p1", random.Random(1))
    before, after = setup[0].decks, twin[0].decks
    assert any(before[name] != after[name] for name in before)
    for name, cards in before.items():
        kept = len(drawn.get(name, ()))
        assert sorted(after[name]) == sorted(cards)
        assert after[name][:kept] == cards[:kept]
    assert after["red"][-1] == before["red"][-1] == "Lord Margath"
    assert twin[1:] == [e for s in steps for e in s.events]


def test_the_referee_s_twin_is_the_game_itself():
    _, setup, steps = played(3, 1)
    assert RULES.twin(setup, steps, EVERYONE, random.Random(0)) == [*setup, *(e for s in steps for e in s.events)]


def declared_positions(games=12):
    """Games cut right after a challenger declared against the Elder King."""
    for seed in range(games):
        seed_bytes, setup, steps = played(3, seed)
        for end, step in enumerate(steps, 1):
            if isinstance(step.events[-1], m.ActionDeclared):
                yield seed_bytes, setup, steps[:end]


def test_an_unanswered_declaration_is_re_drawn_for_all_but_the_challenger():
    changed = compared = 0
    for seed, setup, steps in declared_positions():
        challenger = steps[-1].seat
        for n, viewer in enumerate(("p1", "p2", "p3", None)):
            twin = RULES.twin(setup, steps, viewer, random.Random(n))
            decided_again(seed, setup, steps, twin)
            doors_match(setup, steps, viewer, twin, last=3)
            if viewer == challenger:
                assert twin[-1] == steps[-1].events[-1]
            changed += twin[-1] != steps[-1].events[-1]
            compared += 1
        if compared >= 40:
            break
    assert compared and changed, (compared, changed)
