"""evolve: the pure fold of one event into the state (never rolls, never raises
on a stored event)."""

from __future__ import annotations

from dataclasses import replace

from .data import CARDS, NATION_IDS
from .messages import (
    BattleTurnEnded, CardsDrawn, DeckShuffled, DiceMustered, DiceReturned, DieDeployed, DieShifted,
    EscalationTurnEnded, GameEnded, GameStarted, NationChosen, NeutralNationDrawn, PhaseBegan, Recruited, RegionFlipped, RegionsClaimed,
    RegionsLeftPlay, ReservesRerolled, RoundBegan, Scouted, Stopped, StrategyChosen, StrategyDeckShuffled,
    StrategyDrawn, Strategized, TacticPlayed,
)
from .state import SIMULTANEOUS, Region, State, escalation_actions, remove_one, with_nation, with_seat, wrap


def _add_dice(state: State, seat: str, values) -> State:
    return with_seat(state, "reserves", seat, tuple(sorted(state.reserve(seat) + tuple(values))))


def _draw(state: State, nation: str, card: str) -> State:
    """The top card of the nation's deck leaves it (the event names it)."""
    deck = state.deck(nation)
    return with_nation(state, "decks", nation, deck[1:] if deck[:1] == (card,) else remove_one(deck, card))


def _flip(state: State, card: str) -> State:
    state = _draw(state, CARDS[card].nation, card)
    return replace(state, coil=state.coil + (Region(card),))


def _take_into_hand(state: State, seat: str, nation: str, card: str) -> State:
    state = _draw(state, nation, card)
    return with_seat(state, "hands", seat, state.hand(seat) + (card,))


def _strategy(state: State, seat: str, card: str) -> State:
    i = state.index(seat)
    return replace(
        state,
        strategy_deck=state.strategy_deck[1:],
        strategies=state.strategies[:i] + (state.strategies[i] + (card,),) + state.strategies[i + 1:],
    )


def _escalation_turn(state: State) -> State:
    seat = state.current()
    if seat is None:
        return replace(state, actions_left=0)
    return replace(state, actions_left=escalation_actions(state, seat))


def _next_battle_turn(state: State, seat: str) -> State:
    had = state.had_turn if seat in state.had_turn else state.had_turn + (seat,)
    return replace(state, turn=(state.turn + 1) % len(state.order), had_turn=had, acted=False, deployed=False)


def evolve(state: State | None, event) -> State:
    if isinstance(event, GameStarted):
        n = len(event.seats)
        empty = tuple(() for _ in NATION_IDS)
        return State(
            seats=event.seats, nations=tuple(event.nations) or (None,) * n, neutral=event.neutral, decks=empty, discards=empty,
            hands=((),) * n, strategies=((),) * n, chosen=(None,) * n, reserves=((),) * n, claimed=((),) * n,
        )
    assert state is not None
    match event:
        case NationChosen(seat=seat, nation=nation):
            return replace(with_seat(state, "nations", seat, nation), turn=state.turn + 1)
        case NeutralNationDrawn(nation=nation):
            return replace(state, neutral=nation)
        case DeckShuffled(nation=nation, cards=cards):
            state = with_nation(state, "decks", nation, state.deck(nation) + tuple(cards))
            return with_nation(state, "discards", nation, ())
        case StrategyDeckShuffled(cards=cards):
            return replace(state, strategy_deck=tuple(cards))
        case StrategyDrawn(seat=seat, card=card):
            return _strategy(state, seat, card)
        case CardsDrawn(seat=seat, nation=nation, cards=cards):
            for card in cards:
                state = _take_into_hand(state, seat, nation, card)
            return state
        case RoundBegan(round=number):
            return replace(state, round=number)
        case PhaseBegan(phase=phase, seats=seats):
            simultaneous = phase in SIMULTANEOUS
            state = replace(
                state, phase=phase, pending=tuple(seats) if simultaneous else (),
                order=() if simultaneous else tuple(seats), turn=0, actions_left=0,
                had_turn=(), acted=False, deployed=False, shifted=(),
            )
            return _escalation_turn(state) if phase == "escalation" else state
        case RegionFlipped(seat=seat, card=card):
            state = _flip(state, card)
            if seat in state.pending:
                state = replace(state, pending=remove_one(state.pending, seat))
            return state
        case DiceMustered(seat=seat, values=values):
            state = _add_dice(state, seat, values)
            return replace(state, pending=remove_one(state.pending, seat))
        case Recruited(seat=seat, value=value):
            return replace(_add_dice(state, seat, (value,)), actions_left=state.actions_left - 1)
        case Scouted(seat=seat, nation=nation, card=card, flipped=flipped):
            state = _take_into_hand(state, seat, nation, card)
            if flipped:
                state = _flip(state, flipped)
            return replace(state, actions_left=state.actions_left - 1)
        case Strategized(seat=seat, card=card):
            return replace(_strategy(state, seat, card), actions_left=state.actions_left - 1)
        case EscalationTurnEnded():
            return _escalation_turn(replace(state, turn=state.turn + 1))
        case ReservesRerolled(seat=seat, values=values):
            return with_seat(state, "reserves", seat, tuple(sorted(values)))
        case DieDeployed(seat=seat, value=value, region=card):
            state = with_seat(state, "reserves", seat, remove_one(state.reserve(seat), value))
            coil = tuple(
                Region(r.card, r.dice + ((seat, value),)) if r.card == card else r for r in state.coil
            )
            return replace(state, coil=coil, acted=True, deployed=True)
        case TacticPlayed(seat=seat, card=card, reserves=reserves):
            state = with_seat(state, "hands", seat, remove_one(state.hand(seat), card))
            nation = CARDS[card].nation
            state = with_nation(state, "discards", nation, state.discard(nation) + (card,))
            return replace(with_seat(state, "reserves", seat, tuple(sorted(reserves))), acted=True)
        case DieShifted(seat=seat, value=value, up=up):
            values = remove_one(state.reserve(seat), value) + (wrap(value + (1 if up else -1)),)
            state = with_seat(state, "reserves", seat, tuple(sorted(values)))
            return replace(state, acted=True, shifted=state.shifted + (seat,))
        case BattleTurnEnded(seat=seat):
            return _next_battle_turn(state, seat)
        case Stopped():
            return replace(state, phase="conquest", order=(), turn=0)
        case RegionsClaimed(seat=seat, regions=regions):
            for card, area in regions:
                if area == "hand":
                    state = with_seat(state, "hands", seat, state.hand(seat) + (card,))
                else:
                    state = with_seat(state, "claimed", seat, state.claims(seat) + ((card, area),))
            if seat in state.pending:
                state = replace(state, pending=remove_one(state.pending, seat))
            return state
        case RegionsLeftPlay(cards=cards):
            return replace(state, coil=tuple(r for r in state.coil if r.card not in set(cards)))
        case DiceReturned(kept=kept):
            state = replace(state, coil=())
            for seat, value in kept:
                state = _add_dice(state, seat, (value,))
            return state
        case StrategyChosen(seat=seat, card=card):
            state = with_seat(state, "chosen", seat, card)
            return replace(state, pending=remove_one(state.pending, seat))
        case GameEnded():
            return replace(state, phase="over", pending=())
    return state
