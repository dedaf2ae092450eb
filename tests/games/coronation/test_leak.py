"""Leak tests: re-randomise Lind's hidden route, keep everything public equal,
and every detective seat's and the spectator's view and event feed must stay
byte-identical.

Two ways. (1) Whole games: a random game A is played to its end; game B
replays every detective command of A while Lind, wherever A's detectives
never reveal his route, takes other random actions that make the same public
facts (a card left or not, a jewel taken or not) and lead where no detective
of A steps later; where they do reveal it, B's Lind does what A's did. Until
B can no longer follow A's public course, the views, feeds and legal
commands of A and B must agree for every non-Lind viewer. The game's own
twin (``RULES.twin``, domain/games/coronation/twin.py) is checked the same
way over whole games: it must follow A's public course to the end, so it
keeps more of Lind's route than B does before B parts from A. (2) Deep
positions: in states of random games, every unrevealed route card, the cards
on them, Lind's location, hand and stolen jewels are shuffled, and every Lind
event of the log gets other hidden fields; the views and feeds must agree."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter

from domain.engine import EVERYONE, resolve_options, rng_for
from domain.games.coronation import RULES
from domain.games.coronation import messages as m
from domain.games.coronation.data import BOARD
from domain.games.coronation.legal import LIND_SEAT
from domain.kit import Step
from domain.playout import start
from tests.games.told import seen

def _dump(value) -> str:
    return json.dumps(value, sort_keys=True)


def lind_choice(commands, rng):
    """Lind's bot: first a way (foot, trap, cab, underground, hide), then a command."""
    groups: dict[str, list] = {}
    for command in commands:
        key = type(command).__name__ + getattr(command, "by", "") + ("trap" if getattr(command, "trap", None) else "")
        groups.setdefault(key, []).append(command)
    return rng.choice(groups[rng.choice(sorted(groups))])


def _public(event) -> tuple:
    """What the rules make public about an event (written independently of views.py)."""
    if isinstance(event, m.LindAppeared):
        return ("LindAppeared",)
    if isinstance(event, m.LindMoved):
        return ("LindMoved", event.card is not None, event.stole)
    if isinstance(event, m.LindMovedExtraordinarily):
        return ("LindMovedExtraordinarily", event.stole)
    return (_dump(event.to_json()),)


def _play_a(options, seed, max_steps=2000):
    """Game A, played to its end: (seat, command, events) per step."""
    playout = start(RULES, options, seed)
    rng = random.Random(seed)
    steps = []
    while RULES.outcome(playout.state) is None and len(steps) < max_steps:
        seat = rng.choice(sorted(RULES.to_act(playout.state)))
        commands = RULES.legal_commands(playout.state, seat)
        command = lind_choice(commands, rng) if seat == LIND_SEAT else rng.choice(commands)
        events = RULES.decide(playout.state, seat, command, rng_for(playout.seed, len(playout.events)))
        steps.append((seat, command, events))
        playout.state = RULES.replay(events, playout.state)
        playout.events.extend(events)
    return playout, steps


def _kept(final) -> set[int]:
    """Route indices whose Lind step B must copy from A: those A's detectives
    revealed (a card's location, or the card left on the one before), and
    where A's Lind ended."""
    kept = {len(final.route) - 1}
    for index, card in enumerate(final.route):
        if card.location_shown:
            kept.add(index)
        if card.card_shown:
            kept.add(index + 1)
    return kept


def _route_index(state, command) -> int:
    if isinstance(command, m.AppearLind):
        return 0
    if isinstance(command, (m.MoveLind, m.HideLind)):
        return len(state.route)
    return len(state.route) - 1


def _alternative(state, events, avoid, rng):
    """Another Lind command with the same public facts, leading where no
    detective of A steps later."""
    options = []
    for other in RULES.legal_commands(state, LIND_SEAT):
        new = RULES.decide(state, LIND_SEAT, other, rng)
        where = other.location if isinstance(other, m.AppearLind) else getattr(new[0], "to", None)
        if [_public(e) for e in new] == [_public(e) for e in events] and where not in avoid:
            options.append(other)
    return rng.choice(options) if options else None


