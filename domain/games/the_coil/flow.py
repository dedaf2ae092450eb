"""The course of a game: the deal, phases beginning and ending, automatic
steps (neutral expansion, first-turn rerolls, reshuffles, Conquest) written as events."""

from __future__ import annotations

import random

from ... import engine
from .battle import first_turn_reroll
from .conquest import claim, needs_choice, placements, won_regions
from .data import NATION_IDS, NATIONS, ROUNDS, STRATEGIES, cards_of
from .evolve import evolve
from .messages import (
    CardsDrawn, DeckShuffled, DiceReturned, GameEnded, NeutralNationDrawn, PhaseBegan, RegionFlipped,
    RegionsClaimed, RegionsLeftPlay, ReservesRerolled, RoundBegan, StrategyDeckShuffled, StrategyDrawn,
)
from .state import State


class Emitter(engine.Draft):
    """Collects events while folding them, so that later steps see their effect.

    With an ``rng`` it also keeps the rule "If your homeland deck is ever empty,
    shuffle the cards in your discard area to form a new homeland deck": after
    every event, an empty deck with cards in its discard area is re-formed at once."""

    def __init__(self, state: State | None, rng: random.Random | None = None):
        super().__init__(evolve, state, rng)

    def emit(self, event) -> None:
        super().emit(event)
        if self.rng is not None and not isinstance(event, DeckShuffled):
            for nation in self.state.table():
                if not self.state.deck(nation) and self.state.discard(nation):
                    cards = list(self.state.discard(nation))
                    self.rng.shuffle(cards)
                    self.emit(DeckShuffled(nation, tuple(cards)))


def has_cards(state: State, nation: str) -> bool:
    return bool(state.deck(nation) or state.discard(nation))


def refill(em: Emitter, rng: random.Random, nation: str, need: int = 1) -> None:
    """Scout draws one card and flips the next: when the draw would empty the
    deck, the discard area is shuffled to form the new deck the flip comes
    from (shuffled in under the last card, which is the same)."""
    state = em.state
    if len(state.deck(nation)) < need and state.discard(nation):
        cards = list(state.discard(nation))
        rng.shuffle(cards)
        em.emit(DeckShuffled(nation, tuple(cards)))


def deal(em: Emitter, rng: random.Random) -> None:
    """Setup once every seat has its nation: the neutral third nation (two
    players), homeland decks, strategy cards, starting tactics, round 1."""
    state = em.state
    if len(state.seats) == 2 and state.neutral is None:
        em.emit(NeutralNationDrawn(rng.choice([n for n in NATION_IDS if n not in state.nations])))
    for nation in em.state.table():
        deck = list(cards_of(nation))
        rng.shuffle(deck)
        em.emit(DeckShuffled(nation, tuple(deck)))
    strategy = list(STRATEGIES)
    rng.shuffle(strategy)
    em.emit(StrategyDeckShuffled(tuple(strategy)))
    for seat in state.seats:
        em.emit(StrategyDrawn(seat, em.state.strategy_deck[0]))
    for seat in state.seats:
        nation = em.state.nation_of(seat)
        em.emit(CardsDrawn(seat, nation, em.state.deck(nation)[: NATIONS[nation].starting_hand]))
    begin_round(em, rng, 1)


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
    """Claim regions: seats whose claims overflow an area choose what to place
    (PlaceRegions); the others' regions are placed at once."""
    state = em.state
    em.emit(PhaseBegan("conquest", tuple(s for s in state.seats if needs_choice(state, s))))
    for seat in state.seats:
        if seat not in em.state.pending and won_regions(state, seat):
            em.emit(RegionsClaimed(seat, claim(state, seat, placements(state, seat)[0])))
    after_conquest(em, rng)


def after_conquest(em: Emitter, rng: random.Random) -> None:
    """Once every seat has placed its regions: return the dice, go on."""
    state = em.state
    if state.pending:
        return
    kept = []
    for seat in state.seats:
        if state.is_ability(seat, "rear_guard"):
            battle_won = [r for r in won_regions(state, seat) if r.dice]
            if battle_won:
                kept.append((seat, battle_won[0].dice[-1][1]))
    if state.neutral:
        left = tuple(r.card for r in state.coil if not r.dice and r.nation == state.neutral)
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
