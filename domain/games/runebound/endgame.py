"""The Crown of the Elder Kings variant: Vassal sets, the Endgame and the Elder King Confrontation."""

from __future__ import annotations

from ...engine import IllegalCommand
from ...kit import Draft
from . import data
from . import messages as m
from .state import Hero, State


def has_set(hero: Hero) -> bool:
    """Three of a rank or three of a house, Dragon Lords wild; defeating Margath completes a set."""
    if data.MARGATH in hero.trophies:
        return True
    wild = len(hero.dragon_lords)
    vassals = [data.CARDS[card] for card in hero.vassals]
    for rank in data.RANKS:
        if sum(card["rank"] == rank for card in vassals) + wild >= 3:
            return True
    for house in data.HOUSES:
        if sum(card["house"] == house for card in vassals) + wild >= 3:
            return True
    return False


def challenger_order(state: State, king: str, draft: Draft) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The other heroes by level, then gold, then unspent adventure counters, then at random.
    Returns the order and the seats whose places were decided at random."""
    def key(seat: str) -> tuple[int, int, int]:
        hero = state.hero(seat)
        return (hero.level, hero.gold, len(hero.counters))

    others = [seat for seat in state.in_play if seat != king]
    order: list[str] = []
    randomised: list[str] = []
    for value in sorted({key(seat) for seat in others}, reverse=True):
        group = [seat for seat in others if key(seat) == value]
        if len(group) > 1:
            draft.rng.shuffle(group)
            randomised.extend(group)
        order.extend(group)
    return tuple(order), tuple(randomised)


def begin_endgame(draft: Draft, king: str) -> None:
    order, randomised = challenger_order(draft.state, king, draft)
    levels = tuple(draft.state.hero(seat).level for seat in order)
    draft.emit(m.EndgameBegan(king=king, challengers=order, levels=levels, random_tiebreak=randomised))
    crown(draft, king)


def crown(draft: Draft, seat: str) -> None:
    """The new Elder King discards his Dragon Lords (and Margath), then places up to three Vassals;
    if every other player has been eliminated he has won at once."""
    hero = draft.state.hero(seat)
    discarded = tuple(card for card in hero.trophies if card in data.DRAGON_LORDS or card == data.MARGATH)
    draft.emit(m.ElderKingCrowned(seat=seat, discarded=discarded))
    if not draft.state.endgame.challengers:
        draft.emit(m.GameWon(seat=seat))


def allies_ready(hero: Hero) -> tuple[str, ...]:
    return tuple(ally.name for ally in hero.allies if ally.name not in hero.exhausted)


def next_combat(draft: Draft) -> None:
    """The challenger faces the next Vassal in line, or the Elder King himself. No refresh in between."""
    endgame = draft.state.endgame
    challenger = draft.state.hero(endgame.challengers[0])
    allies = allies_ready(challenger)
    if endgame.line:
        draft.emit(m.CombatBegan(seat=challenger.seat, enemy=endgame.line[0][0], opponent=None,
                             allies=allies, opponent_allies=()))
    else:
        king = draft.state.hero(endgame.king)
        draft.emit(m.CombatBegan(seat=challenger.seat, enemy=None, opponent=king.seat,
                             allies=allies, opponent_allies=allies_ready(king)))


def next_confrontation(draft: Draft) -> None:
    """The next challenger confronts the Elder King, or the last Elder King wins."""
    endgame = draft.state.endgame
    if endgame.king is None and endgame.challengers:
        # Simultaneous knock-out: nobody holds the crown; the next challenger takes it.
        crown(draft, endgame.challengers[0])
        return
    if not endgame.challengers:
        draft.emit(m.GameWon(seat=endgame.king or endgame.last_king))
        return
    draft.emit(m.ConfrontationBegan(seat=endgame.challengers[0]))
    next_combat(draft)


def place_vassal(draft: Draft, seat: str, vassal: str) -> None:
    endgame = draft.state.endgame
    if vassal not in draft.state.hero(seat).vassals:
        raise IllegalCommand(f"{vassal!r} is not one of your Vassals")
    if len(endgame.line) >= 3:
        raise IllegalCommand("you have already placed three Vassals")
    draft.emit(m.VassalPlaced(seat=seat, vassal=vassal))


def finish_placing(draft: Draft, seat: str) -> None:
    draft.emit(m.VassalsPlaced(seat=seat))
    next_confrontation(draft)

