"""A twin of a played game for a viewer who is not Lind: the same game with
Lind's hidden route drawn again wherever the detectives never learn it.

Only Lind's route is hidden (his location, the route cards nobody revealed,
the cards face down on them, his hand and the jewels he took); the setup and
every detective's cards and moves are public. So the twin keeps every
detective command, re-decided on the twin's states, and replaces each of
Lind's commands that the viewer never learns about by another with the same
public face (a card left or not, a jewel taken or not) that leads where no
detective steps later. It keeps the Lind commands the detectives learn
about: a route card they reveal, the one laid after a card whose card they
reveal, the place where they catch him, the cards that close his ways out
when he is cornered; and since a move, or taking a jewel, depends on where
Lind starts, the command that brought him there, with every command in
between a hide (or a declined extraordinary movement). Each step of the twin
is checked against the viewer's doors (view, ``visible``, who is to act, the
detective seats' legal commands); when the twin cannot follow the game's
public course, the latest re-drawn command is drawn again (depth first);
after a few fruitless attempts the game itself is its own twin.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ...engine import EVERYONE, Event, IllegalCommand
from ...kit import Step
from . import messages as m
from .data import BOARD
from .legal import LIND_SEAT, legal_commands, to_act
from .views import view, visible

ATTEMPTS = 4
TRIES = 600  # commands one attempt may decide on the twin's states
STILL = (m.HideLind, m.DeclineExtraordinaryMovement)  # Lind's commands that leave him where he stands


def twin(setup_events: Sequence[Event], steps: Sequence[Step], viewer: str | None, rng: random.Random) -> list[Event]:
    original = [*setup_events, *(event for step in steps for event in step.events)]
    if viewer in (LIND_SEAT, EVERYONE) or not any(step.seat == LIND_SEAT for step in steps):
        return original  # Lind's player and the referee see everything; no Lind command, nothing to re-draw
    from . import RULES  # the Game, built in __init__, which imports this module

    rules = RULES  # a history of the newest rules version, as the suite and the tests play them
    plan = _plan(rules, setup_events, steps)
    for attempt in range(ATTEMPTS):
        built = _build(rules, setup_events, steps, viewer, plan, rng, same_cards=attempt % 2 == 1)
        if built is not None:
            return built
    return original


@dataclass
class _Plan:
    """Which of A's Lind steps the twin copies, and which must leave Lind where he stands."""

    kept: set[int] = field(default_factory=set)
    still: set[int] = field(default_factory=set)
    fixed: set[int] = field(default_factory=set)  # locations of kept steps: the twin's Lind must leave them free
    later: dict[int, set[int]] = field(default_factory=dict)  # step -> where detectives step after it


def _plan(rules, setup_events: Sequence[Event], steps: Sequence[Step]) -> _Plan:
    plan = _Plan()
    state = rules.replay(setup_events)
    setter: dict[int, int] = {}  # route index -> the step that last set its location
    creator: dict[int, int] = {}  # route index -> the step that laid it
    positioner: int | None = None  # the step that last set where Lind stands
    came_from: dict[int, int | None] = {}  # a step -> the positioner before it
    card_shown: set[int] = set()
    for n, step in enumerate(steps):
        command = step.command
        if step.seat == LIND_SEAT:
            came_from[n] = positioner
            replaces = isinstance(command, (m.MoveLindExtraordinarily, m.DeclineExtraordinaryMovement))
            index = len(state.route) - 1 if replaces else len(state.route)
            if isinstance(command, (m.AppearLind, m.MoveLind, m.HideLind)):
                setter[index] = creator[index] = n
            if isinstance(command, m.MoveLindExtraordinarily):
                setter[index] = n
            if not isinstance(command, STILL):
                positioner = n
        for event in step.events:
            if isinstance(event, m.RouteCardRevealed) and event.index in setter:
                plan.kept.add(setter[event.index])
                if event.card_shown:
                    card_shown.add(event.index)
            if isinstance(event, m.LindCaught) and positioner is not None:
                plan.kept.add(positioner)
                if event.detective is None:  # cornered: the cards that close his ways out lie where they lay
                    ways_out = set(BOARD.foot[event.location]) | set(BOARD.cab[event.location]) | set(BOARD.underground)
                    plan.kept |= {k for k in setter.values() if _destination(steps[k].command, steps[k].events) in ways_out}
            state = rules.evolve(state, event)
    plan.kept |= {creator[i + 1] for i in card_shown if i + 1 in creator}
    # A kept move starts where Lind stood, and taking a jewel needs him on it:
    # the step that put him there is kept, and those between leave him there.
    anchored = [n for n in plan.kept if _moves(steps[n].command)]
    anchored += [n for n, step in enumerate(steps) if step.seat == LIND_SEAT and _steals(step.events)]
    while anchored:
        n = anchored.pop()
        before = came_from.get(n)
        if before is None:
            continue
        plan.still |= {k for k in range(before + 1, n) if steps[k].seat == LIND_SEAT and k not in plan.kept}
        if before not in plan.kept:
            plan.kept.add(before)
            if _moves(steps[before].command):
                anchored.append(before)
    plan.still -= plan.kept
    plan.fixed = {_destination(steps[n].command, steps[n].events) for n in plan.kept} - {None}
    where: set[int] = set()
    for n in range(len(steps) - 1, -1, -1):
        plan.later[n] = set(where)
        if isinstance(steps[n].command, m.MoveDetective):
            where.add(steps[n].command.to)
    return plan


