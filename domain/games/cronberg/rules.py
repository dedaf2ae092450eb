"""Cronberg: setup, legal commands, timeouts and standings.

Decisions where the rulebook and the brief are silent:
- Playing a building is two commands in one turn: DrawBuilding turns the top
  tile of one shuffled face-down stack face up for everyone, PlaceBuilding
  lays it. DrawBuilding is offered only while some place for a tile is left,
  so a drawn tile can always be placed.
- PlaceBuilding names its two triangles in board order; ``turned`` rotates
  the tile half a turn (tiles are never flipped face down).
- A building may cover a printed Park, Musketeer or Coat of Arms (the
  rulebook forbids only covering a building); a covered special triangle is
  not vacant, so it never becomes active.
- Family members may stand on any crossing of the grid, wall crossings too.
- A vacant enclosed plain triangle is still vacant: a member beside it stays
  in the city until the end of the round, as beside an active Park.
- Passing is automatic: when a turn ends, each following seat that can
  neither draw a building nor place a member passes (TurnPassed) and the next
  one that can begins. When nobody can, the round ends with end scoring.
- Several rounds (option): each round starts on an empty city with all 28
  tiles reshuffled and every member back in its supply; scores carry over.
  The first round's starter is drawn at random; each later round starts
  with the next seat clockwise.
- Members scored at the end of a round return to their supply.
- A building's consequences come in this order: triangles enclosed, members
  driven out by a newly active Musketeer (never scored: a Musketeer is a
  vacant triangle, so a member beside it never lacks a vacant neighbour),
  then members with no vacant triangle left scored at once. Those score the
  plain sum: every Park or Coat of Arms beside them would be vacant.
- Only the crossings of the new building can lose their last vacant
  triangle, and only its neighbours can become enclosed, so only those are
  examined.
- Scores may go below 0; equal top scores share the win (Standing ranks 1, 1).
- The starting player is the most courageous one: drawn at random, recorded
  in RoundStarted.
"""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from ...engine import EVERYONE, Command, Event, Option, Standing, rank_by
from ...kit import Step
from .board import BOARD
from .decide import start_round
from .logic import can_build, free_slots, member_crossings
from .messages import BuildingDrawn, DrawBuilding, GameSetUp, PlaceBuilding, PlaceMember, RoundStarted
from .state import State
from .views import to_act

OPTIONS = (
    Option("players", "int", 2, "number of players", minimum=2, maximum=4),
    Option("rounds", "int", 1, "rounds to play; each starts from the scores of the one before", minimum=1, maximum=4),
)


def seats(options: Mapping[str, Any]) -> tuple[str, ...]:
    return tuple(f"p{n}" for n in range(1, int(options.get("players", 2)) + 1))


def setup(seats: tuple[str, ...], options: Mapping[str, Any], rng: random.Random) -> list[Event]:
    rounds = int(options.get("rounds", 1))
    starter = rng.choice(seats)
    return [GameSetUp(seats=tuple(seats), rounds=rounds), start_round(tuple(seats), 1, starter, rng)]


def legal_commands(state: State, seat: str) -> list[Command]:
    if seat not in to_act(state):
        return []
    if state.drawn:
        return [
            PlaceBuilding(triangles=(BOARD.triangles[s.first].id, BOARD.triangles[s.second].id), turned=turned)
            for s in free_slots(state)
            for turned in (False, True)
        ]
    commands: list[Command] = [DrawBuilding()] if can_build(state) else []
    if state.supply[state.seat_number(seat)] > 0:
        commands += [PlaceMember(crossing=BOARD.crossings[c].id) for c in member_crossings(state)]
    return commands


def on_timeout(state: State, seat: str, rng: random.Random) -> Command:
    commands = legal_commands(state, seat)
    if state.drawn:
        return rng.choice(commands)
    return commands[0]  # DrawBuilding while any is left: the game moves on


def score(state: State) -> list[Standing]:
    scores = dict(zip(state.seats, state.scores))
    ranks = rank_by(scores)
    return [Standing(seat=seat, rank=ranks[seat], score=scores[seat]) for seat in state.seats]


def twin(setup_events: Sequence[Event], steps: Sequence[Step], viewer: str | None, rng: random.Random) -> list[Event]:
    """The same game with the face-down tiles nobody drew re-stacked: only
    the referee sees the stack's order, and a tile is shown once drawn."""
    events = [*setup_events, *(event for step in steps for event in step.events)]
    if viewer == EVERYONE:
        return events
    twinned: list[Event] = []
    for n, event in enumerate(events):
        if isinstance(event, RoundStarted):
            later = events[n + 1:]
            end = next((i for i, e in enumerate(later) if isinstance(e, RoundStarted)), len(later))
            drawn = sum(isinstance(e, BuildingDrawn) for e in later[:end])
            rest = list(event.stack[drawn:])
            rng.shuffle(rest)
            event = RoundStarted(round=event.round, starter=event.starter, stack=(*event.stack[:drawn], *rest))
        twinned.append(event)
    return twinned
