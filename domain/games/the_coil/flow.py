"""The course of a round: phases beginning and ending, automatic steps
(neutral expansion, first-turn rerolls, Conquest) written as events."""

from __future__ import annotations

import random

from .battle import first_turn_reroll
from .data import NATIONS, ROUNDS
from .evolve import evolve
from .messages import (
    DeckShuffled, DiceReturned, GameEnded, PhaseBegan, RegionFlipped, RegionsClaimed, RegionsLeftPlay,
    ReservesRerolled, RoundBegan,
)
from .state import State


class Emitter:
    """Collects events while folding them, so that later steps see their effect."""

    def __init__(self, state: State | None):
        self.state = state
        self.events: list = []

    def emit(self, event) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)


def has_cards(state: State, nation: str) -> bool:
    return bool(state.deck(nation) or state.discard(nation))


def refill(em: Emitter, rng: random.Random, nation: str, need: int = 1) -> None:
    """A homeland deck that runs short is re-formed from its discard area."""
    state = em.state
    if len(state.deck(nation)) < need and state.discard(nation):
        cards = list(state.discard(nation))
        rng.shuffle(cards)
        em.emit(DeckShuffled(nation, tuple(cards)))


def turn_order(state: State) -> tuple[str, ...]:
    """Greatest total on the dice in reserves first (ties: highest initiative), then clockwise."""
    def key(seat: str):
        return sum(state.reserve(seat)), NATIONS[state.nation_of(seat)].initiative
    first = state.index(max(state.seats, key=key))
    return state.seats[first:] + state.seats[:first]


def begin_round(em: Emitter, rng: random.Random, number: int) -> None:
    em.emit(RoundBegan(number))
    neutral = em.state.neutral
    if neutral and has_cards(em.state, neutral):
        refill(em, rng, neutral)
        em.emit(RegionFlipped(None, neutral, em.state.deck(neutral)[0]))
    pending = tuple(s for s in em.state.seats if has_cards(em.state, em.state.nation_of(s)))
    em.emit(PhaseBegan("expansion", pending))
    after_expansion(em, rng)


def after_expansion(em: Emitter, rng: random.Random) -> None:
    if em.state.pending:
        return
    em.emit(PhaseBegan("muster", tuple(s for s in em.state.seats if em.state.population(s) > 0)))
    after_muster(em, rng)


def after_muster(em: Emitter, rng: random.Random) -> None:
    if em.state.pending:
        return
    em.emit(PhaseBegan("escalation", turn_order(em.state)))


def after_escalation_turn(em: Emitter, rng: random.Random) -> None:
    if em.state.current() is None:
        em.emit(PhaseBegan("battle", turn_order(em.state)))
        begin_battle_turn(em, rng)


def begin_battle_turn(em: Emitter, rng: random.Random) -> None:
    seat = em.state.current()
    rerolled = first_turn_reroll(em.state, seat, rng)
    if rerolled:
        em.emit(ReservesRerolled(seat, *rerolled))


def conquest(em: Emitter, rng: random.Random) -> None:
    """Claim regions, place them (or take them as tactics), return the dice, go on."""
    state = em.state
    kept = []
    for seat in state.seats:
        won = [r for r in state.coil if (r.dice and r.dice[-1][0] == seat)
               or (not r.dice and r.nation == state.nation_of(seat))]
        if state.is_ability(seat, "rear_guard"):
            battle_won = [r for r in won if r.dice]
            if battle_won:
                kept.append((seat, battle_won[0].dice[-1][1]))
        room = {area: state.room_in(seat, area) for area in ("west", "home", "east")}
        placed = []
        for region in won:
            area = state.area_for(seat, region.nation)
            if area and room[area] > 0:
                room[area] -= 1
                placed.append((region.card, area))
            else:
                placed.append((region.card, "hand"))
        if placed:
            em.emit(RegionsClaimed(seat, tuple(placed)))
    if state.neutral:
        left = tuple(r.card for r in em.state.coil if not r.dice and r.nation == state.neutral)
        if left:
            em.emit(RegionsLeftPlay(state.neutral, left))
    em.emit(DiceReturned(tuple(kept)))
    if state.round < ROUNDS:
        begin_round(em, rng, state.round + 1)
    else:
        em.emit(PhaseBegan("choose", tuple(s for s in state.seats if len(state.strategies[state.index(s)]) > 1)))
        after_choice(em)


def after_choice(em: Emitter) -> None:
    if not em.state.pending:
        em.emit(GameEnded())