def _compare_games(options, seed) -> Counter:
    """Plays A, then B beside it; counts the steps compared where B's hidden
    route differed from A's, and those of them with a card revealed."""
    playout, steps = _play_a(options, seed)
    kept = _kept(playout.state)
    viewers = [seat for seat in playout.seats if seat != LIND_SEAT] + [None]
    rng = random.Random(seed * 7 + 1)
    a = b = RULES.replay(playout.events[: len(playout.events) - sum(len(s[2]) for s in steps)])
    counts = Counter()
    for index, (seat, command, a_events) in enumerate(steps):
        b_command = command
        if seat == LIND_SEAT and _route_index(b, command) not in kept:
            later = {s[1].to for s in steps[index + 1 :] if isinstance(s[1], m.MoveDetective)}
            b_command = _alternative(b, a_events, later | b.detective_locations, rng)
        if b_command is None or b_command not in RULES.legal_commands(b, seat):
            break  # B cannot follow A's public course any more
        b_events = RULES.decide(b, seat, b_command, rng)
        if [_public(e) for e in b_events] != [_public(e) for e in a_events]:
            break  # the public facts part (B cornered, or B elsewhere when A is caught)
        a, b = RULES.replay(a_events, a), RULES.replay(b_events, b)
        counts["a hide for a move"] += isinstance(command, m.HideLind) != isinstance(b_command, m.HideLind)
        if a.route != b.route or a.lind_at != b.lind_at:
            counts["differing"] += 1
            counts["after a reveal"] += any(card.location_shown for card in a.route)
        for viewer in viewers:
            assert _dump(RULES.view(a, viewer)) == _dump(RULES.view(b, viewer)), (seed, index, viewer)
            assert [_dump(seen(RULES, e, viewer)) for e in a_events] == [
                _dump(seen(RULES, e, viewer)) for e in b_events
            ], (seed, index, viewer)
            assert RULES.legal_commands(a, viewer) == RULES.legal_commands(b, viewer)
    return counts


def test_no_detective_seat_or_spectator_can_tell_two_games_that_differ_only_in_lind_s_hidden_route():
    counts = Counter()
    for seed in range(40):
        options = {"detective_seats": 1 + seed % 5, "equipment": ("recommended", "random")[seed % 2]}
        counts += _compare_games(options, seed)
    assert counts["differing"] > 300, counts
    assert counts["after a reveal"] > 50, counts
    assert counts["a hide for a move"] > 20, counts


# Whole games through RULES.twin ---------------------------------------------


def _play_with_steps(options, seed, max_steps=2000):
    """Game A, played to its end: its setup events and its steps."""
    playout = start(RULES, options, seed)
    setup = list(playout.events)
    rng = random.Random(seed)
    steps = []
    while RULES.outcome(playout.state) is None and len(steps) < max_steps:
        seat = rng.choice(sorted(RULES.to_act(playout.state)))
        commands = RULES.legal_commands(playout.state, seat)
        command = lind_choice(commands, rng) if seat == LIND_SEAT else rng.choice(commands)
        events = RULES.decide(playout.state, seat, command, rng_for(playout.seed, len(playout.events)))
        steps.append(Step(seat, command, RULES.version, tuple(events)))
        playout.state = RULES.replay(events, playout.state)
        playout.events.extend(events)
    return playout, setup, steps


def _compare_with_twins(options, seed) -> Counter:
    """Plays A, then B = RULES.twin of A for each detective seat and the
    spectator, beside it; counts the steps compared where B's hidden route
    differed from A's, and those of them with a card revealed."""
    playout, setup, steps = _play_with_steps(options, seed)
    viewers = [seat for seat in playout.seats if seat != LIND_SEAT] + [None]
    counts = Counter()
    for viewer in viewers:
        twin = RULES.twin(setup, steps, viewer, random.Random(seed * 7 + 1))
        a = b = RULES.replay(setup)
        assert twin[: len(setup)] == setup
        rest = twin[len(setup):]
        for index, step in enumerate(steps):
            a_events, b_events, rest = list(step.events), rest[: len(step.events)], rest[len(step.events):]
            a, b = RULES.replay(a_events, a), RULES.replay(b_events, b)
            counts["a hide for a move"] += any(
                isinstance(x, m.LindMoved) and isinstance(y, m.LindMoved) and (x.by == "hide") != (y.by == "hide")
                for x, y in zip(a_events, b_events))
            if a.route != b.route or a.lind_at != b.lind_at:
                counts["differing"] += 1
                counts["after a reveal"] += any(card.location_shown for card in a.route)
            assert _dump(RULES.view(a, viewer)) == _dump(RULES.view(b, viewer)), (seed, index, viewer)
            assert [_dump(seen(RULES, e, viewer)) for e in a_events] == [
                _dump(seen(RULES, e, viewer)) for e in b_events
            ], (seed, index, viewer)
            for seat in viewers:
                assert RULES.legal_commands(a, seat) == RULES.legal_commands(b, seat)
        assert rest == []
    return counts