def _moves(command: m.Command) -> bool:
    """A Lind command whose outcome depends on where he starts."""
    return isinstance(command, (m.MoveLind, m.MoveLindExtraordinarily))


def _steals(events: Sequence[Event]) -> bool:
    return any(getattr(event, "stole", False) for event in events)


def _destination(command: m.Command, events: Sequence[Event]) -> int | None:
    """Where a Lind command leads (a hide: its decoy)."""
    if isinstance(command, m.AppearLind):
        return command.location
    first = events[0] if events else None
    return getattr(first, "to", None)


def _build(rules, setup_events, steps, viewer, plan: _Plan, rng: random.Random, same_cards: bool) -> list[Event] | None:
    """The twin's events, found depth first: when the twin cannot follow the
    game's public course (Lind cornered where A's was not), the latest of
    Lind's re-drawn commands is drawn again; None when ``TRIES`` run out."""
    originals = [rules.replay(setup_events)]
    for step in steps:
        originals.append(rules.replay(step.events, originals[-1]))
    seats = [seat for seat in originals[0].seats if seat != LIND_SEAT]
    twins, chosen = [originals[0]], []
    options: dict[int, list[m.Command]] = {}
    tries = TRIES
    n = 0
    while n < len(steps):
        step, a, b = steps[n], originals[n], twins[n]
        found = None
        if step.seat == LIND_SEAT and n not in plan.kept:
            if n not in options:
                options[n] = _candidates(b, step, plan, n, rng, same_cards)
            avoid = plan.later[n] | plan.fixed | b.detective_locations
            while options[n] and found is None and tries > 0:
                tries -= 1
                command = options[n].pop()
                b_events = _decided(rules, b, LIND_SEAT, command)
                if b_events is not None and _destination(command, b_events) not in avoid and _alike(
                        rules, a, b, step.events, b_events, viewer, seats):
                    found = b_events
        elif tries > 0:
            tries -= 1
            b_events = _decided(rules, b, step.seat, step.command)
            if b_events is not None and _alike(rules, a, b, step.events, b_events, viewer, seats):
                found = b_events
        if found is None:
            back = max((k for k in options if k < n and options[k]), default=None) if tries > 0 else None
            if back is None:
                return None
            for k in [k for k in options if k > back]:
                del options[k]
            n, twins, chosen = back, twins[: back + 1], chosen[:back]
            continue
        chosen.append(found)
        twins.append(rules.replay(found, b))
        n += 1
    return [*setup_events, *(event for events in chosen for event in events)]


def _decided(rules, state: Any, seat: str, command: m.Command) -> list[Event] | None:
    try:
        return rules.decide(state, seat, command, random.Random(0))
    except IllegalCommand:
        return None


def _candidates(b, step: Step, plan: _Plan, n: int, rng: random.Random, same_cards: bool) -> list[m.Command]:
    """Lind's legal commands on the twin's state that may stand in for the step's, in a drawn order."""
    card = getattr(step.events[0], "card", None) if step.events else None
    candidates = []
    for command in legal_commands(b, LIND_SEAT):
        if n in plan.still and not isinstance(command, STILL):
            continue
        if same_cards and isinstance(command, (m.MoveLind, m.HideLind)) and _card(command) != card:
            continue
        candidates.append(command)
    rng.shuffle(candidates)
    return candidates


def _card(command: m.Command) -> str | None:
    """The card a move or hide leaves."""
    if isinstance(command, m.HideLind):
        return "turn-skip"
    return {"foot": command.trap, "cab": "ticket", "underground": "note"}.get(command.by)


def _alike(rules, a, b, a_events, b_events, viewer, seats) -> bool:
    """Whether the viewer, event by event, sees the same in both games."""
    if len(a_events) != len(b_events):
        return False
    for a_event, b_event in zip(a_events, b_events):
        if visible(a_event, viewer) != visible(b_event, viewer):
            return False
        a, b = rules.evolve(a, a_event), rules.evolve(b, b_event)
        if to_act(a) != to_act(b) or view(a, viewer) != view(b, viewer):
            return False
        if any(legal_commands(a, seat) != legal_commands(b, seat) for seat in seats):
            return False
    return True
