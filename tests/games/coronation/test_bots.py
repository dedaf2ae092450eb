"""Random games played by bots other than the uniform one: the timeout bot
(``on_timeout``, which draws a kind of action first) and a Lind who hunts the
jewels. They reach endings the uniform bot never does (a jewel victory) and
keep Lind from spending both turn-skip cards at once."""

from __future__ import annotations

import random
from collections import Counter

from domain.engine import rng_for
from domain.games.coronation import RULES
from domain.games.coronation import messages as m
from domain.games.coronation.data import BOARD
from domain.games.coronation.legal import LIND_SEAT
from domain.playout import check_step, random_command, start


def _distances(state) -> dict[int, int]:
    """Steps (foot or cab) from each location to the nearest jewel not yet
    taken, through locations Lind may still visit."""
    targets = [j for j in BOARD.jewels if j not in state.stolen]
    dist = {j: 0 for j in targets}
    todo = list(targets)
    while todo:
        later = []
        for a in todo:
            for b in set(BOARD.foot[a]) | set(BOARD.cab[a]):
                if b not in dist and b not in state.on_table:
                    dist[b] = dist[a] + 1
                    later.append(b)
        todo = later
    return dist


def jewel_hunter(state, commands, rng):
    """Lind walks (or rides) towards the nearest jewel he has not taken,
    shunning the places a detective can reach in one action."""
    moves = [c for c in commands if isinstance(c, m.MoveLind)]
    if state.phase != "lind" or not moves:
        return RULES.on_timeout(state, LIND_SEAT, rng)
    dist = _distances(state)
    watched = {near for d in state.detective_locations for near in (*BOARD.foot[d], *BOARD.cab[d])}

    def cost(command):
        return dist.get(command.to, 99) + 3 * (command.to in watched)

    best = min(cost(c) for c in moves)
    return rng.choice([c for c in moves if cost(c) == best])


def _play(options, seed, lind_bot=None, check=True):
    playout = start(RULES, options, seed)
    rng = random.Random(seed)
    while RULES.outcome(playout.state) is None:
        assert playout.steps < 5000
        seat = rng.choice(sorted(RULES.to_act(playout.state)))
        commands = RULES.legal_commands(playout.state, seat)
        if seat == LIND_SEAT and lind_bot is not None:
            command = lind_bot(playout.state, commands, rng)
        else:
            command = RULES.on_timeout(playout.state, seat, rng)
        assert command in commands
        events = RULES.decide(playout.state, seat, command, rng_for(playout.seed, len(playout.events)))
        playout.state = RULES.replay(events, playout.state)
        playout.events.extend(events)
        playout.steps += 1
        if check:
            check_step(playout, events)
    return playout


def _hide_turns(playout) -> list[int]:
    turns, turn = [], 1
    for event in playout.events:
        if isinstance(event, m.TurnEnded):
            turn = event.turn + 1
        if isinstance(event, m.LindMoved) and event.by == "hide":
            turns.append(turn)
    return turns


def test_the_timeout_bot_does_not_make_lind_spend_both_turn_skip_cards_at_once():
    uniform_quick = timeout_quick = 0
    for seed in range(20):
        playout = start(RULES, {}, seed)
        rng = random.Random(seed)
        while len(playout.state.route) < 4 and RULES.outcome(playout.state) is None:
            seat = rng.choice(sorted(RULES.to_act(playout.state)))
            command = random_command(RULES, playout.state, seat, rng)
            playout.state = RULES.replay(RULES.decide(playout.state, seat, command, rng), playout.state)
        uniform_quick += playout.state.count("turn-skip") == 0
        timed_out = _play({}, seed, check=False)
        timeout_quick += _hide_turns(timed_out)[:2] in ([1, 2], [1, 3], [2, 3])
    assert uniform_quick >= 10  # the uniform bot: both cards in the first three turns, mostly
    assert timeout_quick <= 3, timeout_quick


def test_random_games_through_the_timeout_bot_end_replay_exactly_and_are_won_by_both_sides():
    winners, hides = Counter(), Counter()
    for seed in range(10):
        options = {"detective_seats": 1 + seed % 5, "equipment": ("recommended", "random", "choose")[seed % 3]}
        playout = _play(options, seed, check=seed < 3)
        assert RULES.replay(playout.events) == playout.state
        winners[playout.state.winner] += 1
        hides[len(_hide_turns(playout))] += 1
    assert winners["lind"] >= 2 and winners["detectives"] >= 2, winners
    assert hides[0] + hides[1] >= 1 and hides[2] >= 1, hides


def test_a_jewel_hunting_lind_wins_random_games_by_leaving_every_jewel_location():
    endings = Counter()
    for seed in range(30):
        options = {"detective_seats": 1 + seed % 5, "last_turn": 40}
        playout = _play(options, seed, lind_bot=jewel_hunter, check=seed < 2)
        assert RULES.replay(playout.events) == playout.state
        last = playout.events[-1]
        endings[type(last).__name__ + getattr(last, "reason", "")] += 1
        if last == m.LindWon("jewels"):
            state = playout.state
            assert sorted(state.stolen) == sorted(BOARD.jewels) and state.jewels_left == 0
            assert RULES.outcome(state) == "Doctor Lind wins: he stole every coronation jewel"
            assert state.turn <= 40
    assert endings["LindWonjewels"] >= 5 and endings["LindCaught"] >= 5, endings