def test_no_detective_seat_or_spectator_can_tell_a_whole_game_from_its_twin():
    counts = Counter()
    for seed in range(20):
        options = {"detective_seats": 1 + seed % 5, "equipment": ("recommended", "random")[seed % 2]}
        counts += _compare_with_twins(options, seed)
    assert counts["differing"] > 300, counts
    assert counts["after a reveal"] > 50, counts


# Deep positions --------------------------------------------------------------


def _rerandomised_state(state, rng):
    """The same public facts with every hidden one drawn again."""
    shown = {c.location for c in state.route if c.location_shown}
    free = [loc for loc in BOARD.locations if loc not in shown]
    rng.shuffle(free)
    cards = [*BOARD.traps, "ticket", "note", "turn-skip"]
    route = []
    for card in state.route:
        changes = {}
        if not card.location_shown:
            changes = {"location": free.pop(), "hide": rng.random() < 0.2}
        if card.card is not None and not card.card_shown:
            changes["card"] = rng.choice(cards)
        route.append(dataclasses.replace(card, **changes))
    total = state.cards_left
    kinds = sorted(dict(state.hand))
    hand = {kind: 0 for kind in kinds}
    for _ in range(total):
        hand[rng.choice(kinds)] += 1
    stolen = tuple(rng.sample(BOARD.jewels, len(state.stolen)))
    return dataclasses.replace(
        state, route=tuple(route), lind_at=rng.choice(free), hand=tuple(sorted(hand.items())), stolen=stolen
    )


def _rerandomised_event(event, rng):
    where = rng.choice(list(BOARD.locations))
    if isinstance(event, m.LindAppeared):
        return m.LindAppeared(where)
    if isinstance(event, m.LindMoved):
        if event.card is None:
            return m.LindMoved(where, "foot", None, event.stole)
        way = rng.choice(["foot", "cab", "underground", "hide"])
        card = {"foot": rng.choice(list(BOARD.traps)), "cab": "ticket", "underground": "note", "hide": "turn-skip"}
        return m.LindMoved(where, way, card[way], event.stole)
    if isinstance(event, m.LindMovedExtraordinarily):
        return m.LindMovedExtraordinarily(rng.choice([None, where]), event.stole)
    return event


def test_deep_positions_show_the_same_to_detectives_whatever_lind_s_hidden_route():
    from domain.playout import step

    checked = 0
    for seed in range(30):
        options = {"detective_seats": 1 + seed % 5, "last_turn": 21}
        playout = start(RULES, options, seed)
        rng = random.Random(seed)
        viewers = [seat for seat in playout.seats if seat != LIND_SEAT] + [None]
        while RULES.outcome(playout.state) is None:
            step(playout, rng, check=False)
            if playout.state.lind_at is None or rng.random() > 0.3:
                continue
            other = _rerandomised_state(playout.state, rng)
            for viewer in viewers:
                assert _dump(RULES.view(playout.state, viewer)) == _dump(RULES.view(other, viewer))
                assert RULES.legal_commands(playout.state, viewer) == RULES.legal_commands(other, viewer)
            checked += 1
        for event in playout.events:
            other = _rerandomised_event(event, rng)
            for viewer in viewers:
                assert _dump(seen(RULES, event, viewer)) == _dump(seen(RULES, other, viewer))
        assert _dump(RULES.view(playout.state, EVERYONE))
    assert checked > 200
    assert resolve_options(RULES.options, {})["last_turn"] == 21
