"""The course of a game: the deal, phases beginning and ending, automatic
steps (neutral expansion, first-turn rerolls, reshuffles, Conquest) written as events."""

from __future__ import annotations

import random

from ...engine import Event
from ...kit import Draft
from .battle import first_turn_reroll
from .conquest import claim, needs_choice, placements, won_regions
from .data import NATION_IDS, NATIONS, ROUNDS, STRATEGIES, cards_of
from .evolve import evolve
from .messages import (
    CardsDrawn, DeckShuffled, DiceReturned, GameEnded, NeutralNationDrawn, PhaseBegan, RegionFlipped,
    RegionsClaimed, RegionsLeftPlay, ReservesRerolled, RoundBegan, StrategyDeckShuffled, StrategyDrawn,
)
from .state import State


def reform_empty_decks(draft: Draft, event: Event) -> None:
    """The rule "If your homeland deck is ever empty, shuffle the cards in your
    discard area to form a new homeland deck", kept after every event: an
    empty deck with cards in its discard area is re-formed at once."""
    if isinstance(event, DeckShuffled):
        return
    for nation in draft.state.table():
        if not draft.state.deck(nation) and draft.state.discard(nation):
            cards = list(draft.state.discard(nation))
            draft.rng.shuffle(cards)
            draft.emit(DeckShuffled(nation, tuple(cards)))


def new_draft(state: State | None, rng: random.Random) -> Draft:
    """The draft every decision of The Coil is written on: each event folded
    at once, and empty homeland decks re-formed after it."""
    return Draft(evolve, state, rng, after_each=reform_empty_decks)


def has_cards(state: State, nation: str) -> bool:
    return bool(state.deck(nation) or state.discard(nation))


def refill(draft: Draft, nation: str, need: int = 1) -> None:
    """Scout draws one card and flips the next: when the draw would empty the
    deck, the discard area is shuffled to form the new deck the flip comes
    from (shuffled in under the last card, which is the same)."""
    state = draft.state
    if len(state.deck(nation)) < need and state.discard(nation):
        cards = list(state.discard(nation))
        draft.rng.shuffle(cards)
        draft.emit(DeckShuffled(nation, tuple(cards)))


def deal(draft: Draft) -> None:
    """Setup once every seat has its nation: the neutral third nation (two
    players), homeland decks, strategy cards, starting tactics, round 1."""
    state = draft.state
    if len(state.seats) == 2 and state.neutral is None:
        draft.emit(NeutralNationDrawn(draft.rng.choice([n for n in NATION_IDS if n not in state.nations])))
    for nation in draft.state.table():
        deck = list(cards_of(nation))
        draft.rng.shuffle(deck)
        draft.emit(DeckShuffled(nation, tuple(deck)))
    strategy = list(STRATEGIES)
    draft.rng.shuffle(strategy)
    draft.emit(StrategyDeckShuffled(tuple(strategy)))
    for seat in state.seats:
        draft.emit(StrategyDrawn(seat, draft.state.strategy_deck[0]))
    for seat in state.seats:
        nation = draft.state.nation_of(seat)
        draft.emit(CardsDrawn(seat, nation, draft.state.deck(nation)[: NATIONS[nation].starting_hand]))
    begin_round(draft, 1)


def turn_order(state: State) -> tuple[str, ...]:
    """Greatest total on the dice in reserves first (ties: highest initiative), then clockwise."""
    def key(seat: str):
        return sum(state.reserve(seat)), NATIONS[state.nation_of(seat)].initiative
    first = state.index(max(state.seats, key=key))
    return state.seats[first:] + state.seats[:first]


def begin_round(draft: Draft, number: int) -> None:
    draft.emit(RoundBegan(number))
    neutral = draft.state.neutral
    if neutral and has_cards(draft.state, neutral):
        draft.emit(RegionFlipped(None, neutral, draft.state.deck(neutral)[0]))
    pending = tuple(s for s in draft.state.seats if has_cards(draft.state, draft.state.nation_of(s)))
    draft.emit(PhaseBegan("expansion", pending))
    after_expansion(draft)


def after_expansion(draft: Draft) -> None:
    if draft.state.pending:
        return
    draft.emit(PhaseBegan("muster", tuple(s for s in draft.state.seats if draft.state.population(s) > 0)))
    after_muster(draft)


def after_muster(draft: Draft) -> None:
    if draft.state.pending:
        return
    draft.emit(PhaseBegan("escalation", turn_order(draft.state)))


def after_escalation_turn(draft: Draft) -> None:
    if draft.state.current() is None:
        draft.emit(PhaseBegan("battle", turn_order(draft.state)))
        begin_battle_turn(draft)


def begin_battle_turn(draft: Draft) -> None:
    seat = draft.state.current()
    rerolled = first_turn_reroll(draft.state, seat, draft.rng)
    if rerolled:
        draft.emit(ReservesRerolled(seat, *rerolled))


def conquest(draft: Draft) -> None:
    """Claim regions: seats whose claims overflow an area choose what to place
    (PlaceRegions); the others' regions are placed at once."""
    state = draft.state
    draft.emit(PhaseBegan("conquest", tuple(s for s in state.seats if needs_choice(state, s))))
    for seat in state.seats:
        if seat not in draft.state.pending and won_regions(state, seat):
            draft.emit(RegionsClaimed(seat, claim(state, seat, placements(state, seat)[0])))
    after_conquest(draft)


def after_conquest(draft: Draft) -> None:
    """Once every seat has placed its regions: return the dice, go on."""
    state = draft.state
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
            draft.emit(RegionsLeftPlay(state.neutral, left))
    draft.emit(DiceReturned(tuple(kept)))
    if state.round < ROUNDS:
        begin_round(draft, state.round + 1)
    else:
        draft.emit(PhaseBegan("choose", tuple(s for s in state.seats if len(state.strategies[state.index(s)]) > 1)))
        after_choice(draft)


def after_choice(draft: Draft) -> None:
    if not draft.state.pending:
        draft.emit(GameEnded())
