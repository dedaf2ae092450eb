"""Every legal command of a seat: complete and exact (``decide`` accepts a
command if and only if it is listed here)."""

from __future__ import annotations

from . import messages as m
from .data import LINES, NEIGHBOURHOOD_IDS, RIGHT_HAND_LINE, SWORDSMAN, ACTION_OF
from .flow import courtesan_waiting
from .state import State

PLOT_PHASES = ("place", "act")  # rules version 1: plot cards only while placing and acting
# Rules version 2: any moment of one's own turn but not during a Standoff.
PLOT_PHASES_ANY_MOMENT = ("place", "act", "recruit", "wrath", "standoffs")


def plot_phases(state: State) -> tuple[str, ...]:
    return PLOT_PHASES_ANY_MOMENT if state.plot_any_moment else PLOT_PHASES
BEFORE_PLACING = ("devil", "magician")  # cards that act "when you place a Rogue token"


def to_act(state: State) -> frozenset[str]:
    if state is None or state.phase == "over":
        return frozenset()
    if state.phase == "standoff":
        st = state.standoff
        if st.awaiting:
            return frozenset(st.awaiting)
        if courtesan_waiting(state):
            return frozenset({st.winner})
        return frozenset()
    return frozenset({state.active})


def _moves(pairs, free) -> list[tuple[str, int, str, int]]:
    return [(n, s, tn, ts) for n, s in pairs for tn, ts in free]


def plot_commands(state: State, seat: str) -> list[m.PlayPlot]:
    s = state
    if s.phase not in plot_phases(s) or seat != s.active or s.turn.plot_played:
        return []
    me = s.player(seat)
    result: list[m.PlayPlot] = []
    free = s.free_spots()
    for card in sorted(set(me.hand)):
        if card in ("fool", "judgment"):
            result.append(m.PlayPlot(card))
        elif card in BEFORE_PLACING:
            if s.phase == "place":
                result.append(m.PlayPlot(card))
        elif card == "chariot":
            for n in NEIGHBOURHOOD_IDS:
                if len({owner for owner, _, _ in s.rogues_in(n)}) >= 2:
                    result.append(m.PlayPlot(card, neighbourhood=n))
        elif card == "death":
            result.extend(m.PlayPlot(card, take=c) for c in sorted(set(s.discards)))
        elif card == "empress":
            targets = [n for n in NEIGHBOURHOOD_IDS if s.controller(n) is None]
            for t in targets:
                result.extend(m.PlayPlot(card, neighbourhood=n, to_neighbourhood=t)
                              for n in NEIGHBOURHOOD_IDS if s.controller(n) == seat)
                result.extend(m.PlayPlot(card, line=l, to_neighbourhood=t) for l in me.lines)
        elif card == "hanged-man":
            theirs = [(n, sp) for n, sp, o in s.spots() if o is not None and o[0] != seat]
            result.extend(m.PlayPlot(card, neighbourhood=n, spot=sp, to_neighbourhood=tn, to_spot=ts)
                          for n, sp, tn, ts in _moves(theirs, free))
        elif card == "hermit":
            result.extend(m.PlayPlot(card, neighbourhood=n) for n in NEIGHBOURHOOD_IDS if s.controller(n) == seat)
        elif card == "justice":
            result.extend(m.PlayPlot(card, neighbourhood=n) for n in NEIGHBOURHOOD_IDS if s.rogues_in(n))
        elif card == "strength":
            if s.bag and s.drawn is None:  # not while a recruited rogue waits: one drawn rogue at a time
                result.append(m.PlayPlot(card))
        elif card == "wheel":
            result.extend(m.PlayPlot(card, player=p) for p in s.seats if p != seat)
    return result


def action_neighbourhoods(state: State) -> list[str]:
    """Whose action the active player may take now (The Magician: another's instead)."""
    t = state.turn
    if state.phase != "act" or t.action_done or t.placed_neighbourhood is None:
        return []
    if t.magician:
        return [n for n in NEIGHBOURHOOD_IDS if n != t.placed_neighbourhood]
    return [t.placed_neighbourhood]


def affordable_lines(state: State, seat: str) -> list[int]:
    me = state.player(seat)
    return [
        l.line for l in LINES
        if l.line not in me.lines and me.coins >= l.toll and (l.line != RIGHT_HAND_LINE or me.right_hand_parked)
    ]


def action_commands(state: State, seat: str) -> list:
    s = state
    result: list = []
    for n in action_neighbourhoods(s):
        action = ACTION_OF[n]
        if action == "recruit" and s.bag:
            result.append(m.Recruit())
        elif action == "shift":
            placed = (s.turn.placed_neighbourhood, s.turn.placed_spot)
            others = [(a, b) for a, b, o in s.spots() if o is not None and (a, b) != placed]
            result.extend(m.ShiftRogue(*move) for move in _moves(others, s.free_spots()))
        elif action == "renown":
            result.extend(m.BuyRenown(line) for line in affordable_lines(s, seat))
        elif action == "plot":
            result.append(m.DrawPlot())
        elif action == "coins":
            result.append(m.TakeCoins())
    return result


def placement_commands(state: State, seat: str) -> list:
    s = state
    free = s.free_spots()
    supply = s.player(seat).supply
    if supply:
        return [m.PlaceRogue(kind, n, sp) for kind in sorted(set(supply)) for n, sp in free]
    return [m.MoveRogue(*move) for move in _moves(s.on_board(seat), free)]


def legal_commands(state: State, seat: str) -> list:
    s = state
    if seat not in to_act(s):
        return []
    if s.phase == "place":
        return plot_commands(s, seat) + placement_commands(s, seat)
    if s.phase == "act":
        return action_commands(s, seat) + plot_commands(s, seat) + [m.EndTurn()]
    if s.phase == "recruit":
        pool = s.player(seat).supply + (s.drawn,)
        return [m.DiscardRogue(kind) for kind in sorted(set(pool))] + plot_commands(s, seat)
    if s.phase == "wrath":
        return [m.ChooseWrath(n) for n in NEIGHBOURHOOD_IDS] + plot_commands(s, seat)
    if s.phase == "standoffs":
        return [m.SettleStandoff(n) for n in s.queue] + plot_commands(s, seat)
    if s.phase == "standoff":
        st = s.standoff
        if seat in st.awaiting:
            swords = sum(1 for owner, _, kind in st.rogues if owner == seat and kind == "swordsman")
            most = min(swords, s.player(seat).coins // SWORDSMAN["price"])
            return [m.PaySwordsmen(c) for c in range(most + 1)]
        return [m.PlaceCourtesanRenown(n) for n in NEIGHBOURHOOD_IDS]
    return []


def act_phase_finished(state: State) -> bool:
    """After the action, the turn ends by itself when no Plot card may be played
    any more: the hand is empty or this turn's card was played. (Not "when no
    card in hand is playable": that would tell the others what kind of cards
    the hand holds.)"""
    return state.turn.action_done and (state.turn.plot_played or not state.player(state.active).hand)
