"""Building the events of one decision: a draft that folds each event as it is
emitted, the shared effects (coins, Plot draws, the King, Renown), Standoffs,
and the automatic steps that follow a command until a player must choose.

Decisions where the rulebook is silent (see also the package docstring):
- Draws beyond the hand limit are not drawn; an empty pile is reshuffled from
  the discards; with both empty nothing is drawn.
- The reserve pays what it has; a player who owes coins gives what he has.
- The King stops on the first Wrath space he reaches and moves no more this turn;
  the game ends at once when he reaches the last space.
- A Standoff with no rogue does nothing; with one player's rogues, that player wins.
  A controller who wins again keeps control (no new token)."""

from __future__ import annotations

import random

from ...kit import Draft
from . import messages as m
from .data import HAND_LIMIT, KING_END, NEIGHBOURHOOD_IDS, RENOWN_TOKENS, WRATH
from .evolve import evolve
from .state import State, king_winners, standoff_winner


def draft(state: State | None, rng: random.Random) -> Draft:
    """The events of one decision, each folded into ``state`` as it is emitted."""
    return Draft(evolve, state, rng)


def over(d: Draft) -> bool:
    """The game ended during this decision: nothing more happens."""
    return d.state.phase == "over"


# ------------------------------------------------------------- shared effects


def take_coins(d: Draft, seat: str, amount: int) -> None:
    amount = min(amount, d.state.reserve)
    if amount > 0 and not over(d):
        d.emit(m.CoinsTaken(seat, amount))


def give_coins(d: Draft, giver: str, receiver: str, amount: int) -> None:
    amount = min(amount, d.state.player(giver).coins)
    if amount > 0 and not over(d):
        d.emit(m.CoinsGiven(giver, receiver, amount))


def draw_plots(d: Draft, seat: str, count: int) -> None:
    if over(d):
        return
    count = min(count, HAND_LIMIT - len(d.state.player(seat).hand))
    while count > 0:
        if not d.state.pile:
            if not d.state.discards:
                return
            pile = list(d.state.discards)
            d.rng.shuffle(pile)
            d.emit(m.PlotPileReshuffled(tuple(pile)))
        cards = d.state.pile[:count]
        d.emit(m.PlotsDrawn(seat, cards))
        count -= len(cards)


def move_king(d: Draft, spaces: int) -> None:
    if over(d) or d.state.turn.king_stopped or spaces <= 0:
        return
    start = d.state.king
    for pos in range(start + 1, min(start + spaces, KING_END) + 1):
        if pos == KING_END:
            d.emit(m.KingMoved(start, pos))
            d.emit(m.GameEnded(king_winners(d.state), "king"))
            return
        if pos in WRATH:
            d.emit(m.KingMoved(start, pos, WRATH[pos]))
            return
    d.emit(m.KingMoved(start, min(start + spaces, KING_END)))


def place_renown(d: Draft, seat: str, neighbourhood: str | None = None, line: int | None = None) -> None:
    """Place a Renown token (taking control from another player); the sixth wins at once."""
    if over(d):
        return
    if neighbourhood is not None:
        previous = d.state.controller(neighbourhood)
        if previous == seat:
            return
        if previous is not None:
            d.emit(m.RenownReturned(previous, neighbourhood=neighbourhood))
    d.emit(m.RenownPlaced(seat, neighbourhood=neighbourhood, line=line))
    if d.state.renown_placed(seat) >= RENOWN_TOKENS:
        d.emit(m.GameEnded((seat,), "renown"))


def apply_bonus(d: Draft, seat: str, kind: str, amount: int) -> None:
    if kind == "king":
        move_king(d, amount)
    elif kind == "coins":
        take_coins(d, seat, amount)
    elif kind == "plots":
        draw_plots(d, seat, amount)


# ------------------------------------------------------------------ Standoffs


def begin_standoff(d: Draft, neighbourhood: str, chariot: bool = False) -> None:
    d.emit(m.StandoffBegan(neighbourhood, d.state.rogues_in(neighbourhood), chariot))


def resolve_winner(d: Draft) -> None:
    st = d.state.standoff
    winner, scores = standoff_winner(st)
    d.emit(m.StandoffWon(st.neighbourhood, winner, tuple((s, scores[s]) for s in d.state.seats if s in scores)))


def courtesan_waiting(state: State) -> bool:
    st = state.standoff
    return (
        st is not None and st.won and st.winner is not None
        and any(owner == st.winner and kind == "courtesan" for owner, _, kind in st.rogues)
    )


def finish_standoff(d: Draft, target: str) -> None:
    """Renown for the winner (on ``target``), rogue abilities, rogues back home."""
    st = d.state.standoff
    winner = st.winner
    if winner is not None:
        place_renown(d, winner, neighbourhood=target)
        for owner, _, kind in st.rogues:
            if over(d):
                return
            if kind == "beggar" and owner != winner:
                give_coins(d, winner, owner, 1)
            elif kind == "pickpocket" and owner == winner:
                take_coins(d, owner, 2)
            elif kind == "priest" and owner == winner:
                draw_plots(d, owner, 1)
            elif kind == "soothsayer" and owner != winner:
                take_coins(d, owner, 1)
                draw_plots(d, owner, 1)
    if over(d):
        return
    d.emit(m.RoguesReturned(st.neighbourhood))
    d.emit(m.StandoffEnded(st.neighbourhood))


def end_turn(d: Draft) -> None:
    s = d.state
    standoffs = tuple(n for n in NEIGHBOURHOOD_IDS if s.full(n) or n == s.turn.wrath)
    d.emit(m.TurnEnded(s.active, standoffs))


def advance(d: Draft, auto_end) -> None:
    """Automatic steps until a player must choose (or the game is over).
    ``auto_end(state)`` says whether an 'act' phase has nothing left to do."""
    while not over(d):
        s = d.state
        if s.phase == "act" and auto_end(s):
            end_turn(d)
        elif s.phase == "standoffs":
            if not s.queue:
                d.emit(m.TurnBegan(s.next_seat(s.active)))
                return
            if len(s.queue) > 1:
                return
            begin_standoff(d, s.queue[0])
        elif s.phase == "standoff":
            st = s.standoff
            if st.awaiting or courtesan_waiting(s):
                return
            if not st.won:
                answers = dict(st.chosen)
                for seat in s.seats:
                    if answers.get(seat, 0) > 0:
                        d.emit(m.SwordsmenPaid(seat, answers[seat]))
                resolve_winner(d)
                if courtesan_waiting(d.state):
                    return
                continue
            finish_standoff(d, st.neighbourhood)
        else:
            return
